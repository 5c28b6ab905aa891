/// An outline command as a value; paths and positions are resolved when it is applied.
package enum OutlineEdit: Codable, Equatable, Sendable {
    /// `outline add TITLE P [--parent PATH]`: the last child of PATH (or the
    /// last top-level entry), pointing at the item at P.
    case add(title: String, at: Position, parent: String?)
    /// `outline remove PATH`: the entry and everything under it.
    case remove(path: String)
    case rename(path: String, title: String)
    case clear
    /// `outline import FILE`: the outline becomes these entries.
    case replace([OutlineDraft])
}

/// An entry of an imported outline: its position (nil: a heading) is resolved
/// against the document's current order.
package struct OutlineDraft: Codable, Equatable, Sendable {
    package var title: String
    package var position: Position?
    package var isOpen: Bool
    package var children: [OutlineDraft]

    package init(title: String, position: Position?, isOpen: Bool = false, children: [OutlineDraft] = []) {
        self.title = title
        self.position = position
        self.isOpen = isOpen
        self.children = children
    }
}

extension Session {
    /// The title of a source's own top-level entry: its file's stem (`.pdf`
    /// dropped; for an image, whatever extension it has).
    package static func outlineStem(of path: String, kind: SourceKind = .pdf) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if kind == .pdf {
            if name.count > 4, name.lowercased().hasSuffix(".pdf") { return String(name.dropLast(4)) }
            return name
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { return String(name[..<dot]) }
        return name
    }

    /// Nil when `outline` is within `OutlineLimits` and the depth limit, else why not.
    static func outlineLimitProblem(_ outline: [OutlineEntry], depthLimit: Int = Limits.standard.treeDepth) -> String? {
        let count = outline.entryCount
        if count > OutlineLimits.maximumEntries {
            return "\(count) entries, over the limit of \(OutlineLimits.maximumEntries)"
        }
        let depth = outline.depth
        let limit = min(depthLimit, OutlineLimits.maximumDepth)
        if depth > limit { return "\(depth) levels, over the limit of \(limit)" }
        if let long = firstLongTitle(outline) {
            return "a title of \(long) characters, over the limit of \(OutlineLimits.maximumTitleLength)"
        }
        return nil
    }

    private static func firstLongTitle(_ entries: [OutlineEntry]) -> Int? {
        for entry in entries {
            if entry.title.count > OutlineLimits.maximumTitleLength { return entry.title.count }
            if let long = firstLongTitle(entry.children) { return long }
        }
        return nil
    }

    /// After an edit: every outline loses the entries whose items left its
    /// document (`OutlineEntry` pruning rules). Items moved to another document
    /// take no entries with them. Returns the changes it made.
    mutating func pruneOutlines() throws(EditError) -> [Change] {
        var changes: [Change] = []
        for document in documents {
            guard let outline = document.outline else { continue }
            let kept = document.idsWithCells
            let pruned = outline.pruned(keeping: kept)
            guard pruned != outline else { continue }
            changes.append(.outline(document: document.name, from: outline, to: pruned))
        }
        try commit(changes)
        return changes
    }

    /// The outline `document` gets when `added` (its new items) came from
    /// sources with `outlines` (real source ids): one source's entries are the
    /// top level of an empty outline; with several, each source's entries sit
    /// under an entry named after its file's stem, pointing at its first page.
    /// A source that already had items in the document adds nothing.
    func outline(
        of document: Document, adding outlines: [SourceOutline], items added: [PageItem]
    ) -> [OutlineEntry]? {
        guard let current = document.outline else { return nil }
        var contributions: [(source: Source, entries: [OutlineEntry], first: ItemID)] = []
        let addedIDs = Set(added.map(\.id))
        for outline in outlines {
            // A file the document already had pages of keeps its entries on those (as a copy would).
            guard let source = source(outline.source),
                !document.items.contains(where: { $0.content.source == source.id && !addedIDs.contains($0.id) })
            else { continue }
            var firstItem: [Int: ItemID] = [:]
            for item in added {
                if case .page(source.id, let page) = item.content, firstItem[page] == nil { firstItem[page] = item.id }
            }
            let entries = Session.entries(outline.entries, items: firstItem)
            guard let first = added.first(where: { $0.content.source == source.id }), !entries.targets.isEmpty else {
                continue
            }
            contributions.append((source, entries, first.id))
        }
        guard !contributions.isEmpty else { return current }
        if current.isEmpty, contributions.count == 1 { return contributions[0].entries }
        var top = current
        if !top.isEmpty, !top.allSatisfy({ isSourceEntry($0, in: document) }),
            let wrapped = wrappedBySource(top, in: document)
        {
            top = [wrapped]
        }
        for contribution in contributions {
            top.append(
                OutlineEntry(
                    title: Session.outlineStem(of: contribution.source.path), target: contribution.first, isOpen: true,
                    view: ["/Fit"], children: contribution.entries))
        }
        return top
    }

