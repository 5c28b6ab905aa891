#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
internal import PDFEngine
import PageModel

/// Runs page jobs on every core. Each worker keeps its own poppler documents, one
/// per source, for as long as the pool lives (poppler documents are not
/// thread-safe, and opening a large file costs more than rendering one page).
final class WorkerPool: @unchecked Sendable {
    let workerCount: Int
    /// One box per worker; worker `w` is the only thread that touches `handles[w]`.
    /// The array itself is never mutated: writing `handles[w][key]` into a `var`
    /// array of dictionaries from several workers at once was a data race on the
    /// array (ThreadSanitizer: "Swift access race" at `poppler(_:worker:)`).
    private let handles: [WorkerHandles]

    init(workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        workerCount = max(1, workers)
        handles = (0..<workerCount).map { _ in WorkerHandles() }
    }

    /// Calls `body` once for every index in `0..<jobCount`, spread over the workers,
    /// each job handed to the next free worker.
    /// A cancelled ``CancellationToken`` (the one observed on the calling thread)
    /// stops the workers before their next job, and the call fails with `.cancelled`.
    func run(jobCount: Int, _ body: (_ job: Int, _ worker: WorkerContext) -> Void) throws(PDFEditError) {
        try CancellationToken.check()
        guard jobCount > 0 else { return }
        let token = CancellationToken.current
        let next = JobCounter()
        let workers = min(workerCount, jobCount)
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let context = WorkerContext(pool: self, worker: worker)
                while token?.isCancelled != true, let job = next.take(below: jobCount) {
                    shared.value(job, context)
                }
            }
        }
        try CancellationToken.check()
    }

    /// The worker's own poppler document of a source, opened on first use.
    fileprivate func poppler(_ source: SourceOpening, worker: Int) throws(EngineError) -> PopplerPDF {
        let own = handles[worker]
        if let open = own.documents[source.key] { return open }
        let opened = try PopplerPDF(path: source.path, password: source.password, limits: ProcessLimits.reader)
        own.documents[source.key] = opened
        return opened
    }
}

/// The poppler documents one worker has open, by source.
private final class WorkerHandles {
    var documents: [String: PopplerPDF] = [:]
}

/// What a job may use: handles that belong to the worker running it.
struct WorkerContext {
    fileprivate let pool: WorkerPool
    let worker: Int

    func poppler(_ source: SourceOpening) throws(EngineError) -> PopplerPDF {
        try pool.poppler(source, worker: worker)
    }
}

/// Hands out job numbers to workers.
private final class JobCounter: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0

    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard next < limit else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// Carries a value that is only used in a way the caller has made safe (each
/// worker touches its own slots) across `concurrentPerform`.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One value per slot, written from several threads.
final class Slots<Value>: @unchecked Sendable {
    private var values: [Value?]
    private let lock = Lock()

    init(count: Int) { values = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Value? {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }

    func removeAll() -> [Value?] {
        lock.withLock {
            defer { values = Array(repeating: nil, count: values.count) }
            return values
        }
    }
}
