#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
internal import PDFEngine
import PageModel

/// The Document Editor in memory: PDFs (and images) opened from files or from
/// bytes, exploded into page items, edited with typed selections and undo, and
/// written to a file or to bytes.
///
/// A value, as a `String` is: edit it with its `mutating` methods; a copy is
/// an independent editor with the same documents and history. Nothing is
/// written anywhere until ``write(to:document:pages:settings:)-3v0ab`` or
/// ``data(document:pages:settings:)-527ur``; bytes opened with ``open(data:name:)``
/// are kept in a private temporary folder (mode 0700) that goes with the last
/// copy of the editor.
///
/// ```swift
/// var editor = try PageEditor(contentsOf: URL(fileURLWithPath: "in.pdf"))
/// try editor.move(.pages(3...5), to: .position(1))
/// try editor.rotate(.last, by: 90)
/// try editor.undo()
/// let bytes = try editor.data()
/// ```
///
/// Several documents at once: each `open` adds one (named after its file),
/// the first being the current one; every edit takes the document's name
/// (nil: the current one), and ``move(_:to:in:into:)`` / ``copy(_:to:in:into:)``
/// carry pages between them.
public struct PageEditor: Sendable {
    /// The documents, the sources they show and the undo history.
    package internal(set) var session: Session
    /// Passwords to try on encrypted files.
    public var passwords: PasswordBook
    /// Where bytes opened from memory are kept, and where `data` writes: made
    /// when first needed (an editor of files only, as the command line's of a
    /// session, never makes one: it was a tenth of a small edit).
    let scratch: LazyScratch
    /// Source paths are stored relative to the directory the editor was made in
    /// (absolute outside it), as the command line's direct mode stores them, so
    /// messages name files as the program gave them; the session's folder for
    /// the command line's editor of a session file.
    let baseDirectory: String
    /// The session's trusted cache folder (page facts, texts, thumbnails), for the
    /// command line's editor of a session file; nil: nothing is cached on disk.
    let cacheDirectory: String?
    /// Files no output may replace besides the sources: the session's own (for
    /// direct mode's editor, those of the default session).
    var protectedFiles: [String]
    /// The session file the command line's editor works on; nil for an editor in memory.
    package let sessionFile: String?
    /// The session's earlier exports (`ExportsList`), for the command line's editor.
    let exportsList: ExportsList?
    /// The PDFs the editor opened, kept open for its write, by absolute path:
    /// direct mode's editor (``init(opening:passwords:repair:scratch:)``) only;
    /// nil: every write reads its sources again.
    var openedFiles: OpenedFiles?
    /// Files opened with `repair` and read from their redrawing: each may still be
    /// replaced in place (`WriteOptions.replacingSource`).
    var repairedFiles: [String] = []
    /// Of `repairedFiles`, those that opened only with a password: their
    /// redrawing is not encrypted, so no write can keep their encryption.
    var repairedEncryptedFiles: [String] = []
    /// What opening the editor's files found without failing, in the order of the
    /// files: one warning per damaged file that qpdf recovered, and the redrawing
    /// of a file opened with `repair` (first). Empty for an editor of bytes or of a session.
    public internal(set) var openingWarnings: [Warning] = []

    /// An editor with one empty document named `main`.
    public init(passwords: PasswordBook = PasswordBook()) throws(PDFEditError) {
        self.init(passwords: passwords, scratch: nil)
    }

    /// An editor with one empty document, its temporary folder `shared` when given.
    init(passwords: PasswordBook, scratch shared: ScratchDirectory?) {
        session = Session()
        self.passwords = passwords
        scratch = LazyScratch(shared: shared)
        baseDirectory = FileNames.currentDirectory
        cacheDirectory = nil
        protectedFiles = []
        sessionFile = nil
        exportsList = nil
    }

