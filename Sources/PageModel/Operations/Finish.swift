extension Session {
    /// `flatten …`/`strip …` on pages: `finish` is added to the end of each
    /// selected item's list, except on items whose list already ends with it
    /// (doing it twice in a row does nothing more). One `refinish` change per
    /// group of items with the same list before, so undo gives each item back
    /// exactly what it had.
    mutating func executeFinish(
        _ selection: PageSelection, _ finish: PageFinish, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        if case .stripAnnotations(let types) = finish {
            if let bad = types.first(where: { !PageFinish.isValidSubtype($0) }) {
                throw .invalidFinish("\(quoted(bad)) is not an annotation subtype (names like Link, Highlight, Widget)")
            }
        }
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        var groups: [(from: [PageFinish], indices: [Int])] = []
        var groupOf: [[PageFinish]: Int] = [:]
        for index in selected {
            let before = document.items[index].finish
            guard before.last != finish else { continue }
            if let group = groupOf[before] {
                groups[group].indices.append(index)
            } else {
                groupOf[before] = groups.count
                groups.append((before, [index]))
            }
        }
        guard !groups.isEmpty else {
            throw .invalidFinish(
                selected.count == 1
                    ? "the selected page is already set to \(finish) at export"
                    : "the \(selected.count) selected pages are already set to \(finish) at export")
        }
        let changes: [Change] = groups.map {
            .refinish(document: name, at: IndexRuns(ascending: $0.indices), from: $0.from, to: $0.from + [finish])
        }
        try commit(changes)
        let result = try requireDocument(name)
        let changed = groups.flatMap(\.indices).sorted()
        let verb = finish.description.split(separator: " ").first.map(String.init) ?? "finish"
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: verb,
                description: "\(finish) on \(countPhrase(changed.count, "page")) at export "
                    + "(\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: changed.map { $0 + 1 },
                ids: changed.map { result.items[$0].id }))
    }

    /// `strip javascript|attachments|metadata|structure`: the part joins the
    /// document's stripped parts; `metadata` also drops what `meta` set (one
    /// step: undo gives both back).
    mutating func executeStrip(_ part: DocumentPart, in name: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        guard !document.stripped.contains(part) else {
            throw .invalidFinish("\(quoted(name)) already strips its \(part.rawValue) at export")
        }
        var changes: [Change] = [
            .restrip(document: name, from: document.stripped, to: (document.stripped + [part]).sorted())
        ]
        if part == .metadata, document.metadata != nil {
            changes.append(.setMetadata(document: name, from: document.metadata, to: nil))
        }
        try commit(changes)
        let what: String =
            switch part {
            case .javascript: "JavaScript and actions that run scripts"
            case .attachments: "embedded files and file attachment annotations"
            case .metadata: "the document information dictionary and XMP metadata"
            case .structure: "the structure tree (tags)"
            }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "strip", description: "exports of \(quoted(name)) will leave out \(what)", document: name,
                pageCount: document.pageCount))
    }
}
