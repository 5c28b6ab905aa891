/// What an export does with the document's outline (`export --outline`).
public enum OutlinePolicy: String, Sendable, Equatable, CaseIterable {
    /// The document's outline as `outline` shows it.
    case keep
    /// One top-level entry per source file of the exported pages, in order of
    /// its first page, named after the file's stem, with that file's entries below.
    case perSource = "per-source"
    /// No bookmarks.
    case none
}

/// One bookmark as an export writes it: depth first, each after its parent.
package struct ExportedOutlineEntry: Equatable, Sendable {
    /// 0 for a top-level entry.
    package var level: Int
    package var title: String
    /// 0-based index of the exported item it goes to; nil: a heading.
    package var item: Int?
    package var isOpen: Bool
    package var view: [String]?
    package var color: [Double]?
    package var style: Int?
    /// A heading's URI action.
    package var uri: String?
    /// A heading's other action, in PDF syntax (`OutlineEntry.action`).
    package var action: String?
    /// When `item` is a sheet and the entry aims at one of its cells' pages: that
    /// cell (0-based), so export moves the entry's view onto the sheet with the page.
    package var cell: Int? = nil
}

extension Session {
    /// The bookmarks an export of `items` of `document` writes under `policy`:
    /// the outline pruned to the exported items (an entry whose item is not
    /// exported becomes a heading when entries remain under it, else it goes),
    /// flattened (headings that remain are written even when no entry reaches an
    /// exported item). Nil: the document has no outline in the model (an older
    /// session) and `policy` is `.keep`, so the sources' own are merged as before.
    package func exportedOutline(
        of document: Document, items: [PageItem], policy: OutlinePolicy
    ) -> [ExportedOutlineEntry]? {
        if policy == .none { return [] }
        guard let outline = document.outline else { return policy == .keep ? nil : [] }
        var index: [ItemID: Int] = [:]
        var cellOf: [ItemID: Int] = [:]
        for (offset, item) in items.enumerated() {
            // A bookmark of a cell's item goes to its sheet.
            for id in item.idsWithCells where index[id] == nil { index[id] = offset }
            for (cell, slot) in (item.content.sheet?.cells ?? []).enumerated() {
                if let id = slot.item?.id, cellOf[id] == nil, index[id] == offset { cellOf[id] = cell }
            }
        }
        let pruned = outline.pruned(keeping: Set(index.keys))
        let tree = policy == .keep ? pruned : perSource(pruned, of: document, items: items)
        var flat: [ExportedOutlineEntry] = []
        func walk(_ entries: [OutlineEntry], level: Int) {
            for entry in entries {
                flat.append(
                    ExportedOutlineEntry(
                        level: level, title: entry.title, item: entry.target.flatMap { index[$0] }, isOpen: entry.isOpen,
                        view: entry.view, color: entry.color, style: entry.style,
                        uri: entry.target.flatMap { index[$0] } == nil ? entry.uri : nil,
                        action: entry.target.flatMap { index[$0] } == nil ? entry.action : nil,
                        cell: entry.target.flatMap { cellOf[$0] }))
                walk(entry.children, level: level + 1)
            }
        }
        walk(tree, level: 0)
        // What pruning leaves is written, headings alone included (an outline
        // of headings only is an outline; the README says headings stay).
        return flat
    }

    /// One entry per source of `items`, in order of first appearance, with the
    /// entries of `outline` that belong to it below (a source's own entry's
    /// children, and the other top-level entries whose first target is one of
    /// its pages, in outline order).
    private func perSource(_ outline: [OutlineEntry], of document: Document, items: [PageItem]) -> [OutlineEntry] {
        var order: [SourceID] = []
        var first: [SourceID: ItemID] = [:]
        for item in items {
            guard let id = item.content.source, first[id] == nil else { continue }
            first[id] = item.id
            order.append(id)
        }
        let sourceOf = Dictionary(
            items.compactMap { item in item.content.source.map { (item.id, $0) } }, uniquingKeysWith: { a, _ in a })
        var below: [SourceID: [OutlineEntry]] = [:]
        // Each top-level entry on its own: a source's own entry (made when pages
        // of several files met) gives its children to its source, any other
        // entry (`outline add` at the top) goes under the source of its first
        // target. Deciding for all at once nested every source's entries twice
        // as soon as one entry was not a source's own.
        for entry in outline {
            guard let target = entry.target ?? [entry].targets.first, let source = sourceOf[target] else { continue }
            below[source, default: []] += isSourceEntry(entry, in: document) ? entry.children : [entry]
        }
        return order.compactMap { id in
            guard let source = source(id), let target = first[id] else { return nil }
            return OutlineEntry(
                title: Session.outlineStem(of: source.path, kind: source.kind), target: target, isOpen: true, view: ["/Fit"],
                children: below[id] ?? [])
        }
    }
}
