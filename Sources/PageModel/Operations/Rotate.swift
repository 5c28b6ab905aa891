extension Session {
    /// `rotate SEL --by DEG`: relative, in quarter turns clockwise.
    mutating func executeRotate(
        _ selection: PageSelection, quarterTurns: Int, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else {
            let (degrees, overflow) = quarterTurns.multipliedReportingOverflow(by: 90)
            throw .invalidRotation(degrees: overflow ? 0 : degrees)
        }
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        let changes: [Change] = [.rotate(document: name, at: IndexRuns(ascending: selected), quarterTurns: turns)]
        try commit(changes)

        let result = try requireDocument(name)
        let degrees = quarterTurns >= 0 ? "\(turns * 90)°" : "-\((4 - turns) * 90)°"
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "rotate",
                description: "rotated \(countPhrase(selected.count, "page")) by \(degrees) "
                    + "(\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: selected.map { $0 + 1 },
                ids: selected.map { result.items[$0].id }))
    }
}
