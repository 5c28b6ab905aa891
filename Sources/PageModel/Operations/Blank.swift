extension Session {
    /// `blank [--at N] [--count K] [--size SIZE]`.
    mutating func executeBlank(
        at destination: Destination?, count: Int, size: PageSizeSpec?, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let (start, pageSize) = try slots(at: destination, count: count, size: size, in: name, context: context)
        return try insertNewItems(
            Array(repeating: .blank(pageSize), count: count), at: start, in: name, action: "blank",
            noun: "blank page", size: pageSize)
    }

    /// `placeholder [--at N] [--count K] [--size SIZE] [--label TEXT]`.
    mutating func executePlaceholder(
        at destination: Destination?, count: Int, size: PageSizeSpec?, label: String?, in name: String,
        context: EditContext
    ) throws(EditError) -> EditOutcome {
        let (start, pageSize) = try slots(at: destination, count: count, size: size, in: name, context: context)
        return try insertNewItems(
            Array(repeating: .placeholder(size: pageSize, label: label), count: count), at: start, in: name,
            action: "placeholder", noun: "placeholder", size: pageSize)
    }

    /// Where the new pages go and how big they are. Without a size they take
    /// the displayed size of the page before them, else of the page after
    /// them, else A4.
    private func slots(
        at destination: Destination?, count: Int, size: PageSizeSpec?, in name: String, context: EditContext
    ) throws(EditError) -> (start: Int, size: PageSize) {
        guard count >= 1 else { throw .invalidCount(count) }
        let document = try requireDocument(name)
        // Before the new items are allocated: a huge count must not exhaust memory.
        let limit = context.limits.itemsPerDocument
        guard count <= limit - min(limit, document.pageCount) else {
            throw .countOverLimit(count: count, document: name, pageCount: document.pageCount, limit: limit)
        }
        let start = try insertionIndex(destination, in: document, takenOut: [])
        let pageSize: PageSize
        switch size {
        case .fixed(let fixed)?:
            pageSize = fixed
        case .like(let position)?:
            let index = try inDocument(document) { () throws(SelectionError) in try position.index(in: document) }
            pageSize = try displayedSize(of: index, in: document, context: context)
        case nil:
            if start > 0 {
                pageSize = try displayedSize(of: start - 1, in: document, context: context)
            } else if document.pageCount > 0 {
                pageSize = try displayedSize(of: 0, in: document, context: context)
            } else {
                pageSize = .a4
            }
        }
        // A size taken from a page (`like:`, the page before) obeys the rule too.
        return (start, try checkedPageSize(pageSize))
    }

    private mutating func insertNewItems(
        _ contents: [ItemContent], at start: Int, in name: String, action: String, noun: String, size: PageSize
    ) throws(EditError) -> EditOutcome {
        let (items, counter) = try makeItems(contents)
        let block = IndexRuns(start..<(start + items.count))
        let changes: [Change] = [
            .counters(items: counter, sources: unchangedSourceCounter),
            .insert(document: name, at: block, items: items),
        ]
        try commit(changes)

        let count = try requireDocument(name).pageCount
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: action,
                description: "inserted \(countPhrase(items.count, noun)) (\(size)) at position \(start + 1) "
                    + "(now \(pagesPhrase(count)))",
                document: name, pageCount: count, positions: block.positions, ids: items.map(\.id)))
    }
}
