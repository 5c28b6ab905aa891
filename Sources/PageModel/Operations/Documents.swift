extension Session {
    /// `new NAME`: an empty document at the end of the list, made current
    /// (as a new tab is); undo makes the previous one current again.
    mutating func executeNewDocument(_ name: String) throws(EditError) -> EditOutcome {
        try checkNewName(name)
        let changes: [Change] = [.addDocument(Document(name: name), index: documents.count)]
        try commit(changes)
        current = name
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "new", description: "created document \"\(name)\" (now current)", document: name,
                pageCount: 0))
    }

    /// `rename OLD NEW`; the current document stays current under its new name.
    mutating func executeRename(from: String, to: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(from)
        try checkNewName(to)
        let changes: [Change] = [.renameDocument(from: from, to: to)]
        try commit(changes)
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "rename", description: "renamed document \"\(from)\" to \"\(to)\"", document: to,
                pageCount: document.pageCount, otherDocument: from))
    }

    /// `close NAME`: the document and its items go (undo brings them back).
    /// The last document cannot be closed. Closing the current one makes the
    /// one before it current (the one after it if it was first).
    mutating func executeClose(_ name: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        guard documents.count > 1, let index = documentIndex(name) else { throw .cannotCloseLastDocument(name) }
        let changes: [Change] = [.dropDocument(document, index: index)]
        let neighbour = documents[index > 0 ? index - 1 : 1].name
        try commit(changes)
        if current == name { current = neighbour }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "close",
                description: "closed document \"\(name)\" (\(pagesPhrase(document.pageCount))); "
                    + "current: \"\(current)\"",
                document: current, pageCount: currentDocument?.pageCount ?? 0, otherDocument: name,
                otherPageCount: document.pageCount))
    }

    /// `use NAME`. Not an undo step by itself.
    mutating func executeUse(_ name: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        current = name
        return EditOutcome(
            changes: [],
            summary: ChangeSummary(
                action: "use",
                description: "current document: \"\(name)\" (\(pagesPhrase(document.pageCount)))",
                document: name, pageCount: document.pageCount))
    }

    private func checkNewName(_ name: String) throws(EditError) {
        if let problem = Session.problem(withDocumentName: name) {
            throw .invalidDocumentName(name, reason: problem)
        }
        guard documentIndex(name) == nil else { throw .documentExists(name) }
    }
}
