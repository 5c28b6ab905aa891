#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// What a write does about the files the editor read: whether it may replace
/// one of them, and what becomes of their encryption. Given to
/// ``PageEditor/write(to:document:pages:settings:options:)`` and
/// ``PageEditor/data(document:pages:settings:options:)``; the defaults are
/// those of a write without options.
///
/// Whether the output is written as the source's bytes followed by an appended
/// (incremental) update is decided for each write: it is, whenever the output
/// shows the pages of one unencrypted source, all of them, rearranged or
/// turned (the fastest write, and the one that keeps a signed file's
/// signatures valid); `ExportSettings.keepSignatures` makes it a requirement
/// for signed sources, refusing an edit that cannot be written so.
///
/// ```swift
/// var editor = try PageEditor(contentsOf: [url], passwords: PasswordBook(general: ["secret"]))
/// try editor.rotate(.pages(1...1), by: 90)
/// // in.pdf replaced atomically, still encrypted with its own passwords:
/// try editor.write(to: url, options: WriteOptions(replacingSource: true, encryption: .keep))
/// ```
public struct WriteOptions: Sendable, Equatable {
    /// What becomes of the encryption of the editor's files.
    public enum Encryption: Sendable, Equatable {
        /// The output is unencrypted; its warnings name the encrypted files its
        /// pages came from (the default).
        case removeWithWarning
        /// The output is unencrypted, without a warning: the caller asked for it
        /// (`pdfedit --decrypt`).
        case remove
        /// The output keeps the encryption of the first file the editor opened,
        /// when that file is encrypted: its method, permissions, user and owner
        /// passwords (what `pdfedit`'s direct mode does, so that replacing a
        /// file never quietly decrypts it). `ExportSettings.outputEncryption`,
        /// when set, wins: the output then has passwords of its own. A write
        /// is refused (`.usage`) when that file was opened with `repair` and
        /// needed a password: its redrawing has no encryption to keep.
        case keep
    }

    /// The output may be a file the editor reads (the first one opened, or any
    /// other source), which it then replaces atomically: the new file is
    /// written beside it and renamed over it only when complete, keeping its
    /// mode and, where it can, its owner; through a symbolic link the file it
    /// leads to is replaced and the link stays. Without it such an output is
    /// refused (`PDFEditError.outputIsSource`), and `write` refuses this
    /// option for an output that is not a file the editor reads.
    public var replacingSource: Bool
    /// What becomes of the encryption of the editor's files.
    public var encryption: Encryption

    /// Options of a write.
    ///
    /// - Parameters:
    ///   - replacingSource: The output may replace a file the editor reads, atomically.
    ///   - encryption: What becomes of the files' encryption (default: removed, with a warning).
    public init(replacingSource: Bool = false, encryption: Encryption = .removeWithWarning) {
        self.replacingSource = replacingSource
        self.encryption = encryption
    }

    /// `settings` as these options change them, `firstSource` being the
    /// editor's first file (whose encryption `.keep` keeps).
    func applied(to settings: ExportSettings, firstSource: SourceID?) -> ExportSettings {
        var settings = settings
        switch encryption {
        case .removeWithWarning: break
        case .remove: settings.warnsWhenDecrypting = false
        case .keep: if settings.outputEncryption == nil { settings.keepEncryptionOf = firstSource }
        }
        if replacingSource { settings.force = true }
        return settings
    }
}

// MARK: Opening files

extension PageEditor {
    /// An editor holding each PDF (or image) at `urls` as a document of its
    /// own, named after its file (made unique), the first one current. The
    /// files are read in parallel; every unreadable one is reported together.
    ///
    /// Damage that qpdf recovered from is not an error: it is in
    /// ``openingWarnings`` (one warning per file). With `repair`, a first file
    /// that qpdf refuses as damaged beyond repair is redrawn page by page with
    /// poppler into the editor's private folder and opened from there instead
    /// (named as the file is), with a warning that its annotations, links,
    /// bookmarks, form fields and structure tree are lost.
    ///
    /// - Throws: ``PDFEditError``: a file missing, unreadable, not a PDF or an
    ///   image, damaged (and not repaired), or encrypted without a password in
    ///   `passwords` that opens it.
    public init(contentsOf urls: [URL], passwords: PasswordBook = PasswordBook(), repair: Bool = false)
        throws(PDFEditError)
    {
        try self.init(passwords: passwords)
        guard !urls.isEmpty else { throw PDFEditError.usage("open at least one file") }
        try start(opening: urls.map(\.path), repair: repair)
    }

