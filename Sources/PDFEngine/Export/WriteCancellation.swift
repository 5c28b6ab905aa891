import QPDFCore

/// Tells exports running on other threads that the process is exiting on a signal
/// (`pe_cancel`): they start no further part, and a file they open from now on is
/// removed again at once.
package enum WriteCancellation {
    /// Async-signal-safe: one atomic store in the bridge, nothing else.
    package static func request() {
        pe_cancel()
    }
}
