import QPDFBridge

/// What closing an opened PDF does with qpdf's objects.
public enum ClosedDocuments {
    /// From now on, a closed `OpenedPDF` keeps its objects (reachable) until the
    /// process exits instead of freeing them (`pe_keep_closed_documents`): for a
    /// process that ends after one command, freeing a large file's objects was a
    /// tenth of its run. Never for a process that opens file after file.
    public static func keepUntilExit() {
        pe_keep_closed_documents(1)
    }
}