    /// A source's own entry: open, `/Fit`, titled after the source of its target.
    func isSourceEntry(_ entry: OutlineEntry, in document: Document) -> Bool {
        guard entry.isOpen, entry.view == ["/Fit"], let target = entry.target,
            let index = document.index(of: target), let id = document.items[index].content.source,
            let source = source(id)
        else { return false }
        return entry.title == Session.outlineStem(of: source.path)
    }

    /// `entries` under one entry for their source, when every target is a page of one source.
    private func wrappedBySource(_ entries: [OutlineEntry], in document: Document) -> OutlineEntry? {
        let targets = Set(entries.targets)
        let sourcesOfTargets = Set(document.items.filter { targets.contains($0.id) }.compactMap(\.content.source))
        guard sourcesOfTargets.count == 1, let id = sourcesOfTargets.first, let source = source(id),
            let first = document.items.first(where: { $0.content.source == id })
        else { return nil }
        return OutlineEntry(
            title: Session.outlineStem(of: source.path), target: first.id, isOpen: true, view: ["/Fit"],
            children: entries)
    }

    /// A source's entries pointing at the items of `items` (source page → item):
    /// as export merged them before outlines were in the model, an entry whose
    /// page is not there becomes a heading when entries remain under it, else it
    /// goes; a leaf that never had a page stays a heading.
    static func entries(_ source: [SourceOutlineEntry], items: [Int: ItemID]) -> [OutlineEntry] {
        source.compactMap { entry in
            let children = entries(entry.children, items: items)
            let target = entry.page.flatMap { items[$0] }
            if target == nil, children.isEmpty, !(entry.page == nil && entry.children.isEmpty) { return nil }
            return OutlineEntry(
                title: entry.title, target: target, isOpen: entry.isOpen, view: entry.view, color: entry.color,
                style: entry.style, uri: target == nil ? entry.uri : nil, action: target == nil ? entry.action : nil,
                children: children)
        }
    }

    /// The outline a document of an older session gets when an outline command
    /// first touches it: its sources' outlines (`outlines`, real ids), in order
    /// of their first page in the document, by the rules of `outline(of:adding:items:)`.
    package func adoptedOutline(of document: Document, from outlines: [SourceOutline]) -> [OutlineEntry] {
        var empty = document
        empty.outline = []
        var firstPosition: [SourceID: Int] = [:]
        for (index, item) in document.items.enumerated() {
            if let id = item.content.source, firstPosition[id] == nil { firstPosition[id] = index }
        }
        let ordered = outlines.filter { firstPosition[$0.source] != nil }
            .sorted { firstPosition[$0.source]! < firstPosition[$1.source]! }
        return outline(of: empty, adding: ordered, items: document.items) ?? []
    }

