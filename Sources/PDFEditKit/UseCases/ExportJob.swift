import PageModel
/// What a session export writes (`export OUT`, `export --split DIR`, `export --all DIR`).
package enum ExportJob {
    /// One PDF of a document (nil: the current one), or of its selected items.
    case document(output: String, selection: PageSelection?, doc: String?)
    /// One file per item, per K items or per bookmark (`SplitRequest`).
    case split(SplitRequest, selection: PageSelection?, doc: String?)
    /// Every non-empty document into `directory`, one file each.
    case all(directory: String)
}

extension Workspace {
    /// Runs an export job of the session: one result per file written.
    package func export(_ job: ExportJob, settings: ExportSettings) throws(PDFEditError) -> [ExportResult] {
        switch job {
        case .document(let output, let selection, let doc):
            return [try export(to: output, selection: selection, doc: doc, settings: settings)]
        case .split(let request, let selection, let doc):
            return try exportSplit(request, selection: selection, doc: doc, settings: settings)
        case .all(let directory):
            return try exportAll(to: directory, settings: settings)
        }
    }
}
