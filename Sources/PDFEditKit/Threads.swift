import Glibc

// The kit's locking and threads, on pthreads: Foundation's NSLock and Thread
// would bring the whole of Foundation (and ICU) into every command's start-up;
// the kit needs only FoundationEssentials (see StartupTests).

/// A mutual-exclusion lock (a pthread mutex), as NSLock is.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// `body`'s result, run while holding the lock.
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
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
