extension Session {
    /// `interleave OTHER [--reverse]`: 1, O1, 2, O2, …, the longer one's rest
    /// at the end; `--reverse` takes OTHER from its end (duplex scans whose
    /// backs came out last page first). OTHER is left empty, not closed.
    mutating func executeInterleave(other: String, reversed: Bool, into name: String) throws(EditError) -> EditOutcome {
        guard other != name else { throw .sameDocument(name) }
        let target = try requireDocument(name)
        let backs = try requireDocument(other)
        guard backs.pageCount > 0 else { throw .emptyDocument(other) }
        let fronts = target.pageCount
        // The j-th item of OTHER follows the j-th item of the target while
        // there is one, and then comes after all of them.
        let places = IndexRuns(ascending: (0..<backs.pageCount).map { $0 < fronts ? 2 * $0 + 1 : fronts + $0 })
        var changes: [Change] = []
        if reversed && backs.pageCount > 1 {
            changes.append(.reverse(document: other, at: IndexRuns(0..<backs.pageCount)))
        }
        changes.append(.transfer(from: other, positions: IndexRuns(0..<backs.pageCount), to: name, at: places))
        try commit(changes)

        let result = try requireDocument(name)
        let positions = places.positions
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "interleave",
                description: "interleaved \(countPhrase(backs.pageCount, "page")) of \"\(other)\""
                    + (reversed ? " (reversed)" : "") + " into \"\(name)\" (now \(pagesPhrase(result.pageCount)); "
                    + "\"\(other)\" is now empty)",
                document: name, pageCount: result.pageCount, positions: positions,
                ids: positions.map { result.items[$0 - 1].id }, otherDocument: other, otherPageCount: 0))
    }
}
