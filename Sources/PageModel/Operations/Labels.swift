extension Session {
    /// `labels SPEC...` (nil: `labels --clear`): the document's label ranges
    /// become these, each starting at the item its position names now.
    mutating func executeLabels(_ specs: [LabelSpec]?, in name: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        var ranges: [LabelRange]?
        var positions: [Int] = []
        if let specs {
            var built: [LabelRange] = []
            var indexByStart: [ItemID: Int] = [:]
            for spec in specs {
                let index = try inDocument(document) { () throws(SelectionError) in
                    try spec.position.index(in: document)
                }
                let id = document.items[index].id
                guard indexByStart.updateValue(index, forKey: id) == nil else {
                    throw .duplicateLabelStart(position: index + 1)
                }
                built.append(
                    LabelRange(start: id, style: spec.style, firstNumber: spec.firstNumber, prefix: spec.prefix))
                positions.append(index + 1)
            }
            ranges = built.sorted { indexByStart[$0.start, default: 0] < indexByStart[$1.start, default: 0] }
            positions.sort()
        } else {
            ranges = []
        }
        let changes: [Change] = [.relabel(document: name, from: document.labelRanges, to: ranges)]
        try commit(changes)
        let description =
            if let ranges, !ranges.isEmpty {
                "set \(countPhrase(ranges.count, "page label range")) starting at "
                    + cappedList(positions.map(String.init))
            } else {
                "removed the page labels of \(quoted(name))"
            }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "labels", description: description, document: name, pageCount: document.pageCount,
                positions: positions, ids: (ranges ?? []).map(\.start)))
    }

    /// `meta --title …`: the fields given replace the document's.
    mutating func executeMetadata(_ fields: DocumentMetadata, in name: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        guard !fields.isEmpty else { throw .nothingToSet }
        if let problem = fields.problem { throw .invalidMetadata(problem) }
        let updated = (document.metadata ?? DocumentMetadata()).updated(with: fields)
        let changes: [Change] = [.setMetadata(document: name, from: document.metadata, to: updated)]
        try commit(changes)
        let said = fields.setFields.map { $0.value.isEmpty ? "removed \($0.key.lowercased())" : "set \($0.key.lowercased())" }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "meta", description: said.joined(separator: ", ") + " of \(quoted(name))", document: name,
                pageCount: document.pageCount))
    }

    /// After an edit: a range whose first item left its document starts at the
    /// next item of that range (in the order before the edit) still in it, or
    /// goes when none is left. `before` holds the documents that had ranges.
    func labelRangeFixes(before: [Document]) -> [Change] {
        var changes: [Change] = []
        for old in before {
            guard let after = document(named: old.name), let ranges = after.labelRanges else { continue }
            let present = Set(after.items.map(\.id))
            guard ranges.contains(where: { !present.contains($0.start) }) else { continue }
            let starts = Set(ranges.map(\.start))
            var oldIndex: [ItemID: Int] = [:]
            for (index, item) in old.items.enumerated() { oldIndex[item.id] = index }
            // A range whose first item went onto a sheet (nup, booklet) starts at the sheet.
            var sheetOf: [ItemID: ItemID] = [:]
            for item in after.items where item.content.sheet != nil {
                for id in item.idsWithCells.dropFirst() { sheetOf[id] = item.id }
            }
            var fixed: [LabelRange] = []
            for range in ranges {
                if present.contains(range.start) {
                    fixed.append(range)
                    continue
                }
                if let sheet = sheetOf[range.start] {
                    if !fixed.contains(where: { $0.start == sheet }) && !starts.contains(sheet) {
                        var moved = range
                        moved.start = sheet
                        fixed.append(moved)
                    }
                    continue
                }
                guard let start = oldIndex[range.start] else { continue }
                var next = start + 1
                while next < old.items.count, !starts.contains(old.items[next].id) {
                    if present.contains(old.items[next].id) {
                        var moved = range
                        moved.start = old.items[next].id
                        fixed.append(moved)
                        break
                    }
                    next += 1
                }
            }
            changes.append(.relabel(document: old.name, from: ranges, to: fixed))
        }
        return changes
    }
}
