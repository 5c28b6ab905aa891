extension Session {
    /// `remove SEL`. A document may become empty (export then refuses it).
    mutating func executeRemove(
        _ selection: PageSelection, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        let removed = selected.map { document.items[$0] }
        let changes: [Change] = [.remove(document: name, at: IndexRuns(ascending: selected), items: removed)]
        try commit(changes)

        let count = try requireDocument(name).pageCount
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "remove",
                description: "removed \(countPhrase(removed.count, "page")) (now \(pagesPhrase(count)))",
                document: name, pageCount: count, positions: selected.map { $0 + 1 }, ids: removed.map(\.id)))
    }
}
