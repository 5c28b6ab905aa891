#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import Synchronization
import PageModel

/// What a program's own handler of SIGINT / SIGTERM needs to leave nothing
/// half-written when it exits at once, even in the middle of a long qpdf write
/// (qpdf cannot be stopped mid-write): the temporary files and folders this
/// process made, and whether a commit of finished files is under way.
///
/// The kit installs no handler (a library must not change its host's signal
/// dispositions): the pdfedit command installs one (`SignalExit`) that calls
/// `signalArrived` and exits 130 / 143. A program that links the kit cancels a
/// long operation with a ``CancellationToken`` instead.
///
/// A signal handler may only make async-signal-safe calls, so the paths to remove
/// are kept as C strings in a table of slots, and the handler does nothing but read
/// it, `unlink` and `_exit`. Because every output reaches its final name only by
/// `rename`, an exit before the rename leaves the old file (or none) and the old
/// session.
///
/// The table grows without bound (a split export registers one temporary per
/// part, tens of thousands): a full table is copied into one twice its size, which
/// is then published with one atomic store; the old one is never freed, since the
/// handler may be reading it at that moment.
package enum Cancellation {
    /// The slots the handler reads. `slots[i]` is a `strdup`ed path or nil.
    struct Table {
        var capacity: Int
        var slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    }

    /// Pointers are not Sendable; the table they lead to is only written under
    /// `registry.lock` and read by the signal handler, which takes no lock.
    nonisolated(unsafe) private static let published = Atomic<UnsafeMutablePointer<Table>?>(nil)
    /// The signal that arrived while renames were in progress (0: none).
    private static let deferredSignal = Atomic<Int32>(0)
    private static let deferring = Atomic<Bool>(false)
    /// Whether the command winds up by itself on a signal (`cooperate`), and the
    /// signal it was sent (0: none yet).
    private static let cooperating = Atomic<Bool>(false)
    private static let keptSignal = Atomic<Int32>(0)

    /// Bookkeeping under `lock`: which slot holds which path, and the free ones.
    private final class Registry: @unchecked Sendable {
        let lock = Lock()
        var slotOfPath: [String: Int] = [:]
        var freeSlots: [Int] = []
        var used = 0
    }
    private static let registry = Registry()

    /// Makes, before a handler is installed, everything a handler reads: the
    /// handler must not be the first to touch a lazy global, which would be
    /// allocated there — malloc interrupted inside malloc (qpdf writing) corrupted
    /// the heap (abort, exit 134) when SIGINT reached a session export.
    package static func prepareForSignalHandler() {
        registry.lock.withLock { _ = table(minimumCapacity: 64) }
        _ = folderSlots
        _ = deferring.load(ordering: .sequentiallyConsistent)
        _ = deferredSignal.load(ordering: .sequentiallyConsistent)
    }

    /// Async-signal-safe, for a handler of SIGINT / SIGTERM that then ends the
    /// process: false when the signal arrived during `deferringSignals` (it is
    /// held back and raised again when the renames are done; the handler returns).
    /// Otherwise exports running on other threads are told to start no further
    /// part, this process's temporaries are removed, a thread that was just
    /// opening one is given the moment it needs to remove it itself, they are
    /// removed again, and the handler may exit.
    package static func signalArrived(_ signal: Int32) -> Bool {
        if deferIfCommitting(signal) { return false }
        WriteCancellation.request()
        removeRemembered()
        // A command that cooperates (`apply`) winds up itself: the handler returns.
        if keepForCommand(signal) { return false }
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
        nanosleep(&pause, nil)
        removeRemembered()
        return true
    }

    /// From now on the first SIGINT or SIGTERM does not end the process at once:
    /// the handler removes the temporary files, stops every write in progress
    /// (`WriteCancellation`: a bridge write fails at its next flush) and keeps the
    /// signal for `receivedSignal`, so that the command can wind up — say what was
    /// written, what was interrupted and what was never started — and exit 130 /
    /// 143 itself. A second signal, or `graceSeconds` without the command having
    /// exited, ends the process as any other command's signal does. For `apply`,
    /// whose files are all or nothing each, so that stopping between them loses
    /// nothing half-written.
    package static func cooperate(graceSeconds: UInt32 = 1) {
        _ = keptSignal.load(ordering: .sequentiallyConsistent)
        Self.graceSeconds.store(max(1, graceSeconds), ordering: .sequentiallyConsistent)
        cooperating.store(true, ordering: .sequentiallyConsistent)
    }

    private static let graceSeconds = Atomic<UInt32>(1)

    /// Async-signal-safe: how long a command that cooperates may wind up after a
    /// kept signal before the host's handler ends the process.
    package static var graceSecondsForKeptSignal: UInt32 { graceSeconds.load(ordering: .sequentiallyConsistent) }

    /// The signal that cancelled a command that cooperates (`cooperate`), nil
    /// while none came.
    package static var receivedSignal: Int32? {
        let signal = keptSignal.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// Async-signal-safe: whether the signal is kept for the command (the first
    /// one while it cooperates). The host's handler then starts the grace period
    /// (`alarm(graceSecondsForKeptSignal)`, SIGALRM handled with `graceEnded`):
    /// the library starts no timer of the process itself.
    static func keepForCommand(_ signal: Int32) -> Bool {
        guard cooperating.load(ordering: .sequentiallyConsistent) else { return false }
        guard keptSignal.compareExchange(expected: 0, desired: signal, ordering: .sequentiallyConsistent).exchanged
        else { return false }
        return true
    }

    /// Async-signal-safe, for the host's SIGALRM handler (`alarm` started the
    /// grace period when the signal was kept): the grace period ended with the
    /// command still running. Removes the temporaries and returns the kept signal
    /// (0 when none was kept), with which the handler ends the process.
    package static func graceEnded() -> Int32 {
        removeRemembered()
        return keptSignal.load(ordering: .sequentiallyConsistent)
    }

    /// Runs `body` — the renames that publish several finished files at once — with
    /// a handler's SIGINT and SIGTERM held back: one arriving meanwhile is raised
    /// again when `body` returns (the handler then exits 130 / 143 with every file
    /// in place), never half-way, which would leave some files renamed and the
    /// rest gone. Without a handler (a host that installed none) nothing is held.
    package static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        deferring.store(true, ordering: .sequentiallyConsistent)
        defer {
            deferring.store(false, ordering: .sequentiallyConsistent)
            let signal = deferredSignal.exchange(0, ordering: .sequentiallyConsistent)
            if signal != 0 { raise(signal) }
        }
        return try body()
    }

    static func remember(_ path: String) {
        registry.lock.withLock {
            let index: Int
            if let free = registry.freeSlots.popLast() {
                index = free
            } else {
                index = registry.used
                registry.used += 1
            }
            let table = table(minimumCapacity: index + 1)
            table.pointee.slots[index] = FileNames.duplicate(path)
            registry.slotOfPath[path] = index
        }
    }

    /// Folders the handler removes after the files (innermost last registered,
    /// removed first): a fixed, small table, so that the handler does not try
    /// `rmdir` on each of a split's thousands of files.
    static let folderCapacity = 16
    nonisolated(unsafe) private static let folderSlots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: folderCapacity)
        slots.initialize(repeating: nil, count: folderCapacity)
        return slots
    }()

    /// Remembers a folder for the handler; false when the table is full (the folder
    /// is then removed only on a normal exit).
    @discardableResult
    static func rememberFolder(_ path: String) -> Bool {
        registry.lock.withLock {
            guard let index = (0..<folderCapacity).first(where: { folderSlots[$0] == nil }) else { return false }
            folderSlots[index] = FileNames.duplicate(path)
            return true
        }
    }

    static func forgetFolder(_ path: String) {
        registry.lock.withLock {
            for index in 0..<folderCapacity {
                guard let slot = folderSlots[index], FileNames.string(cString: slot) == path else { continue }
                folderSlots[index] = nil
                free(slot)
            }
        }
    }

    static func forget(_ path: String) {
        registry.lock.withLock {
            guard let index = registry.slotOfPath.removeValue(forKey: path),
                let table = published.load(ordering: .sequentiallyConsistent)
            else { return }
            let slot = table.pointee.slots[index]
            table.pointee.slots[index] = nil
            free(slot)
            registry.freeSlots.append(index)
        }
    }

    /// The published table, first replaced by a larger copy when it has fewer than
    /// `minimumCapacity` slots. Call with `registry.lock` held.
    private static func table(minimumCapacity: Int) -> UnsafeMutablePointer<Table> {
        if let current = published.load(ordering: .sequentiallyConsistent),
            current.pointee.capacity >= minimumCapacity
        {
            return current
        }
        let old = published.load(ordering: .sequentiallyConsistent)
        var capacity = max(64, old?.pointee.capacity ?? 0)
        while capacity < minimumCapacity { capacity *= 2 }
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        if let old {
            slots.update(from: old.pointee.slots, count: old.pointee.capacity)
        }
        let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        table.initialize(to: Table(capacity: capacity, slots: slots))
        published.store(table, ordering: .sequentiallyConsistent)
        return table
    }

    /// Async-signal-safe: reads the published table and unlinks, then removes the
    /// remembered folders (now empty: they hold only remembered files and folders,
    /// see `TemporaryFiles.adopt`), the last remembered first; no allocation, no locks.
    ///
    /// Plain `while` loops, no ranges: an unoptimised build instantiates the
    /// metadata of a generic collection (`ReversedCollection<Range<Int>>`) on its
    /// first use, which allocates — inside a handler that interrupted malloc, a
    /// corrupted heap (abort, exit 134: one SIGINT in about 40 reached a debug
    /// build's session export of 20,000 pages that way).
    private static func removeRemembered() {
        guard let table = published.load(ordering: .sequentiallyConsistent) else { return }
        let capacity = table.pointee.capacity
        let slots = table.pointee.slots
        var index = 0
        while index < capacity {
            if let path = slots[index] { unlink(path) }
            index += 1
        }
        var round = 0
        while round < 2 {  // a folder freed again leaves a hole the next one may fill
            var folder = folderCapacity
            while folder > 0 {
                folder -= 1
                if let path = folderSlots[folder] { rmdir(path) }
            }
            round += 1
        }
    }

    /// Async-signal-safe: removes this process's temporary files and folders, for
    /// a program's own handler of a fatal signal (a crash, an abort short of
    /// memory), so that a failed run leaves nothing behind. The kit installs no
    /// such handler; the pdfedit command does (`CrashCleanup`).
    package static func removeTemporariesNow() {
        removeRemembered()
    }

    /// Async-signal-safe: whether the signal must wait for `deferringSignals` to end.
    private static func deferIfCommitting(_ signal: Int32) -> Bool {
        guard deferring.load(ordering: .sequentiallyConsistent) else { return false }
        deferredSignal.store(signal, ordering: .sequentiallyConsistent)
        return true
    }
}

