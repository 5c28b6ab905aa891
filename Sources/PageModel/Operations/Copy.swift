extension Session {
    /// `copy SEL --to N | --before P | --after P [--into DOC]`: like move,
    /// but the originals stay and the copies are new items with new ids (and
    /// the originals' rotation and stamps). An anchor may be one of the copied items.
    mutating func executeCopy(
        _ selection: PageSelection, to destination: Destination, into: String?, in name: String,
        context: EditContext
    ) throws(EditError) -> EditOutcome {
        let source = try requireDocument(name)
        let targetName = into ?? name
        let target = try requireDocument(targetName)
        let selected = try resolve(selection, in: source, context: context)
        let start = try insertionIndex(destination, in: target, takenOut: [])
        let originals = selected.map { source.items[$0] }
        let (copies, counter) = try makeItems(
            originals.map(\.content), rotations: originals.map(\.rotation), stamps: originals.map(\.stamps),
            boxes: originals.map(\.boxes), resizes: originals.map(\.resize),
            finishes: originals.map(\.finish))
        let block = IndexRuns(start..<(start + copies.count))
        let changes: [Change] = [
            .counters(items: counter, sources: unchangedSourceCounter),
            .insert(document: targetName, at: block, items: copies),
        ]
        try commit(changes)

        let count = try requireDocument(targetName).pageCount
        let place = targetName == name ? "" : " of \"\(targetName)\""
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "copy",
                description: "copied \(countPhrase(copies.count, "page")) to position \(start + 1)\(place) "
                    + "(now \(pagesPhrase(count)))",
                document: targetName, pageCount: count, positions: block.positions, ids: copies.map(\.id),
                otherDocument: targetName == name ? nil : name))
    }

    /// `duplicate SEL`: each selected item is copied right after itself.
    mutating func executeDuplicate(
        _ selection: PageSelection, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        let originals = selected.map { document.items[$0] }
        let (copies, counter) = try makeItems(
            originals.map(\.content), rotations: originals.map(\.rotation), stamps: originals.map(\.stamps),
            boxes: originals.map(\.boxes), resizes: originals.map(\.resize),
            finishes: originals.map(\.finish))
        // The j-th copy lands after its original, which has j earlier copies before it.
        let places = IndexRuns(ascending: selected.enumerated().map { $0.element + $0.offset + 1 })
        let changes: [Change] = [
            .counters(items: counter, sources: unchangedSourceCounter),
            .insert(document: name, at: places, items: copies),
        ]
        try commit(changes)

        let count = try requireDocument(name).pageCount
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "duplicate",
                description: "duplicated \(countPhrase(copies.count, "page")) (now \(pagesPhrase(count)))",
                document: name, pageCount: count, positions: places.positions, ids: copies.map(\.id)))
    }
}
