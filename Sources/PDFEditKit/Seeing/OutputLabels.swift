import PageModel

/// The page labels an export writes for a document's items (with `--labels
/// keep`): the document's own ranges when it has them (`labels`), else each
/// page's label in its source. `list` and `show` print these; the export
/// itself writes the same ranges (`ExportWriter.ownLabels`, both from
/// `Document.rangeLabelValues`).
struct OutputLabels {
    private let own: [ItemID: String]?
    private let access: SourceAccess

    init(document: Document, access: SourceAccess) {
        self.access = access
        guard document.labelRanges != nil else {
            own = nil
            return
        }
        var labels: [ItemID: String] = [:]
        for (item, label) in zip(document.items, document.rangeLabels()) {
            if let label { labels[item.id] = label }
        }
        own = labels
    }

    /// The label of `item` in the output; nil when it has none.
    func label(of item: PageItem) -> String? {
        guard let own else { return access.label(of: item) }
        return own[item.id]
    }
}

extension OutputLabels {
    /// The texts of `document`'s generated stamps (`number`, `bates`,
    /// `watermark`) by item, in each item's stamp order, as export writes them
    /// (`{label}` as `label(of:)` says): what `list`, `show` and export draw.
    static func stampTexts(of document: Document, access: SourceAccess) -> [ItemID: [String]] {
        let labels = OutputLabels(document: document, access: access)
        var texts: [ItemID: [String]] = [:]
        for (index, lines) in document.stampTexts(label: { labels.label(of: document.items[$0]) }) {
            texts[document.items[index].id] = lines
        }
        return texts
    }
}
