import Glibc
internal import PDFEngine
import PageModel

/// Stops a long operation of the kit from another thread or task: rendering
/// thumbnails and contact sheets, searching text, a split export. The kit never
/// installs a signal handler; a host cancels through a token it owns.
///
/// ```swift
/// let token = CancellationToken()
/// // elsewhere: token.cancel()
/// let report = try token.observed { try editor.writeThumbnails(into: URL(fileURLWithPath: "thumbs")) }
/// ```
///
/// An operation that sees the token cancelled stops at its next page or part,
/// removes what it had half-written and fails with
/// ``PDFEditError/cancelled(signal:)`` (`SIGINT`: "interrupted", exit code 130).
/// Outputs that were already complete stay. Inside a Swift task,
/// ``withTaskCancellation(_:)`` makes the task's cancellation cancel a token.
public final class CancellationToken: Sendable {
    /// Read by the bridge too (a split export checks it before each part).
    let flag = CancelFlag()

    public init() {}

    /// Asks every operation observing this token to stop; there is no way back.
    public func cancel() { flag.raise() }

    /// Whether `cancel` was called.
    public var isCancelled: Bool { flag.isRaised }

    /// Runs `body` (calls of the kit) on this thread with this token observed by
    /// every long loop they run.
    public func observed<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        // `withValue` rethrows untyped: the typed error goes round it in a Result.
        let result = Self.$current.withValue(self) { () -> Result<T, E> in
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` with a token that the current task's cancellation cancels.
    public static func withTaskCancellation<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            try token.observed { try body() }
        } onCancel: {
            token.cancel()
        }
    }

    /// The token observed on this thread (`observed`); read where a long loop
    /// starts, on the calling thread, and handed to its workers.
    @TaskLocal static var current: CancellationToken?

    /// Fails with `.cancelled` when the observed token is cancelled.
    static func check() throws(PDFEditError) {
        if let current, current.isCancelled { throw PDFEditError.cancelled(signal: SIGINT) }
    }
}