/// Temporary files this process has made and not yet renamed into place, and its
/// temporary folders (with whatever is renamed into them). A signal handler
/// removes them before exiting (see `Cancellation`).
package final class TemporaryFiles: @unchecked Sendable {
    package static let shared = TemporaryFiles()
    private let lock = Lock()
    private var paths: Set<String> = []
    private var folders: [String] = []

    /// A folder of this process's own, removed with its contents by `removeFolder`,
    /// by `removeAll`, or by the signal handler.
    package func registerFolder(_ path: String) {
        lock.withLock { folders.append(path) }
        Cancellation.rememberFolder(path)
    }

    /// Removes a folder of `registerFolder` and everything in it.
    package func removeFolder(_ path: String) {
        Files.removeTree(path)
        let (files, subfolders) = lock.withLock {
            let inside = { (candidate: String) in candidate.hasPrefix(path + "/") }
            let subfolders = folders.filter(inside)
            folders.removeAll { $0 == path || inside($0) }
            return (paths.filter(inside), subfolders)
        }
        files.forEach(unregister)
        for folder in subfolders + [path] { Cancellation.forgetFolder(folder) }
    }

    /// A file renamed into one of the registered folders stays registered, and the
    /// folders between (`images/`) are registered too, so that the signal handler
    /// can empty the folder and remove it.
    func adopt(_ path: String) {
        guard let folder = lock.withLock({ folders.first { path.hasPrefix($0 + "/") } }) else { return }
        register(path)
        var between: [String] = []
        var current = Paths.folder(of: path)
        while current.hasPrefix(folder + "/") {
            between.append(current)
            current = Paths.folder(of: current)
        }
        for subfolder in between.reversed() where !lock.withLock({ folders.contains(subfolder) }) {
            lock.withLock { folders.append(subfolder) }
            Cancellation.rememberFolder(subfolder)
        }
    }

    package func register(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
        Cancellation.remember(path)
    }

    package func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
        Cancellation.forget(path)
    }

    package var all: [String] { lock.withLock { Array(paths) } }

    /// Removes every registered file and folder. Called on the way out after a failure.
    package func removeAll() {
        for path in all {
            unlink(path)
            unregister(path)
        }
        while let folder = lock.withLock({ folders.first }) { removeFolder(folder) }
    }
}
