import PageModel

/// A session as the commands that only look at it (`show`, `thumbs`) see it:
/// where it lives (the folder its source paths are relative to, its trusted
/// cache, its own files, which no output may replace) and how to read it. The
/// command line's session file (`Workspace.view`) and an editor in memory
/// (`PageEditor.view`) are both one, so the two draw through the same code.
package struct SessionView {
    /// Where the session lives, named as `SessionStore` names it.
    struct Place {
        var baseDirectory: String
        var cacheDirectory: String?
        var ownFiles: [String]
    }

    let store: Place
    let passwords: PasswordBook
    private let load: () throws(PDFEditError) -> Session

    init(store: Place, passwords: PasswordBook, load: @escaping () throws(PDFEditError) -> Session) {
        self.store = store
        self.passwords = passwords
        self.load = load
    }

    /// The session, read now (a session file under its lock).
    func read() throws(PDFEditError) -> Session { try load() }
}

extension Workspace {
    /// The session file as `show` and `thumbs` see it.
    var view: SessionView {
        SessionView(
            store: .init(
                baseDirectory: store.baseDirectory, cacheDirectory: store.cacheDirectory, ownFiles: store.ownFiles),
            passwords: passwords, load: read)
    }

    /// See `SessionView.imagePDFs(session:access:)`.
    func imagePDFs(session: Session, access: SourceAccess) throws(PDFEditError)
        -> (SourceID, PageSize?) throws(PDFEditError) -> String
    {
        try view.imagePDFs(session: session, access: access)
    }

    /// See `SessionView.itemsToShow(_:doc:selection:access:)`.
    func itemsToShow(
        _ session: Session, doc: String?, selection: PageSelection?, access: SourceAccess
    ) throws(PDFEditError) -> (name: String, document: Document, indices: [Int]) {
        try view.itemsToShow(session, doc: doc, selection: selection, access: access)
    }
}

extension PageEditor {
    /// The editor's session as `show` and `thumbs` see it.
    var view: SessionView {
        let session = session
        return SessionView(
            store: .init(baseDirectory: baseDirectory, cacheDirectory: cacheDirectory, ownFiles: protectedFiles),
            passwords: passwords, load: { session })
    }
}
