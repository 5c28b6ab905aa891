import QPDFCore

/// What closing an opened PDF does with qpdf's objects.
package enum ClosedDocuments {
    /// From now on, a closed `OpenedPDF` keeps its objects (reachable) until the
    /// process exits instead of freeing them (`pe_keep_closed_documents`): for a
    /// process that ends after one command, freeing a large file's objects costs
    /// a third of its run (TeXbyTopic's `remove 1`, medians of 7 interleaved
    /// runs: 0.33 s kept, 0.50 s freed). Never for a process that opens file
    /// after file. The default frees: only a host that says so (the pdfedit
    /// command, for every command but `apply`) keeps them.
    package static func keepUntilExit() {
        pe_keep_closed_documents(1)
    }
}
