import Foundation

/// Ctrl-C and SIGTERM: remove our temporary files and exit 130 / 143 at once,
/// even in the middle of a long qpdf write (qpdf cannot be stopped mid-write).
///
/// A signal handler may only make async-signal-safe calls, so the paths to remove
/// are kept as C strings in fixed slots, and the handler does nothing but `unlink`
/// and `_exit`. Because every output reaches its final name only by `rename`, an
/// exit before the rename leaves the old file (or none) and the old session.
public enum Cancellation {
    private static let slotCount = 64
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slotCount)
        slots.initialize(repeating: nil, count: slotCount)
        return slots
    }()
    private static let lock = NSLock()

    /// Installs the handlers explicitly: a process started in the background
    /// inherits SIGINT as ignored, and one started by some launchers inherits the
    /// signals blocked; either would otherwise never honour them.
    public static func install() {
        _ = slots
        signal(SIGINT, handleSignal)
        signal(SIGTERM, handleSignal)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func remember(_ path: String) {
        lock.withLock {
            for index in 0..<slotCount where slots[index] == nil {
                slots[index] = strdup(path)
                return
            }
        }
    }

    static func forget(_ path: String) {
        lock.withLock {
            for index in 0..<slotCount {
                if let slot = slots[index], String(cString: slot) == path {
                    slots[index] = nil
                    free(slot)
                    return
                }
            }
        }
    }
}

private func handleSignal(_ signal: Int32) {
    Cancellation.removeRemembered()
    _exit(128 + signal)
}

extension Cancellation {
    /// Async-signal-safe: reads the slots and unlinks; no allocation, no locks.
    fileprivate static func removeRemembered() {
        for index in 0..<slotCount {
            if let path = slots[index] { unlink(path) }
        }
    }
}