    /// The command line's editor of the files direct mode edits (`pdfedit
    /// rotate 1 --by 90 in.pdf -o out.pdf`, `merge`, `apply`, `export --from`):
    /// ``init(contentsOf:passwords:repair:)`` of the paths as the user gave
    /// them (messages name them so), keeping the PDFs it opens open for its
    /// write (``write(_:toPath:document:settings:options:lastUse:)``), images
    /// converted in `scratch` when given (a batch's, shared), and the default
    /// session's files protected as the command line protects them.
    init(
        opening paths: [String], passwords: PasswordBook, repair: Bool, scratch shared: ScratchDirectory? = nil
    ) throws(PDFEditError) {
        self.init(passwords: passwords, scratch: shared)
        protectedFiles = SessionStore(explicitPath: nil).ownFiles
        openedFiles = OpenedFiles()
        try start(opening: paths, repair: repair)
    }

    /// Opens `paths` as the editor's documents (see ``init(contentsOf:passwords:repair:)``).
    mutating func start(opening paths: [String], repair: Bool) throws(PDFEditError) {
        let (files, repaired) = try load(paths, repair: repair)
        session = try Session.opening(imported: files)
        var warnings: [Warning] = []
        if let repaired {
            repairedFiles = [repaired.path]
            if repaired.wasEncrypted { repairedEncryptedFiles = [repaired.path] }
            warnings.append(Self.repairWarning(repaired.path))
        }
        for (path, file) in zip(paths, files) { warnings += Warning.damage(of: path, messages: file.warnings) }
        openingWarnings = warnings
    }

    /// The files read; with `repair`, a first file qpdf refuses as damaged
    /// beyond repair is read from its redrawing (in the editor's folder) instead,
    /// and its path returned.
    private func load(_ paths: [String], repair: Bool) throws(PDFEditError)
        -> ([ImportedFile], (path: String, wasEncrypted: Bool)?)
    {
        do throws(PDFEditError) {
            return (try importer.load(paths), nil)
        } catch {
            guard repair, let first = paths.first, case .engine(.damaged(let file, nil, _)) = error, file == first else {
                throw error
            }
        }
        let first = paths[0]
        // A folder of its own: the editor's may hold a file of that name (standard input's).
        let folder = Paths.join(try scratch.path(), "repaired")
        if case .failure(let failure) = nothingOrErrno({ mkdir(folder, 0o700) }), failure != .fileExists {
            throw StagedOutput.cannotWrite(folder, failure)
        }
        let redrawn = Paths.join(folder, Paths.name(of: first))
        let wasEncrypted: Bool
        do throws(EngineError) {
            let opened = try passwords.open(first) { password throws(EngineError) in
                try PopplerPDF(path: first, password: password)
            }
            wasEncrypted = opened.password != nil
            try opened.pdf.redraw(to: redrawn)
        } catch {
            throw PDFEditError.engine(error)
        }
        return (try importer.load([redrawn] + paths.dropFirst()), (first, wasEncrypted))
    }

    /// What opening says when it redrew `file` (`repair`).
    static func repairWarning(_ file: String) -> Warning {
        .exportNotice(
            file: file,
            message: "qpdf cannot repair it: redrawn page by page with poppler (--repair); "
                + "its annotations, links, bookmarks, form fields and structure tree are lost")
    }
}

// MARK: Writing with options

extension PageEditor {
    /// Writes a document (nil: the current one), or the selected pages of it, to
    /// `url` as one PDF, atomically, as ``write(to:document:pages:settings:)-3v0ab``
    /// does, with `options` saying what becomes of the files the editor read:
    /// whether `url` may be one of them (replaced in place) and whether the
    /// output keeps their encryption.
    ///
    /// - Throws: ``PDFEditError``: `.usage` when `options.replacingSource` is
    ///   given for a `url` that is not a file the editor reads; what
    ///   ``write(to:document:pages:settings:)-3v0ab`` throws.
    @discardableResult
    public func write(
        to url: URL, document: String? = nil, pages: PageSelection? = nil, settings: ExportSettings = ExportSettings(),
        options: WriteOptions
    ) throws(PDFEditError) -> ExportResult {
        try write(try pick(pages, in: document), toPath: url.path, settings: settings, options: options)
    }

    /// A document (nil: the current one), or the selected pages of it, as the
    /// bytes of one PDF, as ``data(document:pages:settings:)-527ur`` gives them,
    /// with `options.encryption` saying whether they keep the encryption of the
    /// editor's first file (`options.replacingSource` is refused: bytes replace nothing).
    public func data(
        document: String? = nil, pages: PageSelection? = nil, settings: ExportSettings = ExportSettings(),
        options: WriteOptions
    ) throws(PDFEditError) -> Data {
        if options.replacingSource { throw PDFEditError.usage("data() replaces no file: write(to:) replaces a source") }
        let path = Paths.join(try scratch.path(), "out-\(UInt64.random(in: 0...UInt64.max)).pdf")
        var settings = settings
        settings.force = true
        try write(try pick(pages, in: document), toPath: path, settings: settings, options: options)
        defer { unlink(path) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PDFEditError.usage("cannot read back the output \(path): \(error)")
        }
    }

