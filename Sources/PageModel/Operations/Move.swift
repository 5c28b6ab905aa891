extension Session {
    /// `move SEL --to N | --before P | --after P [--into DOC]`: the selected
    /// items are taken out and put back as one block, in their relative
    /// order, starting at the destination of the document that results.
    mutating func executeMove(
        _ selection: PageSelection, to destination: Destination, into: String?, in name: String,
        context: EditContext
    ) throws(EditError) -> EditOutcome {
        let source = try requireDocument(name)
        let targetName = into ?? name
        let target = try requireDocument(targetName)
        let selected = try resolve(selection, in: source, context: context)
        let sameDocument = targetName == name
        let start = try insertionIndex(destination, in: target, takenOut: sameDocument ? selected : [])
        let block = IndexRuns(start..<(start + selected.count))
        let changes: [Change] = [
            .transfer(from: name, positions: IndexRuns(ascending: selected), to: targetName, at: block)
        ]
        try commit(changes)

        let result = try requireDocument(targetName)
        let moved = countPhrase(selected.count, "page")
        var summary = ChangeSummary(
            action: "move", description: "", document: targetName, pageCount: result.pageCount,
            positions: block.positions, ids: result.items[start..<(start + selected.count)].map(\.id))
        if sameDocument {
            summary.description = "moved \(moved) to position \(start + 1) (now \(pagesPhrase(result.pageCount)))"
        } else {
            let remaining = try requireDocument(name).pageCount
            summary.otherDocument = name
            summary.otherPageCount = remaining
            summary.description =
                "moved \(moved) from \"\(name)\" to position \(start + 1) of \"\(targetName)\" "
                + "(now \(pagesPhrase(result.pageCount)); \"\(name)\" now \(pagesPhrase(remaining)))"
        }
        return EditOutcome(changes: changes, summary: summary)
    }
}
