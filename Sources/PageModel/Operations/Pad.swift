extension Session {
    /// `pad --multiple-of K [--per-source] [--size SIZE]`: blank pages at the
    /// end of the document, or with `perSource` after each run of consecutive
    /// items from one source, so that the count (of the document, or of each
    /// run) is a multiple of K. Blank pages and placeholders belong to the run
    /// before them (padding already there counts, so padding twice adds
    /// nothing). Each blank is the size of the item before it as displayed,
    /// unless `size` is given. Nothing to add is not an error.
    mutating func executePad(
        multipleOf multiple: Int, perSource: Bool, size: PageSizeSpec?, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        guard multiple >= 1 else { throw .invalidMultiple(multiple) }
        let document = try requireDocument(name)
        let runs = perSource ? Self.sourceRuns(of: document) : [0..<document.pageCount]
        // (index of the item the blanks follow, how many)
        var gaps: [(after: Int, count: Int)] = []
        for run in runs where run.count % multiple != 0 {
            gaps.append((run.upperBound - 1, multiple - run.count % multiple))
        }
        return try insertBlanks(gaps, size: size, in: name, context: context, action: "pad")
    }

    /// `blank --after-each SEL [--size SIZE]`: one blank page after every
    /// selected item, the size of that item as displayed unless `size` is given.
    mutating func executeBlankAfterEach(
        _ selection: PageSelection, size: PageSizeSpec?, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        return try insertBlanks(selected.map { ($0, 1) }, size: size, in: name, context: context, action: "blank")
    }

    /// Maximal runs of consecutive items from one source; items without a
    /// source (blank pages, placeholders) join the run before them.
    static func sourceRuns(of document: Document) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        var runSource: SourceID?
        for (index, item) in document.items.enumerated() {
            guard let source = item.content.source else { continue }
            if index > start, let runSource, runSource != source {
                runs.append(start..<index)
                start = index
            } else if index > start, runSource == nil {
                // Leading items without a source form a run of their own.
                runs.append(start..<index)
                start = index
            }
            runSource = source
        }
        if document.pageCount > start { runs.append(start..<document.pageCount) }
        return runs
    }

    /// Inserts `count` blank pages after each item `after` (ascending, distinct)
    /// as one edit; the new items get their ids in document order.
    private mutating func insertBlanks(
        _ gaps: [(after: Int, count: Int)], size: PageSizeSpec?, in name: String, context: EditContext,
        action: String
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        // Saturating: `pad --multiple-of 2^63-1 --per-source` asks for nearly
        // 2^63 blanks per run.
        let total = gaps.reduce(0) { sum, gap in
            let (added, overflow) = sum.addingReportingOverflow(gap.count)
            return overflow ? Int.max : added
        }
        let limit = context.limits.itemsPerDocument
        guard total <= limit - min(limit, document.pageCount) else {
            // `pad` and `blank --after-each` have no --count: say what they would make.
            let (count, overflow) = document.pageCount.addingReportingOverflow(total)
            throw .tooManyItems(document: name, count: overflow ? Int.max : count, limit: limit)
        }
        var fixed: PageSize?
        switch size {
        case .fixed(let given)?:
            fixed = try checkedPageSize(given)
        case .like(let position)?:
            let index = try inDocument(document) { () throws(SelectionError) in try position.index(in: document) }
            fixed = try checkedPageSize(displayedSize(of: index, in: document, context: context))
        case nil:
            fixed = nil
        }
        var contents: [ItemContent] = []
        for gap in gaps {
            let pageSize: PageSize
            if let fixed {
                pageSize = fixed
            } else {
                pageSize = try checkedPageSize(displayedSize(of: gap.after, in: document, context: context))
            }
            contents += Array(repeating: .blank(pageSize), count: gap.count)
        }
        let (items, counter) = try makeItems(contents)
        var changes: [Change] = [.counters(items: counter, sources: unchangedSourceCounter)]
        // The new positions once every block is in, and the blocks inserted
        // last first, so that the indices of the earlier ones do not move.
        var positions: [Int] = []
        var offset = 0
        var blocks: [(at: Int, items: [PageItem])] = []
        for gap in gaps {
            let start = gap.after + 1 + offset
            blocks.append((start, Array(items[offset..<(offset + gap.count)])))
            positions += Array((start + 1)...(start + gap.count))
            offset += gap.count
        }
        for (gap, block) in zip(gaps, blocks).reversed() {
            let at = gap.after + 1
            changes.append(.insert(document: name, at: IndexRuns(at..<(at + block.items.count)), items: block.items))
        }
        try commit(changes)
        let count = try requireDocument(name).pageCount
        let description =
            items.isEmpty
            ? "nothing to add: already \(pagesPhrase(count))"
            : "inserted \(countPhrase(items.count, "blank page")) (now \(pagesPhrase(count)))"
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: action, description: description, document: name, pageCount: count, positions: positions,
                ids: items.map(\.id)))
    }
}