    /// The command line's editor of the session file `store` holds, `session`
    /// as read from it: sources stay relative to the session's folder and the
    /// session's cache is used, as `Workspace` uses them.
    package init(loaded session: Session, store: SessionStore, passwords: PasswordBook) {
        self.session = session
        self.passwords = passwords
        scratch = LazyScratch()
        baseDirectory = store.baseDirectory
        cacheDirectory = store.cacheDirectory
        protectedFiles = store.ownFiles
        sessionFile = store.path
        exportsList = ExportsList(path: store.exportsListPath)
    }

    /// The command line's commands that only look at a session: `body` is given
    /// an editor of the session file at `path` (nil: `PDFEDIT_SESSION`, else
    /// `.pdfedit/session.json` here), read under its lock.
    package static func reading<T>(
        session path: String?, passwords: PasswordBook = PasswordBook(),
        _ body: (PageEditor) throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        let workspace = Workspace(sessionPath: path, passwords: passwords)
        return try body(PageEditor(loaded: try workspace.read(), store: workspace.store, passwords: passwords))
    }

    /// The command line's editing commands: `body` edits an editor of the
    /// session file at `path` (as ``reading(session:passwords:_:)``), all under
    /// the session's lock; the session is saved atomically only when `body`
    /// succeeds (`Workspace.mutate`: a history found damaged is the session's damage).
    package static func editing<T>(
        session path: String?, passwords: PasswordBook = PasswordBook(),
        _ body: (inout PageEditor) throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        let workspace = Workspace(sessionPath: path, passwords: passwords)
        return try workspace.mutate { (session, _) throws(PDFEditError) in
            var editor = PageEditor(loaded: session, store: workspace.store, passwords: passwords)
            let result = try body(&editor)
            session = editor.session
            return result
        }
    }

