/// A named, ordered list of page items (one "tab" of the session).
package struct Document: Codable, Equatable, Sendable {
    package var name: String
    package var items: [PageItem]
    /// The document's own page labels (`labels`), in the order they were
    /// given; nil: export keeps the sources' labels; empty: no labels.
    package var labelRanges: [LabelRange]?
    /// The metadata `meta` set; fields left nil keep the source's.
    package var metadata: DocumentMetadata?
    /// The bookmarks export writes, pointing at items by id (see `OutlineEntry`).
    /// Nil only for a document of a session written before outlines were part of
    /// the model (format 2): its bookmarks are then the sources' own, merged at
    /// export as before, until an outline command makes them the model's.
    package var outline: [OutlineEntry]?
    /// The document-level parts `strip` removes from its exports, sorted.
    package var stripped: [DocumentPart]
    /// The files `attach` added and the sources' files it removed; nil: none.
    package var attachments: DocumentAttachments?
    /// How its exports are written (`optimize` in a session); nil: as asked by each export.
    package var optimize: OptimizeSettings?

    package init(
        name: String, items: [PageItem] = [], labelRanges: [LabelRange]? = nil, metadata: DocumentMetadata? = nil,
        outline: [OutlineEntry]? = [], stripped: [DocumentPart] = [], attachments: DocumentAttachments? = nil,
        optimize: OptimizeSettings? = nil
    ) {
        self.optimize = optimize
        self.stripped = stripped
        self.attachments = attachments
        self.name = name
        self.items = items
        self.labelRanges = labelRanges
        self.metadata = metadata
        self.outline = outline
    }

    /// The number of items (a placeholder counts as one).
    package var pageCount: Int { items.count }

    /// 0-based index of the item with this id, if it is in this document.
    package func index(of id: ItemID) -> Int? {
        items.firstIndex { $0.id == id }
    }

    /// 1-based positions of the placeholders still waiting to be filled
    /// (export refuses a document that has any, naming them).
    package var placeholderPositions: [Int] {
        items.indices.filter { items[$0].content.isPlaceholder }.map { $0 + 1 }
    }
}
