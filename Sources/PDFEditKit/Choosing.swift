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
    /// with `text:` and `empty` tokens answered from this access's (cached) page text and ink.
    func indices(of selection: PageSelection?, in document: Document) throws(PDFEditError) -> [Int] {
        guard let selection else { return Array(document.items.indices) }
        let context = editContext
        return try surfacingLookupFailure { () throws(PDFEditError) in
            do throws(SelectionError) {
                return try selection.resolve(in: document, text: context.pageText, darkShare: context.darkShare,
                hasText: context.pageHasText)
            } catch {
                throw PDFEditError.selection(error)
            }
        }
    }
}