    /// `pdfedit open FILE...`: a new session file at `path` (see
    /// ``reading(session:passwords:_:)``) with one document per file, written
    /// under its lock (an existing session replaced only with `replacing`,
    /// never a file that is not one); the editor of it, and one warning per
    /// damaged file that was recovered.
    package static func open(
        _ files: [String], session path: String?, replacing: Bool, passwords: PasswordBook,
        progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> (editor: PageEditor, warnings: [Warning]) {
        let workspace = Workspace(sessionPath: path, passwords: passwords)
        let (session, warnings) = try workspace.open(files, force: replacing, progress: progress)
        return (PageEditor(loaded: session, store: workspace.store, passwords: passwords), warnings)
    }

    /// The importer for files the command line names in a session at `path`:
    /// relative to its folder, attachments copied into its store.
    package static func importer(forSession path: String?, passwords: PasswordBook) -> Importer {
        Workspace(sessionPath: path, passwords: passwords).importer()
    }

    /// An editor holding the PDF (or image) at `url` as its one document.
    public init(contentsOf url: URL, password: String? = nil) throws(PDFEditError) {
        try self.init(passwords: PasswordBook(general: password.map { [$0] } ?? []))
        try start(opening: [url.path], repair: false)
    }

    /// An editor holding a PDF (or an image) given as bytes, as its one document `name`.
    public init(data: Data, name: String = "document", password: String? = nil) throws(PDFEditError) {
        try self.init(passwords: PasswordBook(general: password.map { [$0] } ?? []))
        try start(with: try loadKept(data, name: name))
    }

    /// An editor continuing the session file at `path` (`pdfedit open` makes
    /// them, ``save(session:)`` too): its documents, current document and undo
    /// history. The file is read under its lock and left as it is.
    public init(session path: String, passwords: PasswordBook = PasswordBook()) throws(PDFEditError) {
        try self.init(passwords: passwords)
        let store = SessionStore(explicitPath: path)
        let loaded = try store.withLock { () throws(PDFEditError) in try store.load() }
        // A session stores its sources relative to its own folder; the editor, to the one it was made in.
        let there = SourceAccess(session: loaded, baseDirectory: store.baseDirectory, passwords: passwords)
        let here = importer
        session = loaded.relocatingSources { here.storedPath(there.absolutePath($0.path)) }
            .relocatingAttachments { here.storedPath(there.absolutePath($0.file)) }
    }

    /// Writes the editor's documents, current document and undo history as the
    /// session file at `path`, atomically and under its lock, so that `pdfedit`
    /// (or ``init(session:passwords:)``) can go on with them. A file there that is
    /// not a session is never replaced. Sources opened from bytes live in the
    /// editor's temporary folder, which goes with it: they are written into a
    /// folder beside the session, `<session file>.sources/`, first.
    public func save(session path: String) throws(PDFEditError) {
        let store = SessionStore(explicitPath: path)
        try store.withLock(creating: true) { () throws(PDFEditError) in
            try store.checkReplaceable()
            let here = SourceAccess(session: session, baseDirectory: baseDirectory, passwords: passwords)
            let there = Importer(baseDirectory: store.baseDirectory, passwords: passwords)
            let kept = scratch.existingPath.map { Paths.join($0, "") }
            var copies: [String: String] = [:]
            for source in session.sources {
                let absolute = here.absolutePath(source.path)
                guard let kept, absolute.hasPrefix(kept) else { continue }
                let folder = store.path + ".sources"
                if Files.makeFolders(folder) != nil {
                    throw PDFEditError.engine(.cannotWrite(file: folder, reason: "cannot create the folder"))
                }
                let copy = Paths.join(folder, "\(source.id)-" + (absolute.split(separator: "/").last.map(String.init) ?? "source"))
                guard let bytes = Files.contents(absolute) else {
                    throw PDFEditError.engine(.unreadable(file: absolute, reason: "cannot read it back"))
                }
                try StagedOutput.replace(copy, with: Data(bytes), permissions: .privateFile)
                copies[source.path] = copy
            }
            // Attached bytes the editor keeps go with it too: into the session's own store.
            let relocated = try session.relocatingAttachments { (file) throws(PDFEditError) -> String in
                let absolute = here.absolutePath(file.file)
                guard let kept, absolute.hasPrefix(kept) else { return there.storedPath(absolute) }
                guard let bytes = Files.contents(absolute) else {
                    throw PDFEditError.engine(.unreadable(file: absolute, reason: "cannot read it back"))
                }
                return there.storedPath(try Importer.keep(bytes, sha256: file.sha256, in: store.attachmentsFolder))
            }
            try store.save(
                relocated.relocatingSources { there.storedPath(copies[$0.path] ?? here.absolutePath($0.path)) })
        }
    }

    private mutating func start(with files: [ImportedFile]) throws(PDFEditError) {
        session = try Session.opening(imported: files)
    }

    /// The importer of the files the editor's edits read (insert, fill, stamp):
    /// in direct mode's editor it keeps PDFs open for the write, and a file it
    /// already opened (the input inserted into itself) is not read again.
    package var importer: Importer {
        var importer = Importer(baseDirectory: baseDirectory, passwords: passwords, keepOpen: openedFiles != nil)
        importer.openedFiles = openedFiles
        return importer
    }

    /// The importer of `attach`: attached bytes are copied into the editor's
    /// private folder, so a later change of the file changes nothing written.
    var attachmentImporter: Importer {
        get throws(PDFEditError) {
            var importer = importer
            importer.attachmentStore = Paths.join(try scratch.path(), "attachments")
            return importer
        }
    }

    /// The lookups of the editor's sources, as its edits make them.
    var access: SourceAccess {
        SourceAccess(session: session, baseDirectory: baseDirectory, passwords: passwords, cacheDirectory: cacheDirectory)
    }

    /// `data` in the scratch folder under a name of its own; returns its path.
    private func keep(_ data: Data, name: String) throws(PDFEditError) -> String {
        let stem = String(Session.validDocumentName(name).map { $0 == " " ? "_" : $0 })
        let folder = try scratch.path()
        let path = Paths.join(folder, "\(UInt64.random(in: 0...UInt64.max))-\(stem)")
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            throw PDFEditError.usage("cannot keep the bytes of \(name) in \(folder): \(error)")
        }
        return path
    }

