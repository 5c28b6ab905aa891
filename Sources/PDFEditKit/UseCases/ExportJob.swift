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
