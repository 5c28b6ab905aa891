extension Session {
    /// The embedded files an export of `document` writes, by name: the kit's
    /// answer (`EditContext.attachments`: the sources' files and the added
    /// ones, named by the bridge's one rule), or, without one, the added ones.
    func listedAttachments(of document: Document, context: EditContext) -> [ListedAttachmentName] {
        if let listed = context.attachments?(document) { return listed }
        return (document.attachments?.added ?? []).enumerated().map { ListedAttachmentName(name: $1.name, added: $0) }
    }

    /// `attach add FILE... [--page P]`: the files join the document's attachments,
    /// each under a name no other file of the document has (a taken name is
    /// refused, never renamed: the user named it and will extract it by that name).
    mutating func executeAttach(
        _ files: [Attachment], page: Position?, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        guard !files.isEmpty else { throw .invalidAttachment("nothing to attach") }
        var item: ItemID?
        var positions: [Int] = []
        if let page {
            let index = try inDocument(document) { () throws(SelectionError) in try page.index(in: document) }
            item = document.items[index].id
            positions = [index + 1]
        }
        var taken = Set(listedAttachments(of: document, context: context).map(\.name))
        var current = document.attachments ?? DocumentAttachments()
        for var file in files {
            if let problem = Attachment.problem(ofName: file.name) { throw .invalidAttachment(problem) }
            guard taken.insert(file.name).inserted else {
                throw .invalidAttachment(
                    "\(quoted(name)) already has an attachment named \(quoted(file.name)): "
                        + "remove it first, or attach the file under another name (--name)")
            }
            file.item = item
            current.added.append(file)
        }
        let changes: [Change] = [.setAttachments(document: name, from: document.attachments, to: current)]
        try commit(changes)
        let place = item.map { " on the page of \($0)" } ?? ""
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "attach",
                description: "attached \(cappedList(files.map { quoted($0.name) })) to \(quoted(name))\(place)",
                document: name, pageCount: document.pageCount, positions: positions, ids: item.map { [$0] } ?? []))
    }

    /// `attach remove NAME...`: an added file is taken out; a source's embedded
    /// file is left out of every export of the document from now on.
    mutating func executeDetach(_ names: [String], in name: String, context: EditContext) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        guard !names.isEmpty else { throw .invalidAttachment("name the attachments to remove") }
        let listed = listedAttachments(of: document, context: context)
        var current = document.attachments ?? DocumentAttachments()
        var droppedAdded: Set<Int> = []
        var seen: Set<String> = []
        for wanted in names {
            guard seen.insert(wanted).inserted else { throw .invalidAttachment("\(quoted(wanted)) is named twice") }
            let found = listed.first { $0.name == wanted }
            if let found, let source = found.source, let original = found.original {
                current.removed.append(RemovedAttachment(source: source, name: original))
            } else if let index = found?.added ?? current.added.firstIndex(where: { $0.name == wanted }) {
                droppedAdded.insert(index)
            } else {
                let known = listed.map { quoted($0.name) }
                throw .invalidAttachment(
                    "\(quoted(name)) has no attachment named \(quoted(wanted))"
                        + (known.isEmpty ? " (it has none)" : "; it has \(cappedList(known))"))
            }
        }
        current.added = current.added.enumerated().filter { !droppedAdded.contains($0.offset) }.map(\.element)
        let changes: [Change] = [
            .setAttachments(document: name, from: document.attachments, to: current.isEmpty ? nil : current)
        ]
        try commit(changes)
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "attach remove",
                description: "removed \(cappedList(names.map(quoted))) from \(quoted(name))", document: name,
                pageCount: document.pageCount))
    }
}