    /// Bytes kept and read as a file, its failures naming `name` rather than the temporary file.
    private func loadKept(_ data: Data, name: String) throws(PDFEditError) -> [ImportedFile] {
        let path = try keep(data, name: name)
        var files = try Self.naming(path, name) { () throws(PDFEditError) in try importer.load([path]) }
        files[0].stem = Session.validDocumentName(name)
        return files
    }

    private static func naming<T>(_ path: String, _ name: String, _ body: () throws(PDFEditError) -> T)
        throws(PDFEditError) -> T
    {
        do {
            return try body()
        } catch {
            if case .engine(let failure) = error, failure.file == path { throw .engine(failure.naming(name)) }
            throw error
        }
    }

    // MARK: Documents

    /// The documents' names, in order.
    public var documentNames: [String] { session.documents.map(\.name) }

    /// The current document's name: the one edits without a document name change.
    public var currentDocument: String { session.current }

    /// The page items of a document (nil: the current one), in order.
    public func items(of document: String? = nil) throws(PDFEditError) -> [PageItem] {
        try session.chosenDocument(document).items
    }

    /// How many pages a document (nil: the current one) has.
    public func pageCount(of document: String? = nil) throws(PDFEditError) -> Int {
        try items(of: document).count
    }

    /// Adds the PDF (or image) at `url` as a new document, named after the file
    /// (made unique); returns its name. Undo takes the document away again.
    @discardableResult
    public mutating func open(_ url: URL) throws(PDFEditError) -> String {
        try add(importer.load([url.path]), label: "open \(url.path)")
    }

    /// Adds a PDF (or image) given as bytes as a new document named `name` (made
    /// unique); returns its name. Undo takes it away again.
    @discardableResult
    public mutating func open(data: Data, name: String) throws(PDFEditError) -> String {
        try add(try loadKept(data, name: name), label: "open \(name)")
    }

    private mutating func add(_ files: [ImportedFile], label: String) throws(PDFEditError) -> String {
        let file = files[0]
        let name = session.uniqueDocumentName(Session.validDocumentName(file.stem))
        // The new document does not become the current one, as with `pdfedit open A B`.
        let current = session.current
        do throws(EditError) {
            try session.applyAll(
                [
                    (.newDocument(name: name), nil),
                    (
                        .insertItems(
                            contents: file.contents, at: nil, newSources: [file.source],
                            outlines: file.sourceOutline.map { [$0] } ?? []), name
                    ),
                    (.useDocument(name: current), nil),
                ], label: label, context: EditContext(limits: ProcessLimits.current))
        } catch {
            if case .batch(_, let inner) = error { throw PDFEditError.edit(inner) }
            throw PDFEditError.edit(error)
        }
        return name
    }

    // MARK: Editing

    /// Applies any edit of the model (see `Edit`) to a document (nil: the current
    /// one) as one undo step named `label`; returns what changed. All or nothing.
    @discardableResult
    package mutating func apply(_ edit: Edit, in document: String? = nil, label: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        let access = access
        var working = session
        let summary = try access.surfacingLookupFailure { () throws(PDFEditError) -> ChangeSummary in
            try access.apply([(edit, document)], to: &working, label: label ?? "\(edit)")[0]
        }
        session = working
        return summary
    }

