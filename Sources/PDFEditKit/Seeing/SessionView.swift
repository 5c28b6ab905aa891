import PageModel

/// A session as the commands that only look at it (`show`, `thumbs`) see it:
/// where it lives (the folder its source paths are relative to, its trusted
/// cache, its own files, which no output may replace) and how to read it: an
/// editor's (`PageEditor.view`), of a session file or in memory, so both draw
/// through the same code.
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

extension PageEditor {
    /// The editor's session as `show` and `thumbs` see it.
    var view: SessionView {
        let session = session
        return SessionView(
            store: .init(baseDirectory: baseDirectory, cacheDirectory: cacheDirectory, ownFiles: protectedFiles),
            passwords: passwords, load: { session })
    }
}