    /// The pages a write takes: the selected items of a document (nil: the
    /// current one), with their positions.
    package func pick(_ pages: PageSelection?, in document: String?) throws(PDFEditError) -> PickedPages {
        let chosen = try session.chosenDocument(document)
        let picked = try Workspace.items(of: chosen, selection: pages, access: access)
        return PickedPages(document: chosen.name, items: picked.items, positions: picked.positions)
    }

    /// The one write of one PDF: `picked` to `output` (as the program gave
    /// it: messages and the result name it so), atomically. `lastUse`: the
    /// editor's opened documents (see ``init(opening:passwords:repair:scratch:)``)
    /// are not needed after this write, which may then change them in memory
    /// (direct mode writes once).
    @discardableResult
    package func write(
        _ picked: PickedPages, toPath output: String, settings: ExportSettings, options: WriteOptions,
        lastUse: Bool = false
    ) throws(PDFEditError) -> ExportResult {
        if options.replacingSource { try requireSource(output) }
        try requireKeepableEncryption(options)
        let access = access
        let writer = ExportWriter(
            session: session, access: access, cacheDirectory: try imageFolder(), protected: protectedFiles,
            allowedSource: options.replacingSource ? output : nil, direct: true,
            preopened: openedFiles?.opened ?? [:], lastUseOfPreopened: lastUse)
        // In place through a symbolic link: the file it leads to is replaced (keeping
        // its mode and owner, see `Permissions`), the link stays a link.
        var result = try writer.write(
            picked.items, document: picked.document,
            to: options.replacingSource ? Paths.followingLinks(output) : output,
            settings: options.applied(to: settings, firstSource: session.sources.first?.id),
            positions: picked.positions.first.map { $0...(picked.positions.last ?? $0) })
        result.output = output
        return result
    }

    /// `picked` as several PDFs, as `request` says (see
    /// ``writeParts(into:grouping:name:outlineLevel:maximumBytes:document:pages:settings:)``),
    /// with `options.encryption` applied.
    package func writeParts(
        _ picked: PickedPages, request: SplitRequest, settings: ExportSettings, options: WriteOptions
    ) throws(PDFEditError) -> [ExportResult] {
        if options.replacingSource { throw PDFEditError.usage("parts of a split replace no file") }
        try requireKeepableEncryption(options)
        let access = access
        let writer = ExportWriter(
            session: session, access: access, cacheDirectory: try imageFolder(), protected: protectedFiles,
            direct: true, preopened: openedFiles?.opened ?? [:])
        return try writer.split(
            picked.items, positions: picked.positions, document: picked.document, request: request,
            settings: options.applied(to: settings, firstSource: session.sources.first?.id))
    }

    /// `.keep` cannot keep the encryption of a file opened with `repair` that
    /// needed a password: its redrawing has none, and an output (above all one
    /// written in place) must never lose encryption quietly.
    private func requireKeepableEncryption(_ options: WriteOptions) throws(PDFEditError) {
        guard options.encryption == .keep, let file = repairedEncryptedFiles.first else { return }
        throw PDFEditError.usage(
            "\(file): --repair redraws it without its encryption, which the output cannot keep; "
                + "add --decrypt to write it unencrypted")
    }

    /// `replacingSource` only replaces a file the editor reads: a source, or a
    /// file opened with `repair` (whose source is its redrawing).
    private func requireSource(_ output: String) throws(PDFEditError) {
        let target = FileIdentity(of: output)
        let access = access
        let read = session.sources.map { access.absolutePath($0.path) } + repairedFiles
        guard read.contains(where: { FileIdentity(of: $0) == target }) else {
            throw PDFEditError.usage("\(output): is not a file this editor reads: only a source is replaced in place")
        }
    }

    /// Where a write converts images to PDF pages: the editor's folder when it
    /// has one (or is given one) or when an image is to be converted; nil
    /// otherwise (making and removing a folder was a tenth of a small edit).
    func imageFolder() throws(PDFEditError) -> String? {
        if let made = scratch.existingPath { return made }
        guard session.sources.contains(where: { $0.kind == .image }) else { return nil }
        return try scratch.path()
    }
}

/// The items a write takes from a document, with their 1-based positions in it.
package struct PickedPages: Sendable {
    /// The document's name.
    package var document: String
    /// The items, in document order.
    package var items: [PageItem]
    /// Their positions in the document.
    package var positions: [Int]

    package init(document: String, items: [PageItem], positions: [Int]) {
        self.document = document
        self.items = items
        self.positions = positions
    }
}
