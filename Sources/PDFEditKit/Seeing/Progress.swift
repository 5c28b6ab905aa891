#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// How far a long operation got: `done` of `total` units (pages, files…); a
/// `total` of 0 announces work without a count (reading a session, preparing
/// pages, measuring one huge page), which lasts until the next update — one
/// with an empty `phase` says that it ended.
public struct ProgressUpdate: Sendable, Equatable {
    /// Units done so far, of `total`.
    public var done: Int
    /// Units in all.
    public var total: Int
    /// What is counted, plural: "pages", "files".
    public var unit: String
    /// What is being done: "rendering", "extracting text", "importing".
    public var phase: String

    /// An update: `done` of `total` `unit` in `phase`.
    public init(done: Int, total: Int, unit: String, phase: String) {
        self.done = done
        self.total = total
        self.unit = unit
        self.phase = phase
    }
}

/// Called by the kit's long operations, possibly from worker threads; the CLI
/// draws it (a progress bar on a terminal) or ignores it.
public typealias ProgressHandler = @Sendable (ProgressUpdate) -> Void

/// Counts finished units from any thread and reports each step.
final class ProgressCounter: @unchecked Sendable {
    private let lock = Lock()
    private var done = 0
    private let total: Int
    private let unit: String
    private let phase: String
    private let handler: ProgressHandler?

    init(total: Int, unit: String, phase: String, handler: ProgressHandler?) {
        self.total = total
        self.unit = unit
        self.phase = phase
        self.handler = handler
        handler?(ProgressUpdate(done: 0, total: total, unit: unit, phase: phase))
    }

    func advance(by count: Int = 1) {
        guard let handler else { return }
        let now = lock.withLock {
            done += count
            return done
        }
        handler(ProgressUpdate(done: now, total: total, unit: unit, phase: phase))
    }
}

/// Runs `body`, telling `handler` about every single page that the work inside
/// measures, draws or reads the text of: an uncounted update (`total` 0) naming
/// the page as it starts ("measuring page 1 of big.pdf") and one with an empty
/// `phase` as it ends. Most pages take milliseconds; a page whose content
/// inflates to hundreds of megabytes takes seconds or minutes, with nothing
/// else to show. The handler is bound for the current task (task-local), so
/// other tasks and threads are not told.
public func reportingSlowPages<T>(to handler: ProgressHandler?, _ body: () throws -> T) rethrows -> T {
    guard let handler else { return try body() }
    return try SlowWork.$announce.withValue({ what in
        handler(ProgressUpdate(done: 0, total: 0, unit: "", phase: what ?? ""))
    }, operation: body)
}
