/// Work on one page that can take long with nothing to count (measuring a page
/// whose content inflates to hundreds of megabytes before poppler reads it,
/// drawing it, reading its text): announced, as it starts and with nil as it
/// ends, to the closure bound to `announce` for the current task or thread. The
/// command line binds one that draws the phase on a terminal once it has lasted
/// a moment; a program binds its own or none. The binding is task-local: the
/// library installs nothing process-wide.
package enum SlowWork {
    @TaskLocal public static var announce: (@Sendable (String?) -> Void)?

    /// Runs `body`, announcing `what` before it and its end after it, when
    /// someone listens.
    static func during<T>(
        _ what: @autoclosure () -> String, _ body: () throws(EngineError) -> T
    ) throws(EngineError) -> T {
        guard let announce else { return try body() }
        announce(what())
        defer { announce(nil) }
        return try body()
    }
}
