extension Session {
    /// `stamp SEL FILE [--page K] [--under] [--fit] [--opacity F]`: the stamp is
    /// added after the stamps each selected item already has (drawn in order).
    /// The history stores one `restamp` per group of items that had the same
    /// stamps before, so stamping 20,000 unstamped pages is one small change.
    mutating func executeStamp(
        _ selection: PageSelection, _ stamp: Stamp, newSources: [Source], each: StampEach? = nil, in name: String,
        context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        guard Stamp.isValidOpacity(stamp.opacity) else { throw .invalidOpacity(stamp.opacity) }
        guard case .page(let stampSource, let stampPage) = stamp.content else {
            throw .invalidContent("a text stamp is made by number, bates or watermark")
        }
        let kind: SourceKind
        let stampPages: Int
        if let new = newSources.first(where: { $0.id == stampSource }) {
            kind = new.kind
            stampPages = new.kind == .image ? 1 : new.pageCount
            // Named by its file: the id it would get means nothing to the user yet.
            let pageCount = new.kind == .image ? 1 : new.pageCount
            guard (1...max(1, pageCount)).contains(stampPage) else {
                throw .invalidContent("\(fileName(new.path)) has \(pagesPhrase(pageCount)): there is no page \(stampPage)")
            }
        } else if let known = source(stampSource) {
            kind = known.kind
            stampPages = known.kind == .image ? 1 : known.pageCount
        } else {
            throw .unknownSource(stampSource)
        }
        // The stamp's page is checked like an inserted page: the same rules, the same errors.
        let content: ItemContent
        switch kind {
        case .pdf:
            content = .page(source: stampSource, page: stampPage)
        case .image:
            guard stampPage == 1 else {
                throw .sourcePageOutOfRange(source: stampSource, page: stampPage, pageCount: 1)
            }
            content = .image(source: stampSource)
        }
        let imported = try importing(newSources, contents: [content])
        var placed = stamp
        let placedSource = imported.contents.first?.source ?? stampSource
        placed.content = .page(source: placedSource, page: stampPage)

        var changes: [Change] = []
        if !imported.added.isEmpty {
            let items = CounterChange(before: nextItemNumber, after: nextItemNumber)
            changes += [.addSources(imported.added), .counters(items: items, sources: imported.counter)]
        }
        // The stamp each selected item gets: the same one, or (`each`) page K+k
        // of the file on the k-th item; nil where `each` leaves an item alone.
        let stampOf: (Int) -> Stamp? = { offset in
            guard let each else { return placed }
            guard let page = each.page(forOffset: offset, first: stampPage, pageCount: stampPages) else { return nil }
            var own = placed
            own.content = .page(source: placedSource, page: page)
            return own
        }
        var stamped: [Int] = []
        // Items grouped by what they had and what they get, groups in the order
        // their first item comes (so the history is deterministic).
        var groups: [(before: [Stamp], added: Stamp, indices: [Int])] = []
        var groupOf: [[Stamp]: Int] = [:]
        for (offset, index) in selected.enumerated() {
            guard let added = stampOf(offset) else { continue }
            stamped.append(index)
            let before = document.items[index].stamps
            if let group = groupOf[before + [added]] {
                groups[group].indices.append(index)
            } else {
                groupOf[before + [added]] = groups.count
                groups.append((before, added, [index]))
            }
        }
        for group in groups {
            changes.append(
                .restamp(
                    document: name, at: IndexRuns(ascending: group.indices), from: group.before,
                    to: group.before + [group.added]))
        }
        try commit(changes)

        let result = try requireDocument(name)
        let file = source(placedSource).map { fileName($0.path) } ?? placedSource.description
        var page = kind == .pdf ? " page \(stampPage)" : ""
        if each != nil, kind == .pdf {
            let last = groups.map { $0.added.content }.compactMap { content -> Int? in
                if case .page(_, let number) = content { number } else { nil }
            }.max() ?? stampPage
            page = last > stampPage ? " pages \(stampPage)–\(last), one a page" : page
        }
        let leftAlone = selected.count - stamped.count
        var how = [placed.under ? "under" : "over"]
        if placed.placement != StampPlacement() { how.append(placed.placement.description) }
        if placed.fit { how.append("fitted") }
        if placed.opacity != 1 { how.append("opacity \(Stamp.percent(placed.opacity))") }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "stamp",
                description: "stamped \(countPhrase(stamped.count, "page")) with \(file)\(page) "
                    + "(\(how.joined(separator: ", ")))"
                    + (leftAlone > 0 ? ", \(countPhrase(leftAlone, "page")) past its last page left alone" : "")
                    + " (\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: stamped.map { $0 + 1 },
                ids: stamped.map { result.items[$0].id }, newSources: imported.added.map(\.id)))
    }

    /// `unstamp SEL`: the selected items lose all their stamps. A selection in
    /// which no item has a stamp is refused: it would be a step that changes nothing.
    mutating func executeUnstamp(
        _ selection: PageSelection, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        let stamped = selected.filter { !document.items[$0].stamps.isEmpty }
        guard !stamped.isEmpty else { throw .nothingToUnstamp(selected: selected.count) }
        let changes: [Change] = groupedByStamps(stamped, in: document).map { before, indices in
            .restamp(document: name, at: IndexRuns(ascending: indices), from: before, to: [])
        }
        try commit(changes)

        let result = try requireDocument(name)
        let count = stamped.reduce(0) { $0 + document.items[$1].stamps.count }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "unstamp",
                description: "removed \(countPhrase(count, "stamp")) from \(countPhrase(stamped.count, "page")) "
                    + "(\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: stamped.map { $0 + 1 },
                ids: stamped.map { result.items[$0].id }))
    }

    /// The ascending `indices` grouped by the stamps their items have, groups in
    /// the order their first item comes (so the history is deterministic).
    func groupedByStamps(_ indices: [Int], in document: Document) -> [(stamps: [Stamp], indices: [Int])] {
        var groups: [(stamps: [Stamp], indices: [Int])] = []
        var groupOf: [[Stamp]: Int] = [:]
        for index in indices {
            let stamps = document.items[index].stamps
            if let group = groupOf[stamps] {
                groups[group].indices.append(index)
            } else {
                groupOf[stamps] = groups.count
                groups.append((stamps, [index]))
            }
        }
        return groups
    }

    /// Performs a `restamp` change on document `index` (bounds already checked).
    mutating func restamp(document index: Int, at: IndexRuns, from: [Stamp], to: [Stamp]) throws(ChangeFailure) {
        for stamp in to {
            if let missing = stamp.source, source(missing) == nil {
                throw ChangeFailure(reason: "a stamp refers to missing source \(missing)")
            }
        }
        for run in at.runs {
            for i in run where documents[index].items[i].stamps != from {
                throw ChangeFailure(
                    reason: "the stamps of \(documents[index].items[i].id) are not as the history recorded them")
            }
        }
        for run in at.runs {
            for i in run { documents[index].items[i].stamps = to }
        }
    }
}

/// The last component of a stored path.
private func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}
