import Glibc
import Synchronization
import PageModel

// The kit's locking and threads: a lock over Synchronization's Mutex, threads on
// pthreads (Foundation's Thread would bring the whole of Foundation, and ICU,
// into every command's start-up; the kit needs only FoundationEssentials).

/// A mutual-exclusion lock guarding state kept beside it (Synchronization's
/// `Mutex`, holding nothing itself), as NSLock is.
package final class Lock: Sendable {
    private let mutex = Mutex<Void>(())

    package init() {}

    /// `body`'s result, run while holding the lock.
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try mutex.withLock { _ throws(E) -> T in try body() }
    }
}

/// Runs `body` on `count` new threads with `stackBytes` of stack each and returns
/// when all have finished (as `Thread` with a `stackSize`, then a wait).
func onThreads(_ count: Int, stackBytes: Int, _ body: @escaping @Sendable () -> Void) {
    final class Job: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackBytes)
    var threads: [pthread_t] = []
    for _ in 0..<count {
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let started = pthread_create(&thread, &attributes, { context in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            job.body()
            return nil
        }, job)
        if started == 0 {
            threads.append(thread)
        } else {
            // No thread: the work is done here instead (the job is shared, so
            // whatever workers did start still finish it).
            Unmanaged<Job>.fromOpaque(job).release()
            body()
        }
    }
    for thread in threads { pthread_join(thread, nil) }
}
