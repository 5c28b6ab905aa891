extension Session {
    /// `redact SEL --rect …|--text …`: each selected item gains the regions the
    /// target gives on its page (`Redaction`), after those it has; one
    /// `refinish` per group of items with the same finishing before and after.
    /// A rectangle is given on the page as displayed and stored in the page's
    /// default user space; a text's occurrences come from `EditContext.textHits`.
    /// A text found on no selected page changes nothing (`matchedNothing`, as a
    /// `text:` token that matches nothing).
    mutating func executeRedact(
        _ selection: PageSelection, _ target: RedactTarget, fill: TextColor, label: String?, in name: String,
        context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        var groups: [(from: [PageFinish], to: [PageFinish], indices: [Int])] = []
        var groupOf: [[PageFinish]: [[PageFinish]: Int]] = [:]
        var regionCount = 0
        for index in selected {
            let item = document.items[index]
            let regions = try Session.redactions(
                of: item, at: index, target: target, fill: fill, label: label, context: context)
            guard !regions.isEmpty else { continue }
            regionCount += regions.count
            let before = item.finish
            let after = before + regions.map { PageFinish.redact($0) }
            if let group = groupOf[before]?[after] {
                groups[group].indices.append(index)
            } else {
                groupOf[before, default: [:]][after] = groups.count
                groups.append((before, after, [index]))
            }
        }
        guard !groups.isEmpty else {
            if case .text(let words, _, _) = target {
                throw .selection(.matchedNothing(tokens: ["--text \(words)"], pageCount: document.pageCount))
            }
            throw .invalidFinish("nothing to redact")
        }
        let changes: [Change] = groups.map {
            .refinish(document: name, at: IndexRuns(ascending: $0.indices), from: $0.from, to: $0.to)
        }
        try commit(changes)
        let result = try requireDocument(name)
        let changed = groups.flatMap(\.indices).sorted()
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "redact",
                description: "\(countPhrase(regionCount, "region")) to redact on \(countPhrase(changed.count, "page")) "
                    + "at export (\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: changed.map { $0 + 1 },
                ids: changed.map { result.items[$0].id }))
    }

    /// The regions `target` gives on item `item` (at 0-based `index`).
    static func redactions(
        of item: PageItem, at index: Int, target: RedactTarget, fill: TextColor, label: String?, context: EditContext
    ) throws(EditError) -> [Redaction] {
        if case .placeholder = item.content {
            throw .invalidFinish("position \(index + 1) is a placeholder: there is nothing on it to redact")
        }
        switch target {
        case .rect(let x, let y, let width, let height, let units):
            guard let frame = frame(of: item, context: context) else {
                throw .invalidFinish("the size of page \(index + 1) is not known")
            }
            let visible = item.boxes.crop ?? frame.visibleBox
            let turns = frame.quarterTurns + item.rotation
            let shownWidth = turns % 2 == 0 ? visible.width : visible.height
            let shownHeight = turns % 2 == 0 ? visible.height : visible.width
            let (sx, sy): (Double, Double) =
                switch units {
                case .pt: (1, 1)
                case .mm: (72 / 25.4, 72 / 25.4)
                case .percent: (shownWidth / 100, shownHeight / 100)
                }
            let shown = BoxRect(x0: x * sx, y0: y * sy, x1: (x + width) * sx, y1: (y + height) * sy)
            guard [x, y, width, height].allSatisfy(\.isFinite), width > 0, height > 0 else {
                throw .invalidFinish("--rect needs a width and a height above 0")
            }
            let rect = shown.fromDisplayed(visible: visible, quarterTurns: turns)
            guard rect.isValid else { throw .invalidFinish("the region \(rect) is not on page \(index + 1)") }
            return [Redaction(rect: rect, fill: fill, label: label)]
        case .text(let words, let regex, let caseSensitive):
            guard case .page = item.content, item.resize == nil else {
                throw .invalidFinish(
                    "position \(index + 1) is not a page of a PDF as it is (redact --text reads the text of PDF pages; use --rect)")
            }
            guard let hits = context.textHits?(item, words, regex, caseSensitive) else {
                throw .invalidFinish("cannot read the text of page \(index + 1)")
            }
            return hits.map { Redaction(rect: $0.rect, fill: fill, label: label, text: $0.text) }
        }
    }
}
