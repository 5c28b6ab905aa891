/// One line of `pdfedit edit`: what stands at this place of the document.
public enum ArrangedItem: Codable, Equatable, Sendable {
    /// An item of the document, turned `quarterTurns` (0…3) more. Its first line
    /// keeps the item; every later line with the same id is a copy.
    case item(ItemID, quarterTurns: Int)
    /// A blank page; without a size, the size of the item before it as shown (after it when first; A4 alone).
    case blank(PageSize?)
    /// A placeholder, sized as a blank page.
    case placeholder(label: String?, size: PageSize?)
}

extension Session {
    /// `edit`: the document becomes the given lines, in order — items left out
    /// are removed, items moved are moved, an id given twice is copied, turns
    /// added, blanks and placeholders made — as one step of primitive changes
    /// (a removal, one insertion of the new items, the fewest transfers that
    /// put everything in order, rotations).
    mutating func executeRearrange(_ lines: [ArrangedItem], in name: String, context: EditContext) throws(EditError)
        -> EditOutcome
    {
        let document = try requireDocument(name)
        let limit = context.limits.itemsPerDocument
        guard lines.count <= limit else {
            throw .countOverLimit(count: lines.count, document: name, pageCount: document.pageCount, limit: limit)
        }
        var index: [ItemID: Int] = [:]
        for (offset, item) in document.items.enumerated() { index[item.id] = offset }

        // Which line keeps each item, which lines make new items.
        var keeper: [ItemID: Int] = [:]
        for (line, entry) in lines.enumerated() {
            guard case .item(let id, let turns) = entry else { continue }
            guard index[id] != nil else {
                throw .selection(.unknownID(token: "@\(id)", pageCount: document.pageCount))
            }
            guard (0...3).contains(turns) else { throw .invalidRotation(degrees: turns * 90) }
            if keeper[id] == nil { keeper[id] = line }
        }
        var changes: [Change] = []

        // 1. The items no line keeps go.
        let removed = document.items.indices.filter { keeper[document.items[$0].id] == nil }
        if !removed.isEmpty {
            let change = Change.remove(
                document: name, at: IndexRuns(ascending: removed), items: removed.map { document.items[$0] })
            try commit([change])
            changes.append(change)
        }

        // 2. Copies, blanks and placeholders, made at the end in line order.
        var newContents: [ItemContent] = []
        var newShapes: [PageItem] = []
        var newLines: [Int] = []
        for (line, entry) in lines.enumerated() {
            switch entry {
            case .item(let id, _) where keeper[id] != line:
                let original = document.items[index[id]!]
                newContents.append(original.content)
                newShapes.append(original)
                newLines.append(line)
            case .item:
                continue
            case .blank(let given):
                let size = try sized(given, line: line, lines: lines, in: document, index: index, context: context)
                newContents.append(.blank(size))
                newShapes.append(PageItem(id: ItemID(number: 0), content: .blank(size)))
                newLines.append(line)
            case .placeholder(let label, let given):
                let size = try sized(given, line: line, lines: lines, in: document, index: index, context: context)
                newContents.append(.placeholder(size: size, label: label))
                newShapes.append(PageItem(id: ItemID(number: 0), content: .placeholder(size: size, label: label)))
                newLines.append(line)
            }
        }
        var lineOfItem: [ItemID: Int] = [:]
        for (id, line) in keeper { lineOfItem[id] = line }
        if !newContents.isEmpty {
            let (made, counter) = try makeItems(
                newContents, rotations: newShapes.map(\.rotation), stamps: newShapes.map(\.stamps),
                boxes: newShapes.map(\.boxes), resizes: newShapes.map(\.resize))
            let start = try requireDocument(name).pageCount
            let insert: [Change] = [
                .counters(items: counter, sources: unchangedSourceCounter),
                .insert(document: name, at: IndexRuns(start..<(start + made.count)), items: made),
            ]
            try commit(insert)
            changes += insert
            for (item, line) in zip(made, newLines) { lineOfItem[item.id] = line }
        }

        // 3. Into line order: the items already in order (a longest increasing
        // run of their lines) stay; each other one is moved next to its neighbour.
        // Moving in line order, each goes right after the nearest settled line
        // before it (the others, still to move, may be anywhere).
        var order = try requireDocument(name).items.map { lineOfItem[$0.id]! }
        var settled = Set(Self.longestIncreasingSubsequence(order))
        for line in order.filter({ !settled.contains($0) }).sorted() {
            let from = order.firstIndex(of: line)!
            order.remove(at: from)
            let to = (order.lastIndex { $0 < line && settled.contains($0) }).map { $0 + 1 } ?? 0
            order.insert(line, at: to)
            settled.insert(line)
            let change = Change.transfer(
                from: name, positions: IndexRuns(from..<(from + 1)), to: name, at: IndexRuns(to..<(to + 1)))
            try commit([change])
            changes.append(change)
        }

        // 4. Turns, grouped by how far.
        for turns in 1...3 {
            let turned = lines.indices.filter { if case .item(_, turns) = lines[$0] { true } else { false } }
            guard !turned.isEmpty else { continue }
            let change = Change.rotate(document: name, at: IndexRuns(ascending: turned), quarterTurns: turns)
            try commit([change])
            changes.append(change)
        }

        let result = try requireDocument(name)
        let moved = changes.filter { if case .transfer = $0 { true } else { false } }.count
        var parts: [String] = []
        if moved > 0 { parts.append("moved \(countPhrase(moved, "page"))") }
        if !removed.isEmpty { parts.append("removed \(countPhrase(removed.count, "page"))") }
        if !newContents.isEmpty { parts.append("added \(countPhrase(newContents.count, "page"))") }
        let turnedCount = lines.filter { if case .item(_, let turns) = $0 { turns != 0 } else { false } }.count
        if turnedCount > 0 { parts.append("rotated \(countPhrase(turnedCount, "page"))") }
        let description =
            (parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")) + " (now \(pagesPhrase(result.pageCount)))"
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "edit", description: description, document: name, pageCount: result.pageCount,
                positions: Array(0..<result.pageCount).map { $0 + 1 },
                ids: result.items.map(\.id)))
    }

    /// `given`, or the size of the line's neighbour; checked as every new page's size.
    private func sized(
        _ given: PageSize?, line: Int, lines: [ArrangedItem], in document: Document, index: [ItemID: Int],
        context: EditContext
    ) throws(EditError) -> PageSize {
        if let given { return try checkedPageSize(given) }
        return try checkedPageSize(
            try neighbourSize(of: line, lines: lines, in: document, index: index, context: context))
    }

    /// The size of the nearest kept or copied item before line `line` (after it
    /// when none is before), as shown; A4 when the lines hold no item. `index`:
    /// the document's items by id, made once per edit (not once per blank line).
    private func neighbourSize(
        of line: Int, lines: [ArrangedItem], in document: Document, index: [ItemID: Int], context: EditContext
    ) throws(EditError) -> PageSize {
        let before = lines[..<line].reversed()
        let after = lines[(line + 1)...]
        for candidate in Array(before) + Array(after) {
            switch candidate {
            case .item(let id, let turns):
                guard let at = index[id] else { continue }
                let size = try displayedSize(of: at, in: document, context: context)
                return turns % 2 == 1 ? size.swapped : size
            case .blank(let size?), .placeholder(_, let size?):
                return size
            case .blank, .placeholder:
                continue
            }
        }
        return .a4
    }

    /// The values of one longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // indices into values: the smallest tail of a run of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var result: [Int] = []
        var at = tails.last ?? -1
        while at >= 0 {
            result.append(values[at])
            at = previous[at]
        }
        return result.reversed()
    }
}
