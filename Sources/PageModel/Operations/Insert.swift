extension Session {
    /// `insert FILE…` once the files are read: new items at the destination
    /// (default: the end), new sources added to the session.
    mutating func executeInsert(
        _ contents: [ItemContent], at destination: Destination?, newSources: [Source], outlines: [SourceOutline] = [],
        in name: String
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let imported = try importing(newSources, contents: contents)
        let start = try insertionIndex(destination, in: document, takenOut: [])
        let (items, counter) = try makeItems(imported.contents)
        let block = IndexRuns(start..<(start + items.count))
        var changes: [Change] = imported.added.isEmpty ? [] : [.addSources(imported.added)]
        changes += [
            .counters(items: counter, sources: imported.counter),
            .insert(document: name, at: block, items: items),
        ]
        try commit(changes)
        changes += try attachOutlines(outlines, realID: imported.realID, items: items, in: name)

        let count = try requireDocument(name).pageCount
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "insert",
                description: "inserted \(countPhrase(items.count, "page")) at position \(start + 1) "
                    + "(now \(pagesPhrase(count)))",
                document: name, pageCount: count, positions: block.positions, ids: items.map(\.id),
                newSources: imported.added.map(\.id)))
    }

    /// `fill P FILE`: the placeholder at P gives way to the contents, which
    /// take its slot, its rotation and its stamps; bookmarks that pointed at the
    /// placeholder point at its first page, and the file's own bookmarks come
    /// along as `insert` brings them.
    mutating func executeFill(
        _ position: Position, contents: [ItemContent], newSources: [Source], outlines: [SourceOutline] = [],
        in name: String
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let index = try inDocument(document) { () throws(SelectionError) in try position.index(in: document) }
        let placeholder = document.items[index]
        guard placeholder.content.isPlaceholder else {
            throw .notAPlaceholder(position: index + 1, kind: placeholder.content.kindName)
        }
        let imported = try importing(newSources, contents: contents)
        let (items, counter) = try makeItems(
            imported.contents, rotations: Array(repeating: placeholder.rotation, count: imported.contents.count),
            stamps: Array(repeating: placeholder.stamps, count: imported.contents.count))
        let block = IndexRuns(index..<(index + items.count))
        var changes: [Change] = imported.added.isEmpty ? [] : [.addSources(imported.added)]
        changes += [
            .counters(items: counter, sources: imported.counter),
            .remove(document: name, at: IndexRuns(index..<(index + 1)), items: [placeholder]),
            .insert(document: name, at: block, items: items),
        ]
        // A label range that started at the placeholder starts at its first page.
        if let ranges = document.labelRanges, let first = items.first,
            let started = ranges.firstIndex(where: { $0.start == placeholder.id })
        {
            var moved = ranges
            moved[started].start = first.id
            changes.append(.relabel(document: name, from: ranges, to: moved))
        }
        try commit(changes)
        // The file's bookmarks join as an insert's do, then the slot's own go to its first page.
        changes += try attachOutlines(outlines, realID: imported.realID, items: items, in: name)
        changes += try retargetOutline(from: placeholder.id, to: items.first?.id, in: name)

        let count = try requireDocument(name).pageCount
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "fill",
                description: "filled the placeholder at position \(index + 1) with "
                    + "\(countPhrase(items.count, "page")) (now \(pagesPhrase(count)))",
                document: name, pageCount: count, positions: block.positions, ids: items.map(\.id),
                newSources: imported.added.map(\.id)))
    }
}

extension Session {
    /// The new items' sources' outlines join the document's (one change, or none).
    mutating func attachOutlines(
        _ outlines: [SourceOutline], realID: [SourceID: SourceID], items: [PageItem], in name: String
    ) throws(EditError) -> [Change] {
        guard !outlines.isEmpty else { return [] }
        let document = try requireDocument(name)
        let real = outlines.compactMap { outline in
            realID[outline.source].map { SourceOutline(source: $0, entries: outline.entries) }
        }
        let after = outline(of: document, adding: real, items: items)
        guard after != document.outline else { return [] }
        if let after, let problem = Session.outlineLimitProblem(after) {
            throw .invalidOutline("the outline would have \(problem)")
        }
        let changes: [Change] = [.outline(document: name, from: document.outline, to: after)]
        try commit(changes)
        return changes
    }

    /// Entries that pointed at a filled placeholder point at its first page.
    mutating func retargetOutline(from old: ItemID, to new: ItemID?, in name: String) throws(EditError) -> [Change] {
        let document = try requireDocument(name)
        guard let new, let outline = document.outline, outline.targets.contains(old) else { return [] }
        let changes: [Change] = [.outline(document: name, from: outline, to: outline.retargeted([old: new]))]
        try commit(changes)
        return changes
    }
}
