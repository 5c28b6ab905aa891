import Foundation
import PDFEngine
import QPDFBridge
import Synchronization
import Testing

/// The bridge's operator new and delete (Allocator.cpp): in effect for the whole
/// process, reusing what threads delete and what ended threads left, and right when objects made on one thread are
/// destroyed on another (a source opened by the loader and dropped by an export
/// thread, as `apply` and split exports do).
@Suite struct AllocatorTests {
    /// Runs `body` on a thread of its own and waits for it to end.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        let thread = Thread {
            result.value = body()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return result.value!
    }

    final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }

    @Test func libqpdfUsesTheBridgesOperatorNew() {
        let replaced = pe_allocator_replaced()
        // -1: a sanitizer build, which keeps the sanitizer's new and delete.
        #expect(replaced != 0, "operator new of the process is not the bridge's: libqpdf allocates through glibc")
        if replaced == -1 {
            #expect(pe_allocator_region_bytes() == 0)
        }
    }

    /// Opens a fixture three times: qpdf makes and frees thousands of small objects.
    static func qpdfWork() {
        for _ in 0..<3 {
            _ = try? OpenedPDF(path: ExportPaths.fixture("alpha.pdf")).facts()
        }
    }

    @Test(.enabled(if: pe_allocator_replaced() == 1, "sanitizer build: the sanitizer's new and delete"))
    func smallBlocksComeFromTheRegionAndDeletedOnesAreKept() throws {
        let (before, after, small, large) = Self.onNewThread { () -> (Int, Int, Bool, Bool) in
            let before = pe_allocator_kept_bytes()
            Self.qpdfWork()
            // A C++ block of 48 bytes and one of 4 KB, made and deleted.
            let small = pe_allocator_probe(48) == 1
            let large = pe_allocator_probe(4096) == 1
            return (before, pe_allocator_kept_bytes(), small, large)
        }
        #expect(before == 0, "a new thread starts with no blocks kept")
        #expect(after > 0, "deleted blocks are kept for reuse")
        #expect(pe_allocator_region_bytes() > 0, "the region was reserved and handed out")
        #expect(small, "a 48-byte block is the region's")
        #expect(!large, "a 4 KB block is malloc's")
    }

    /// What a thread kept is reused after it ends: the same work on one new
    /// thread after another takes few spans of its own. Without the pool each of
    /// these threads takes a span for every size it uses, 13 here (104 in all);
    /// with it they take none when they run alone, and 24 in all were seen while
    /// the cross-thread test below drained the pool in between.
    @Test(.enabled(if: pe_allocator_replaced() == 1, "sanitizer build: the sanitizer's new and delete"))
    func endedThreadsBlocksAreReused() throws {
        var spans: [Int] = []
        for _ in 0..<9 {
            spans.append(Self.onNewThread { () -> Int in
                Self.qpdfWork()
                return pe_allocator_thread_spans()
            })
        }
        let later = spans.dropFirst()
        #expect(later.reduce(0, +) <= 6 * later.count, "spans taken by each thread: \(spans)")
    }

    /// What a thread makes after its lists went to the pool (in a destructor of
    /// a key made after the allocator's, which glibc runs later) comes from
    /// malloc: a block of the region taken then would never reach the pool.
    @Test(.enabled(if: pe_allocator_replaced() == 1, "sanitizer build: the sanitizer's new and delete"))
    func anEndingThreadAllocatesFromMalloc() throws {
        let key = UnsafeMutablePointer<pthread_key_t>.allocate(capacity: 1)
        defer { key.deallocate() }
        try #require(pthread_key_create(key) { _ in
            AllocatorTests.probedWhileEnding.withLock { $0 = pe_allocator_probe(48) }
        } == 0)
        defer { pthread_key_delete(key.pointee) }
        AllocatorTests.probedWhileEnding.withLock { $0 = -1 }
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { key in
            pthread_setspecific(key!.load(as: pthread_key_t.self), key)
            AllocatorTests.qpdfWork()
            let before = pe_allocator_probe(48)
            precondition(before == 1, "a running thread's 48-byte block is the region's")
            return nil
        }, UnsafeMutableRawPointer(key))
        try #require(made == 0)
        pthread_join(thread, nil)
        #expect(AllocatorTests.probedWhileEnding.withLock { $0 } == 0, "a block made after the thread's lists went to the pool")
    }

    static let probedWhileEnding = Mutex<Int32>(-1)

    /// Sources opened on one thread, exported and released on others, in parallel:
    /// every output is byte-for-byte the output of the same export made alone,
    /// and qpdf accepts it.
    @Test func objectsMadeOnOneThreadAndFreedOnAnotherStayIntact() throws {
        let scratch = try ExportScratch()
        let inputs = ["alpha.pdf", "beta.pdf", "features.pdf", "tagged.pdf"].filter(ExportPaths.hasFixture)
            .map(ExportPaths.fixture)
        try #require(inputs.count >= 2, "needs the fixtures alpha.pdf and beta.pdf")
        @Sendable func items(_ source: OpenedPDF) -> [ExportItem] {
            (0..<source.pageCount).reversed().map { ExportItem.page(source: 0, index: $0) }
        }
        var made: [Data] = []
        for (n, input) in inputs.enumerated() {
            let opened = try OpenedPDF(path: input)
            let output = scratch.path("alone-\(n).pdf")
            _ = try PDFExporter.write(
                sources: [ExportSource(path: input, document: opened)], items: items(opened),
                options: ExportOptions(), to: output)
            made.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        let expected = made
        // Opened here (this thread's blocks), exported and dropped on four others.
        let rounds = 6
        var opened: [OpenedPDF] = []
        for _ in 0..<rounds {
            for input in inputs {
                opened.append(try OpenedPDF(path: input))
            }
        }
        let handed = ResultBox<[OpenedPDF?]>()
        handed.value = opened
        opened.removeAll()
        let lock = NSLock()
        let failures = ResultBox<[String]>()
        failures.value = []
        let count = rounds * inputs.count
        let scratchURL = scratch.url
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for job in stride(from: worker, to: count, by: 4) {
                lock.lock()
                let source = handed.value![job]!
                handed.value![job] = nil
                lock.unlock()
                let n = job % inputs.count
                let output = scratchURL.appendingPathComponent("job-\(job).pdf").path
                do {
                    _ = try PDFExporter.write(
                        sources: [ExportSource(path: inputs[n], document: source)], items: items(source),
                        options: ExportOptions(), to: output)
                    let written = try Data(contentsOf: URL(fileURLWithPath: output))
                    if written != expected[n] {
                        lock.lock()
                        failures.value!.append("job \(job): differs from the export made alone")
                        lock.unlock()
                    }
                } catch {
                    lock.lock()
                    failures.value!.append("job \(job): \(error)")
                    lock.unlock()
                }
            }
        }
        #expect(failures.value! == [])
        for job in [0, count - 1] {
            let check = try ExportTools.check(scratch.path("job-\(job).pdf"))
            #expect(check.status == 0, "qpdf --check job \(job): \(check.stdout) \(check.stderr)")
        }
    }
}
