/// What `relink --rebase` did: which items now show which page of the new
/// version, and which could not be mapped (now placeholders).
package struct RebaseOutcome: Sendable, Equatable {
    package var summary: ChangeSummary
    /// Items (top-level, sheet cells and stamps counted apart) that now show another page number.
    package var renumbered: Int
    /// Items whose page is not in the new version: (document, position, id, old page).
    package var unmapped: [(document: String, position: Int, id: ItemID, page: Int)]
    /// Stamps whose page is not in the new version, removed: (document, position, id, old page).
    package var droppedStamps: [(document: String, position: Int, id: ItemID, page: Int)]

    package static func == (lhs: RebaseOutcome, rhs: RebaseOutcome) -> Bool {
        lhs.summary == rhs.summary && lhs.renumbered == rhs.renumbered
            && lhs.unmapped.map { "\($0)" } == rhs.unmapped.map { "\($0)" }
            && lhs.droppedStamps.map { "\($0)" } == rhs.droppedStamps.map { "\($0)" }
    }
}

extension Session {
    /// `relink --rebase`: source `id` is now the file at `path`, a new version
    /// that gained or lost pages; `pages` maps each old page number to its
    /// page in the new version (found by content, by the kit). Every item and
    /// stamp showing a page of the source is pointed at its new page and keeps
    /// its id. An item whose page has no partner becomes a placeholder of the
    /// size it had (`sizes`, old page → size), labelled with what it was, so it
    /// is never silently another page and `export` names it; a stamp whose page
    /// is gone is removed. One undo step, recorded as `label`.
    package mutating func rebase(
        _ id: SourceID, path: String, size: Int64, sha256: String, pageCount: Int, pages: [Int: Int],
        sizes: [Int: PageSize], label: String
    ) throws(EditError) -> RebaseOutcome {
        guard let old = source(id) else { throw .unknownSource(id) }
        guard size >= 0, pageCount >= 1, old.kind == .pdf else {
            throw .invalidContent("\(quoted(path)) cannot replace \(id): only a PDF source is rebased")
        }
        var new = old
        new.path = path
        new.size = size
        new.sha256 = sha256
        new.pageCount = pageCount
        var changes: [Change] = [.replaceSource(old: old, new: new)]
        var renumbered = 0
        var unmapped: [(document: String, position: Int, id: ItemID, page: Int)] = []
        var dropped: [(document: String, position: Int, id: ItemID, page: Int)] = []

        func rebased(_ item: PageItem, document: String, position: Int) -> PageItem {
            var item = item
            if case .page(id, let page) = item.content {
                if let target = pages[page] {
                    if target != page { renumbered += 1 }
                    item.content = .page(source: id, page: target)
                } else {
                    unmapped.append((document, position, item.id, page))
                    item.content = .placeholder(
                        size: sizes[page] ?? PageSize(width: 612, height: 792), label: "\(id) page \(page), not in the new version")
                }
            }
            if case .sheet(var sheet) = item.content {
                for cell in sheet.cells.indices {
                    if let inner = sheet.cells[cell].item {
                        sheet.cells[cell].item = rebased(inner, document: document, position: position)
                    }
                }
                item.content = .sheet(sheet)
            }
            item.stamps = item.stamps.compactMap { stamp in
                guard case .page(id, let page) = stamp.content else { return stamp }
                guard let target = pages[page] else {
                    dropped.append((document, position, item.id, page))
                    return nil
                }
                var moved = stamp
                moved.content = .page(source: id, page: target)
                return moved
            }
            return item
        }

        var working = self
        try working.commit([changes[0]])
        for document in documents {
            var before: [PageItem] = []
            var after: [PageItem] = []
            var indices: [Int] = []
            for (index, item) in document.items.enumerated() {
                let updated = rebased(item, document: document.name, position: index + 1)
                if updated != item {
                    before.append(item)
                    after.append(updated)
                    indices.append(index)
                }
            }
            guard !indices.isEmpty else { continue }
            let runs = IndexRuns(ascending: indices)
            let steps: [Change] = [
                .remove(document: document.name, at: runs, items: before),
                .insert(document: document.name, at: runs, items: after),
            ]
            try working.commit(steps)
            changes += steps
        }
        let summary = ChangeSummary(
            action: "relink",
            description: "rebased \(id) on \(quoted(path)) (\(pageCount) pages): "
                + "\(renumbered) renumbered, \(unmapped.count) not found (now placeholders)"
                + (dropped.isEmpty ? "" : ", \(dropped.count) stamps removed"),
            document: current, pageCount: working.currentDocument?.pageCount ?? 0)
        working.history.record(
            HistoryStep(label: label, changes: changes, currentBefore: current, currentAfter: working.current))
        self = working
        return RebaseOutcome(summary: summary, renumbered: renumbered, unmapped: unmapped, droppedStamps: dropped)
    }
}
