extension Session {
    /// `reverse [SEL]`: the selected items swap places among their own
    /// slots; the others stay where they are.
    mutating func executeReverse(
        _ selection: PageSelection, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        let changes: [Change] = [.reverse(document: name, at: IndexRuns(ascending: selected))]
        try commit(changes)

        let result = try requireDocument(name)
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "reverse",
                description: "reversed the order of \(countPhrase(selected.count, "page")) "
                    + "(\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: selected.map { $0 + 1 },
                ids: selected.map { result.items[$0].id }))
    }
}
