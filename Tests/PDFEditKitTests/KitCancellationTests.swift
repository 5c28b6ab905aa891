import Foundation
import PDFEditKit
import Synchronization
import Testing

/// The kit in a host process: it leaves the host's signal dispositions alone,
/// and a host stops a long operation with a `CancellationToken` (or by cancelling
/// its task), never with a signal.
@Suite(.serialized, .enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct KitCancellationTests {
    /// SIGINT, SIGTERM, SIGPIPE and SIGXFSZ as they are now.
    static func dispositions() -> [Int32: UInt] {
        var result: [Int32: UInt] = [:]
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ] {
            var old = sigaction()
            sigaction(number, nil, &old)
            result[number] = unsafeBitCast(old.__sigaction_handler.sa_handler, to: UInt.self)
        }
        return result
    }

    /// A PDF of `pages` pages written by scripts/make-big-pdf.py.
    static func bigPDF(_ pages: Int, in scratch: KitScratch) throws -> String {
        let path = scratch.path("big.pdf")
        let script = KitFixtures.folder.deletingLastPathComponent().appendingPathComponent("scripts/make-big-pdf.py")
        let made = try KitTools.run("python3", [script.path, "\(pages)", path])
        try #require(made.status == 0)
        return path
    }

    /// Open, edit, export, split, thumbnails and find in process: every signal's
    /// disposition is what it was (SIG_DFL for SIGINT, as the test runner left it).
    @Test func theKitInstallsNoSignalHandler() throws {
        let before = Self.dispositions()
        #expect(before[SIGINT] == unsafeBitCast(SIG_DFL, to: UInt.self))
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        try editor.open([KitFixtures.path("alpha.pdf")])
        try editor.rotate("1", degrees: 90)
        _ = try editor.export(to: scratch.path("out.pdf"))
        _ = try editor.exportSplit(into: scratch.path("parts"))
        _ = try PageEditor.reading(session: editor.sessionPath) { (kit) throws(PDFEditError) in
            try kit.writeThumbnails(intoPath: scratch.path("thumbs"), pages: nil, document: nil, size: 32, force: false)
        }
        _ = try PageEditor.reading(session: editor.sessionPath) { (kit) throws(PDFEditError) in
            try kit.find("ALPHA", doc: nil, caseSensitive: false)
        }
        #expect(try KitTools.pageCount(scratch.path("out.pdf")) == 7)
        #expect(Self.dispositions() == before)
    }

    /// A token cancelled while thumbnails are drawn stops them: the call fails
    /// with `.cancelled` (exit code 130), far fewer pictures than pages exist,
    /// and no temporary file is left.
    @Test func aCancelledTokenStopsThumbnails() throws {
        let scratch = try KitScratch()
        let big = try Self.bigPDF(400, in: scratch)
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        try editor.open([big])
        let token = CancellationToken()
        let thumbs = scratch.path("thumbs")
        #expect {
            try token.observed {
                try PageEditor.reading(session: editor.sessionPath) { (kit) throws(PDFEditError) in
                    try kit.writeThumbnails(
                        intoPath: thumbs, pages: nil, document: nil, size: 64, force: false,
                        progress: { update in if update.done >= 3 { token.cancel() } })
                }
            }
        } throws: { error in
            guard let error = error as? PDFEditError, case .cancelled = error else { return false }
            return error.exitCode == 130
        }
        #expect(token.isCancelled)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: thumbs)) ?? []
        #expect(names.count < 100, "\(names.count) pictures")
        #expect(!names.contains { $0.contains("tmp") }, "\(names)")
    }

    /// A token cancelled after the first parts of a split stops it: no part is
    /// left (the parts reach their names together, and none did), no temporary.
    @Test func aCancelledTokenStopsASplitExport() throws {
        let scratch = try KitScratch()
        let big = try Self.bigPDF(2000, in: scratch)
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        try editor.open([big])
        let token = CancellationToken()
        var settings = ExportSettings()
        settings.progress = { update in if update.done >= 2 { token.cancel() } }
        let parts = scratch.path("parts")
        #expect {
            try token.observed { try editor.exportSplit(into: parts, settings: settings) }
        } throws: { error in
            guard let error = error as? PDFEditError, case .cancelled = error else { return false }
            return true
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parts)) ?? []
        #expect(names.isEmpty, "\(names.count) files left: \(names.prefix(5))")
        // Not cancelled, the same split writes every part.
        let whole = try editor.exportSplit(into: scratch.path("whole"), selection: "1-20")
        #expect(whole.count == 20)
    }

    /// Cancelling the task that runs a kit call cancels it the same way. The
    /// first page's progress report waits until the task is cancelled, so that
    /// the cancellation lands while pages are left.
    @Test func cancellingTheTaskStopsThumbnails() async throws {
        let scratch = try KitScratch()
        let big = try Self.bigPDF(400, in: scratch)
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        try editor.open([big])
        let thumbs = scratch.path("thumbs")
        let started = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let first = Mutex(true)
        let task = Task {
            try await CancellationToken.withTaskCancellation {
                try PageEditor.reading(session: editor.sessionPath) { (kit) throws(PDFEditError) in
                    try kit.writeThumbnails(
                        intoPath: thumbs, pages: nil, document: nil, size: 64, force: false,
                        progress: { _ in
                            guard first.withLock({ let was = $0; $0 = false; return was }) else { return }
                            started.signal()
                            _ = resume.wait(timeout: .now() + 20)
                        })
                }
            }
        }
        // Polled, not waited for on another task: the kit call already blocks one
        // thread of the cooperative pool, and under a full parallel test run a
        // second blocked thread starved the pool until the 20 s timeout.
        while started.wait(timeout: .now()) == .timedOut { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        resume.signal()
        let result = await task.result
        guard case .failure(let error) = result, let error = error as? PDFEditError, case .cancelled = error else {
            Issue.record("not cancelled: \((try? result.get())?.files.count ?? -1) files")
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: thumbs)) ?? []
        #expect(names.count < 100, "\(names.count) pictures")
    }
}
