import PageModel

extension Session {
    /// The document a command works on: `name`, or the current one; an unknown
    /// name is a usage error that lists the known ones.
    func chosenDocument(_ name: String?) throws(PDFEditError) -> Document {
        let wanted = name ?? current
        guard let document = document(named: wanted) else {
            throw PDFEditError.edit(.unknownDocument(wanted, known: documents.map(\.name)))
        }
        return document
    }
}

extension SourceAccess {
    /// The 0-based indices a selection picks in `document` (every item when nil),
    /// with the tokens that look at the pages (`text:`, `empty`, `dup` …) answered
    /// from this access's (cached) page facts.
    func indices(of selection: PageSelection?, in document: Document) throws(PDFEditError) -> [Int] {
        guard let selection else { return Array(document.items.indices) }
        let context = editContext
        return try surfacingLookupFailure { () throws(PDFEditError) in
            do throws(SelectionError) {
                return try selection.resolve(in: document, context: context)
            } catch {
                throw PDFEditError.selection(error)
            }
        }
    }
}