    /// `outline add/remove/rename/clear/import` on document `name`.
    mutating func executeOutline(
        _ edit: OutlineEdit, sources: [SourceOutline]?, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let before = document.outline
        var outline: [OutlineEntry]
        if let current = before {
            outline = current
        } else if let sources {
            outline = adoptedOutline(of: document, from: sources)
        } else {
            throw .invalidOutline("the outline of \(quoted(name)) is not read from its sources yet")
        }
        let description: String
        switch edit {
        case .add(let title, let position, let parent):
            try Session.checkTitle(title)
            let index = try inDocument(document) { () throws(SelectionError) in try position.index(in: document) }
            let entry = OutlineEntry(title: title, target: document.items[index].id)
            if let parent {
                let path = try Session.entryPath(parent, in: outline)
                outline.modify(at: path) { $0.children.append(entry) }
            } else {
                outline.append(entry)
            }
            description = "added \(quoted(title)) at position \(index + 1)"
        case .remove(let text):
            let path = try Session.entryPath(text, in: outline)
            let removed = outline.remove(at: path)
            description = "removed \(quoted(text))" + (removed > 1 ? " and \(entriesPhrase(removed - 1))" : "")
        case .rename(let text, let title):
            try Session.checkTitle(title)
            let path = try Session.entryPath(text, in: outline)
            outline.modify(at: path) { $0.title = title }
            description = "renamed \(quoted(text)) to \(quoted(title))"
        case .clear:
            description = "cleared the outline (\(entriesPhrase(outline.entryCount)) removed)"
            outline = []
        case .replace(let drafts):
            outline = try drafts.map { draft throws(EditError) in try Session.entry(draft, in: document) }
            description = "imported \(entriesPhrase(outline.entryCount))"
        }
        if let problem = Session.outlineLimitProblem(outline, depthLimit: context.limits.treeDepth) {
            throw .invalidOutline("the outline would have \(problem)")
        }
        let changes: [Change] = before == outline ? [] : [.outline(document: name, from: before, to: outline)]
        try commit(changes)
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "outline", description: description, document: name, pageCount: document.pageCount))
    }

    private static func checkTitle(_ title: String) throws(EditError) {
        if title.isEmpty { throw .invalidOutline("a bookmark title cannot be empty") }
        if title.count > OutlineLimits.maximumTitleLength {
            throw .invalidOutline("a bookmark title has at most \(OutlineLimits.maximumTitleLength) characters")
        }
    }

    private static func entry(_ draft: OutlineDraft, in document: Document) throws(EditError) -> OutlineEntry {
        try checkTitle(draft.title)
        var target: ItemID?
        if let position = draft.position {
            let index: Int
            do {
                index = try position.index(in: document)
            } catch {
                throw .selection(error.inDocument(pageCount: document.pageCount))
            }
            target = document.items[index].id
        }
        let children = try draft.children.map { child throws(EditError) in try entry(child, in: document) }
        return OutlineEntry(title: draft.title, target: target, isOpen: draft.isOpen, children: children)
    }

    /// The indices leading to the one entry PATH names (64 when none or several).
    static func entryPath(_ text: String, in outline: [OutlineEntry]) throws(EditError) -> [Int] {
        guard let titles = OutlinePath.components(text) else {
            throw .invalidOutline("\(quoted(text)) is not an outline path (titles joined by \"/\")")
        }
        var path: [Int] = []
        var level = outline
        for (depth, title) in titles.enumerated() {
            let matches = level.indices.filter { level[$0].title == title }
            let sofar = OutlinePath.joined(Array(titles[...depth]))
            guard let index = matches.first else { throw .invalidOutline("no outline entry \(quoted(sofar))") }
            guard matches.count == 1 else {
                throw .invalidOutline("\(matches.count) outline entries are named \(quoted(sofar))")
            }
            path.append(index)
            level = level[index].children
        }
        return path
    }
}

extension Array where Element == OutlineEntry {
    fileprivate mutating func modify(at path: [Int], _ body: (inout OutlineEntry) -> Void) {
        guard let first = path.first else { return }
        if path.count == 1 {
            body(&self[first])
        } else {
            self[first].children.modify(at: [Int](path.dropFirst()), body)
        }
    }

    /// Removes the entry at `path`; returns how many entries went with it.
    fileprivate mutating func remove(at path: [Int]) -> Int {
        guard let first = path.first else { return 0 }
        if path.count == 1 { return 1 + remove(at: first).children.entryCount }
        return self[first].children.remove(at: [Int](path.dropFirst()))
    }
}

/// "1 entry", "3 entries".
func entriesPhrase(_ count: Int) -> String {
    count == 1 ? "1 entry" : "\(count) entries"
}
