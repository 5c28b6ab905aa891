import Glibc
import PDFEditKit
import PageModel

/// A run that dies of a fatal signal — an abort when memory runs out inside a
/// library, a crash — still leaves no temporary file behind: a handler removes
/// them (`Cancellation.removeTemporariesNow`, async-signal-safe), puts back the
/// signal's previous action and raises the signal again, so that it takes its
/// course as before, with its exit status and whatever report the previous
/// action gives.
///
/// Installed by the executable only: the kit never installs a handler.
enum CrashCleanup {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP]

    /// The actions in place before `install`, by signal number (read by the handler).
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        table.initialize(repeating: sigaction(), count: 65)
        return table
    }()

    static func install() {
        let table = previous
        // A launcher may start us with them blocked (as `SignalExit.install`
        // finds of SIGINT): a fault ignores the mask, an abort or another
        // process's signal would wait for ever.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { number, _, _ in
                Cancellation.removeTemporariesNow()
                var old = CrashCleanup.previous[Int(number)]
                sigaction(number, &old, nil)
                // Pending (blocked while the handler runs) until it returns, then
                // taken as before: also for a signal sent by another process, which
                // no fault would repeat.
                raise(number)
            }
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, table + Int(number))
        }
    }
}