    /// Moves the selected pages to `destination` (`.position(1)`, `.before(3)`,
    /// `.after(.last)`), in `document`, or into another document with `into`.
    @discardableResult
    public mutating func move(
        _ pages: PageSelection, to destination: Destination, in document: String? = nil, into other: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.move(pages, to: destination, into: other), in: document, label: "move \(pages) \(destination)")
    }

    /// Copies the selected pages to `destination`, in `document` or into `other`.
    @discardableResult
    public mutating func copy(
        _ pages: PageSelection, to destination: Destination, in document: String? = nil, into other: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.copy(pages, to: destination, into: other), in: document, label: "copy \(pages) \(destination)")
    }

    /// Turns the selected pages clockwise by `degrees` (a multiple of 90, negative: counter-clockwise).
    @discardableResult
    public mutating func rotate(_ pages: PageSelection, by degrees: Int, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        guard degrees % 90 == 0 else {
            throw PDFEditError.usage("a rotation is a multiple of 90 degrees, not \(degrees)")
        }
        return try apply(.rotate(pages, quarterTurns: degrees / 90), in: document, label: "rotate \(pages) \(degrees)")
    }

    /// Removes the selected pages.
    @discardableResult
    public mutating func remove(_ pages: PageSelection, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.remove(pages), in: document, label: "remove \(pages)")
    }

    /// Reverses the order of the selected pages (all by default).
    @discardableResult
    public mutating func reverse(_ pages: PageSelection = .all, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.reverse(pages), in: document, label: "reverse \(pages)")
    }

    /// Makes the document these pages, in this order, as one undo step — what
    /// `pdfedit edit` applies once the editor closes: pages not listed are
    /// removed, a page listed twice is copied (its later lines are copies),
    /// `.item(id, quarterTurns:)` turns a page clockwise, `.blank` and
    /// `.placeholder` insert new pages.
    @discardableResult
    public mutating func rearrange(_ pages: [ArrangedItem], in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.rearrange(pages), in: document, label: "edit")
    }

    /// Puts a copy of each selected page right after it.
    @discardableResult
    public mutating func duplicate(_ pages: PageSelection, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.duplicate(pages), in: document, label: "duplicate \(pages)")
    }

    /// Inserts every page of the PDF (or the image) at `url` at `destination` (nil: at the end).
    @discardableResult
    public mutating func insert(_ url: URL, at destination: Destination? = nil, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        let (edit, _) = try importer.insertEdit([url.path], at: destination, fit: nil, keepGoing: false)
        return try apply(edit, in: document, label: "insert \(url.path)")
    }

    /// Inserts a PDF (or an image) given as bytes at `destination` (nil: at the end).
    @discardableResult
    public mutating func insert(data: Data, name: String = "inserted", at destination: Destination? = nil,
                                in document: String? = nil) throws(PDFEditError) -> ChangeSummary
    {
        let path = try keep(data, name: name)
        let (edit, _) = try Self.naming(path, name) { () throws(PDFEditError) in
            try importer.insertEdit([path], at: destination, fit: nil, keepGoing: false)
        }
        return try apply(edit, in: document, label: "insert \(name)")
    }

    /// Adds `count` placeholders, pages to be filled later (``fill(_:with:in:)``),
    /// at `destination` (nil: at the end).
    @discardableResult
    public mutating func placeholder(
        at destination: Destination? = nil, count: Int = 1, label: String? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.placeholder(at: destination, count: count, size: nil, label: label), in: document)
    }

    /// Replaces the placeholder at `position` with the pages of the file at `url`.
    @discardableResult
    public mutating func fill(_ position: Position, with url: URL, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        try apply(try importer.fillEdit(position, file: url.path, fit: nil), in: document, label: "fill \(position)")
    }

    /// Writes a page number on the selected pages (`number`): `format` with `{n}`
    /// for the number (counted from `start`) and `{total}` for the page count, in
    /// Helvetica (a real font, embedded, for text outside Windows-1252) `size`
    /// large at `position` inside a `margin` — each in points as seen, or a
    /// share of each page's shorter side (`.percent(2)`) — in `color` (nil:
    /// black), on a `background` box with an `outline` (nil: none).
    ///
    /// `font` is `helvetica`, `times` or `courier` (the standard fonts;
    ///   nil: Helvetica), an installed font by fontconfig's name
    ///   (`"DejaVu Serif:bold"`) or a font file's path; a font that is not
    ///   installed or a file that is not a font is refused.
    @discardableResult
    public mutating func number(
        _ pages: PageSelection = .all, format: String = "{n}", start: Int = 1, size: StampLength = 10,
        position: StampPosition = .bottom, margin: StampLength = 24, font: String? = nil, color: TextColor? = nil,
        background: TextColor? = nil, outline: TextColor? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        var mark = TextMark(kind: .number, format: format, start: start, size: 10)
        try mark.setLook(size: size, font: font, color: color, background: background, outline: outline)
        let placement = try StampPlacement.with(position: position, margin: margin)
        return try apply(.textStamp(pages, Stamp(text: mark, placement: placement)), in: document, label: "number \(pages)")
    }

    /// Writes `text` across the selected pages (`watermark`), turned `angle`
    /// degrees, at `opacity` (0 < opacity <= 1), over their content or `under` it,
    /// in any language (`font`, `size`, the colours as for
    /// ``number(_:format:start:size:position:margin:font:color:background:outline:in:)``).
    @discardableResult
    public mutating func watermark(
        _ pages: PageSelection = .all, text: String, size: StampLength = 72, angle: Double = 45, opacity: Double = 0.3,
        under: Bool = false, font: String? = nil, color: TextColor? = nil, background: TextColor? = nil,
        outline: TextColor? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        guard Stamp.isValidOpacity(opacity) else {
            throw PDFEditError.usage("an opacity is above 0 and at most 1, not \(opacity)")
        }
        var mark = TextMark(kind: .watermark, format: text, size: 72, angle: angle)
        try mark.setLook(size: size, font: font, color: color, background: background, outline: outline)
        return try apply(
            .textStamp(pages, Stamp(text: mark, under: under, opacity: opacity, placement: StampPlacement())),
            in: document, label: "watermark \(pages)")
    }

    /// Takes back the last `steps` edits; returns their labels, newest first.
    @discardableResult
    public mutating func undo(_ steps: Int = 1) throws(PDFEditError) -> [String] {
        do throws(EditError) { return try session.undo(steps) } catch { throw PDFEditError.edit(error) }
    }

    /// Replays `steps` undone edits; returns their labels, oldest first.
    @discardableResult
    public mutating func redo(_ steps: Int = 1) throws(PDFEditError) -> [String] {
        do throws(EditError) { return try session.redo(steps) } catch { throw PDFEditError.edit(error) }
    }

    // MARK: Output

    /// Writes a document (nil: the current one), or the selected pages of it, to
    /// `url` as one PDF, atomically. An existing file is replaced only with
    /// `settings.force`, and never a file the editor reads.
    @discardableResult
    public func write(
        to url: URL, document: String? = nil, pages: PageSelection? = nil, settings: ExportSettings = ExportSettings()
    ) throws(PDFEditError) -> ExportResult {
        try write(try pick(pages, in: document), toPath: url.path, settings: settings, options: WriteOptions())
    }

    /// Writes a document (nil: the current one), or the selected pages of it, as
    /// several PDFs in `folder` (made if needed): one per page by default, or as
    /// `grouping` says (every K pages, a new part at selected pages, at bookmarks,
    /// or by size with `maximumBytes`), each named by `name` with the fields of
    /// `pdfedit split` (`{n}`, `{first}`, `{last}`, `{doc}`, `{src}`, `{srcpage}`,
    /// `{title}`; default `{doc}-{n}.pdf`). What `pdfedit split` and `export
    /// --split` write.
    @discardableResult
    public func writeParts(
        into folder: URL, grouping: SplitGrouping = .each, name: String? = nil, outlineLevel: Int = 1,
        maximumBytes: Int64? = nil, document: String? = nil, pages: PageSelection? = nil,
        settings: ExportSettings = ExportSettings()
    ) throws(PDFEditError) -> [ExportResult] {
        let request = SplitRequest(
            directory: folder.path, grouping: grouping, template: name, outlineLevel: outlineLevel,
            maxSize: maximumBytes)
        return try writeParts(try pick(pages, in: document), request: request, settings: settings, options: WriteOptions())
    }

    /// The files at `urls` joined in order into one PDF's bytes, every document
    /// part of each kept as an insert keeps it: what `pdfedit merge` writes.
    public static func merge(_ urls: [URL], settings: ExportSettings = ExportSettings()) throws(PDFEditError) -> Data {
        guard let first = urls.first else { throw PDFEditError.usage("merge needs at least one file") }
        var editor = try PageEditor(contentsOf: first)
        for url in urls.dropFirst() { try editor.insert(url) }
        return try editor.data(settings: settings)
    }

    /// A document (nil: the current one), or the selected pages of it, as the
    /// bytes of one PDF.
    public func data(document: String? = nil, pages: PageSelection? = nil, settings: ExportSettings = ExportSettings())
        throws(PDFEditError) -> Data
    {
        let path = Paths.join(try scratch.path(), "out-\(UInt64.random(in: 0...UInt64.max)).pdf")
        var settings = settings
        settings.force = true
        try write(to: URL(fileURLWithPath: path), document: document, pages: pages, settings: settings)
        defer { unlink(path) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PDFEditError.usage("cannot read back the output \(path): \(error)")
        }
    }
}

// MARK: Async

extension PageEditor {
    /// ``data(document:pages:settings:)-527ur`` off the caller's thread: the work runs
    /// on a thread of Dispatch's pool, and cancelling the calling task cancels it (a split
    /// of the work into parts stops at the next part; a write that has begun is
    /// finished or removed whole, never left half-written). Progress comes to
    /// `settings.progress`, from that thread.
    public func data(document: String? = nil, pages: PageSelection? = nil, settings: ExportSettings = ExportSettings())
        async throws(PDFEditError) -> Data
    {
        try await Self.offThread { () throws(PDFEditError) in
            try self.data(document: document, pages: pages, settings: settings)
        }
    }

    /// `write(to:document:pages:settings:)` off the caller's thread, cancelled
    /// with the calling task (see `data(document:pages:settings:)`).
    @discardableResult
    public func write(
        to url: URL, document: String? = nil, pages: PageSelection? = nil, settings: ExportSettings = ExportSettings()
    ) async throws(PDFEditError) -> ExportResult {
        try await Self.offThread { () throws(PDFEditError) in
            try self.write(to: url, document: document, pages: pages, settings: settings)
        }
    }

    /// Runs `body` on a thread of Dispatch's pool, not the task's, observing a token that the current
    /// task's cancellation cancels; a task cancelled before it starts fails at once.
    private static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws(PDFEditError) -> T)
        async throws(PDFEditError) -> T
    {
        let token = CancellationToken()
        let result: Result<T, PDFEditError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, PDFEditError>, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(
                        returning: token.observed { () -> Result<T, PDFEditError> in
                            do throws(PDFEditError) {
                                try CancellationToken.check()
                                return .success(try body())
                            } catch {
                                return .failure(error)
                            }
                        })
                }
            }
        } onCancel: {
            token.cancel()
        }
        return try result.get()
    }
}

/// An editor's temporary folder, made the first time something is kept in it
/// and shared by the editor's copies (it goes with the last of them).
final class LazyScratch: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var made: ScratchDirectory?

    /// A folder to make when first needed, or `shared` (a batch's, standard input's).
    init(shared: ScratchDirectory? = nil) { made = shared }

    /// The folder, made now if it was not yet.
    func path() throws(PDFEditError) -> String {
        try lock.withLock { () throws(PDFEditError) -> String in
            if let made { return made.path }
            let folder = try ScratchDirectory()
            made = folder
            return folder.path
        }
    }

    /// The folder when it was made; nil: nothing was kept.
    var existingPath: String? { lock.withLock { made?.path } }
}
