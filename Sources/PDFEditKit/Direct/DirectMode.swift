#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// Direct mode: an editing command on one file, without a session.
///
/// The file becomes an in-memory session (nothing is written to the current
/// directory), the edit is applied by the same model code as in a session, and
/// the result is exported to `-o OUT`, or replaces the input atomically with
/// `--in-place`.
package struct DirectMode: Sendable {
    /// The file edited.
    package var input: String
    /// Where the result goes (`-o OUT`); nil with `inPlace`.
    package var output: String?
    /// Replace the input atomically with the result (`--in-place`).
    package var inPlace: Bool
    /// Replace an existing output.
    package var force: Bool
    /// Passwords to try on the input and on the other files the edit reads.
    package var passwords: PasswordBook
    /// Told how far writing the output got (see `ExportSettings.progress`).
    package var progress: ProgressHandler?
    /// Write the output unencrypted (`--decrypt`); by default it keeps the
    /// input's encryption: method, permissions, user and owner password.
    package var decrypt = false
    /// Keep the input's scripts and actions in the output (see `ExportSettings.keepScripts`).
    package var keepScripts = false
    /// Keep the input's digital signatures valid, or refuse the edit (see `ExportSettings.keepSignatures`).
    package var keepSignatures = false
    /// Pages the redaction refuses written as pictures at this many dots per
    /// inch (see `ExportSettings.rasterizeRedacted`).
    package var rasterizeRedacted: Double?
    /// Remove what a redaction by text leaves outside the pages (see `ExportSettings.scrub`).
    package var scrub = false
    /// Encrypt the output with these passwords and permissions instead of keeping
    /// the input's encryption (`--encrypt`); nil keeps it (or `decrypt` drops it).
    package var outputEncryption: OutputEncryption?
    /// The scratch folder (image cache) to use; nil makes one for this run when
    /// it has an image to convert (see `ScratchDirectory.forImages`). A
    /// batch shares one among its files and threads (entries are renamed into
    /// place whole, so two threads making the same one both succeed).
    var scratch: ScratchDirectory?
    /// `--repair`: an input qpdf refuses as damaged beyond repair is redrawn page
    /// by page through poppler (`PopplerPDF.redraw`) into a scratch file, which
    /// the command reads instead, with a warning that its annotations, links,
    /// bookmarks, form fields and structure are lost.
    package var repair = false
    /// `--compress` and `--linearize` (see `ExportSettings.compress`, `.linearize`).
    package var compress = false
    package var linearize = false
    /// `--images` (see `ExportSettings.images`).
    package var images: ImageResampling?
    /// What the output's bookmarks are (`merge --outline`; see `ExportSettings.outline`).
    package var outline: OutlinePolicy = .keep
    /// `apply` with a `render` line: the result is drawn into image files named
    /// after the output (`PageImages.applyPattern`) instead of written as a PDF.
    package var render: RenderSettings?

    /// A direct-mode command on `input`; give exactly one of `output` and `inPlace`.
    package init(input: String, output: String?, inPlace: Bool, force: Bool, passwords: PasswordBook) {
        self.input = input
        self.output = output
        self.inPlace = inPlace
        self.force = force
        self.passwords = passwords
    }

    /// Direct mode's in-memory session keeps source paths relative to the current
    /// directory (absolute when outside it), so messages name files as the user did.
    var baseDirectory: String { FileNames.currentDirectory }

    /// The PDFs this command opened, kept open for its export (see `OpenedFiles`).
    let openedFiles = OpenedFiles()

    /// The importer for the files an edit names (insert, fill, stamp): it keeps
    /// PDFs open for the export, and one the command already opened (the input
    /// inserted into itself) is not read again.
    var importer: Importer { keepingImporter }

    /// The importer for the files the command names: it keeps them open for the export.
    var keepingImporter: Importer {
        var importer = Importer(baseDirectory: baseDirectory, passwords: passwords, keepOpen: true)
        importer.openedFiles = openedFiles
        return importer
    }

    /// The kept documents of `files` by absolute path (as `SourceAccess.path(of:)` gives it).
    /// What the export may use instead of opening a file again: `files`, and every
    /// PDF the edit opened.
    func opened(_ files: [ImportedFile], access: SourceAccess) -> [String: OpenedPDF] {
        var result = openedFiles.opened
        for file in files {
            if let opened = file.opened { result[access.absolutePath(file.source.path)] = opened }
        }
        return result
    }

    /// Loads the input (and `otherDocuments`, each as a document of its own), lets
    /// `makeEdit` build the edit from the session and the document names, applies
    /// it to the input's document and writes that document out.
    package func run(
        otherDocuments: [String] = [],
        _ makeEdit: (_ session: Session, _ otherNames: [String], _ importer: Importer) throws(PDFEditError) -> Edit
    ) throws(PDFEditError) -> (ChangeSummary, ExportResult) {
        let (summaries, result) = try edit(otherDocuments: otherDocuments) {
            (session, otherNames, document, context) throws(PDFEditError) -> [ChangeSummary] in
            let edit = try makeEdit(session, otherNames, importer)
            do throws(EditError) {
                return [try session.apply(edit, doc: document, label: "direct", context: context)]
            } catch {
                throw PDFEditError.edit(error)
            }
        }
        return (summaries[0], result)
    }

    /// Applies the lines of a script (`steps`, built beforehand, named `script` in
    /// messages) to the input as one all-or-nothing step and writes the result —
    /// the same path as a single direct-mode edit, for `BatchApply`. A line the
    /// model refuses fails with its line number; nothing is written then.
    package func run(_ steps: [ScriptStep], script: String) throws(PDFEditError) -> ([ChangeSummary], ExportResult) {
        try edit { (session, _, document, context) throws(PDFEditError) -> [ChangeSummary] in
            do throws(EditError) {
                return try session.applyAll(steps.map { ($0.edit, document) }, label: "apply \(script)", context: context)
            } catch {
                if case .batch(let index, let inner) = error {
                    throw PDFEditError.scriptLine(script: script, line: steps[index].line, error: .edit(inner))
                }
                throw PDFEditError.edit(error)
            }
        }
    }

    /// The one direct-mode edit path: loads the input (and `otherDocuments`), lets
    /// `change` edit the in-memory session (given the other documents' names, the
    /// input's document name and the lookups an edit may need), and writes the
    /// input's document to the output, atomically (`optimize` changes nothing).
    func edit(
        otherDocuments: [String] = [],
        _ change: (
            _ session: inout Session, _ otherNames: [String], _ document: String, _ context: EditContext
        ) throws(PDFEditError) -> [ChangeSummary]
    ) throws(PDFEditError) -> ([ChangeSummary], ExportResult) {
        guard let target = inPlace ? input : output else {
            throw PDFEditError.usage("direct mode needs -o OUT or --in-place")
        }
        if inPlace && output != nil { throw PDFEditError.usage("give either -o or --in-place, not both") }
        if render != nil && inPlace { throw PDFEditError.usage("render writes images: give -o, not --in-place") }
        if !inPlace && render == nil {
            try Self.checkBeforeReading(target, sources: [input] + otherDocuments, force: force)
        }
        let (files, repaired) = try loadInputs(otherDocuments)
        defer { withExtendedLifetime(repaired) {} }  // its folder holds the file read
        var session: Session
        do throws(EditError) {
            session = try Session.opening(
                files.map { OpenedFile(documentName: $0.stem, source: $0.source, outline: $0.outline) }, limits: ProcessLimits.current)
        } catch {
            throw PDFEditError.edit(error)
        }
        let inputDocument = session.documents[0].name
        let inputSource = session.sources.first?.id
        let otherNames = Array(session.documents.dropFirst().map(\.name))
        let access = SourceAccess(session: session, baseDirectory: baseDirectory, passwords: passwords)
        let summaries = try PhaseTiming.measure("edit") { () throws(PDFEditError) -> [ChangeSummary] in
            try access.surfacingLookupFailure { () throws(PDFEditError) -> [ChangeSummary] in
                try Self.naming(input) { () throws(PDFEditError) in
                    try change(&session, otherNames, inputDocument, access.editContext)
                }
            }
        }
        guard let document = session.document(named: inputDocument) else {
            throw PDFEditError.usage("the edit left no document to write")
        }
        if var render {
            render.force = force
            let access = SourceAccess(session: session, baseDirectory: baseDirectory, passwords: passwords)
            let drawn = try renderImages(
                document.items, positions: document.items.indices.map { $0 + 1 },
                session: session, document: document, access: access,
                pattern: PageImages.applyPattern(target, settings: render), settings: render)
            let warnings = Warning.oneDamageWarningPerFile(
                zip([input] + otherDocuments, files).flatMap { path, file in Warning.damage(of: path, messages: file.warnings) })
            return (
                summaries,
                ExportResult(
                    output: drawn.files.first ?? target, document: inputDocument, pageCount: drawn.images.count,
                    first: 1, last: drawn.images.count, warnings: warnings)
            )
        }
        let scratch = try ScratchDirectory.forImages(of: session, shared: self.scratch)
        defer { withExtendedLifetime(scratch) {} }  // removed when the write is done, not at its last mention
        // A new access: the edit may have added sources (insert, fill).
        let exportAccess = SourceAccess(session: session, baseDirectory: baseDirectory, passwords: passwords)
        var writeSettings = ExportSettings(force: force || inPlace)
        writeSettings.progress = progress
        writeSettings.outputEncryption = outputEncryption
        keepingEncryption(of: inputSource, in: &writeSettings)
        writeSettings.keepScripts = keepScripts
        writeSettings.keepSignatures = keepSignatures
        writeSettings.rasterizeRedacted = rasterizeRedacted
        writeSettings.scrub = scrub
        writeSettings.compress = compress
        writeSettings.linearize = linearize
        writeSettings.images = images
        writeSettings.outline = outline
        let writer = ExportWriter(
            session: session, access: exportAccess, cacheDirectory: scratch?.path,
            protected: SessionStore(explicitPath: nil).ownFiles, allowedSource: inPlace ? input : nil, direct: true,
            preopened: opened(files, access: exportAccess), lastUseOfPreopened: true)
        // In place through a symbolic link: the file it leads to is replaced (keeping
        // its mode and owner, see `Permissions`), the link stays a link.
        var result = try writer.write(
            document.items, document: inputDocument, to: inPlace ? Paths.followingLinks(input) : target,
            settings: writeSettings, positions: 1...max(1, document.items.count))
        result.output = target
        // Damage found at import and again at export is one warning per file.
        result.warnings = Warning.oneDamageWarningPerFile(
            zip([input] + otherDocuments, files).flatMap { path, file in Warning.damage(of: path, messages: file.warnings) }
                + result.warnings)
        if repaired != nil { result.warnings.insert(Self.repairWarning(input), at: 0) }
        return (summaries, result)
    }

    /// The input and `others`, loaded; with `repair`, an input qpdf refuses as
    /// damaged beyond repair is loaded from its redrawing instead, named as the
    /// input is (its stem names the document and split parts), in a scratch
    /// folder the returned value keeps alive.
    private func loadInputs(_ others: [String]) throws(PDFEditError) -> ([ImportedFile], ScratchDirectory?) {
        do throws(PDFEditError) {
            return (try keepingImporter.load([input] + others), nil)
        } catch {
            guard repair, case .engine(.damaged(let file, nil, _)) = error, file == input else { throw error }
        }
        let folder = try ScratchDirectory()
        let redrawn = Paths.join(folder.path, Paths.name(of: input))
        do throws(EngineError) {
            let poppler = try passwords.open(input) { password throws(EngineError) in
                try PopplerPDF(path: input, password: password)
            }.pdf
            try poppler.redraw(to: redrawn)
        } catch {
            throw PDFEditError.engine(error)
        }
        let files = try keepingImporter.load([redrawn] + others)
        return (files, folder)
    }

    /// The input loaded as an in-memory session of one document (the files read,
    /// and the scratch folder of a `--repair` redrawing, kept alive by the caller).
    func loadedSession() throws(PDFEditError) -> (Session, [ImportedFile], ScratchDirectory?) {
        let (files, repaired) = try loadInputs([])
        do throws(EditError) {
            let session = try Session.opening(
                files.map { OpenedFile(documentName: $0.stem, source: $0.source, outline: $0.outline) },
                limits: ProcessLimits.current)
            return (session, files, repaired)
        } catch {
            throw PDFEditError.edit(error)
        }
    }

    /// What `--repair` says when it redrew the input.
    static func repairWarning(_ input: String) -> Warning {
        .exportNotice(
            file: input,
            message: "qpdf cannot repair it: redrawn page by page with poppler (--repair); "
                + "its annotations, links, bookmarks, form fields and structure tree are lost")
    }

    /// `export OUT [SEL] --from FILE` (and `--split DIR`): pages of a file written out
    /// without a session.
    package func export(
        selection: PageSelection?, split: SplitRequest? = nil, settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        if split == nil, let output { try Self.checkBeforeReading(output, sources: [input], force: settings.force) }
        let (session, files, repaired) = try loadedSession()
        defer { withExtendedLifetime(repaired) {} }
        let access = SourceAccess(session: session, baseDirectory: baseDirectory, passwords: passwords)
        let document = session.documents[0]
        var settings = settings
        keepingEncryption(of: session.sources.first?.id, in: &settings)
        let chosen = try Self.naming(input) { () throws(PDFEditError) in
            try Workspace.items(of: document, selection: selection, access: access)
        }
        let scratch = try ScratchDirectory.forImages(of: session, shared: self.scratch)
        defer { withExtendedLifetime(scratch) {} }  // removed when the write is done, not at its last mention
        let writer = ExportWriter(
            session: session, access: access, cacheDirectory: scratch?.path,
            protected: SessionStore(explicitPath: nil).ownFiles, direct: true,
            preopened: opened(files, access: access), lastUseOfPreopened: split == nil)
        var results: [ExportResult]
        if let split {
            results = try writer.split(
                chosen.items, positions: chosen.positions, document: document.name, request: split, settings: settings)
        } else {
            guard let output else { throw PDFEditError.usage("export needs an output file") }
            results = [
                try writer.write(
                    chosen.items, document: document.name, to: output, settings: settings,
                    positions: chosen.positions.first.map { $0...(chosen.positions.last ?? $0) })
            ]
        }
        // The export reads the document the import opened, so damage is reported
        // from the import (once per file), as the edit commands do.
        if !results.isEmpty {
            results[0].warnings = Warning.oneDamageWarningPerFile(
                files.flatMap { file in Warning.damage(of: input, messages: file.warnings) } + results[0].warnings)
        }
        return results
    }
}

extension DirectMode {
    /// `body`, its refusals of the edit (a selection, a position, a rule of the
    /// model) named after the input file: in direct mode the document is a file.
    static func naming<T>(_ input: String, _ body: () throws(PDFEditError) -> T) throws(PDFEditError) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .selection, .edit: throw .inFile(file: input, error: error)
            default: throw error
            }
        }
    }

    /// Runs the export's own output checks (`OutputChecks`: a source, the session's
    /// files, an existing file without `force`, anything but a regular file, an
    /// unwritable folder; 73) before any input is read, so that a script that
    /// skips what it has done fails at once rather than after reading a large
    /// input. The export checks again when it writes.
    static func checkBeforeReading(_ output: String, sources: [String], force: Bool) throws(PDFEditError) {
        var checks = OutputChecks(
            sources: sources, protected: SessionStore(explicitPath: nil).ownFiles, force: force, direct: true)
        try checks.check(output)
    }

    /// The output keeps the encryption of `input` (its source), unless the user
    /// asked for none (`decrypt`) or for passwords of their own; with `decrypt`
    /// no warning says that encrypted pages were written unencrypted.
    func keepingEncryption(of input: SourceID?, in settings: inout ExportSettings) {
        if decrypt {
            settings.warnsWhenDecrypting = false
        } else if settings.outputEncryption == nil {
            settings.keepEncryptionOf = input
        }
    }
}

/// A private (0700) temporary folder for one command (direct mode's image cache),
/// removed when the command is done with it, and by the signal handler on Ctrl-C
/// or SIGTERM (see `TemporaryFiles.registerFolder`), so nothing is left behind.
final class ScratchDirectory: Sendable {
    let path: String

    init() throws(PDFEditError) {
        _ = Self.staleRemoved
        path = Paths.join(Paths.temporaryFolder, "pdfedit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        if case .failure(let failure) = nothingOrErrno({ mkdir(path, 0o700) }) {
            throw StagedOutput.cannotWrite(path, failure)
        }
        TemporaryFiles.shared.registerFolder(path)
    }

    deinit { TemporaryFiles.shared.removeFolder(path) }

    /// The folder an export of `session` converts its images in: `shared` (a
    /// batch's), a new one, or none when the session has no image source (most
    /// commands: making, scanning for stale ones and removing a folder in a
    /// shared /tmp was a tenth of a small file's edit).
    static func forImages(of session: Session, shared: ScratchDirectory?) throws(PDFEditError) -> ScratchDirectory? {
        if let shared { return shared }
        guard session.sources.contains(where: { $0.kind == .image }) else { return nil }
        return try ScratchDirectory()
    }

    /// `removeStale()`, once per process (a batch makes one scratch folder per file).
    private static let staleRemoved: Void = removeStale()

    /// Removes the scratch folders (`pdfedit-PID-N`) of pdfedit processes that no
    /// longer exist: SIGKILL, a power cut. Best effort, our own folders only (the
    /// temporary folder is usually sticky).
    static func removeStale() {
        let folder = Paths.temporaryFolder
        for name in namesStartingPdfedit(in: folder) {
            let parts = name.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let pid = pid_t(parts[1]), pid > 0, UInt32(parts[2]) != nil,
                !StagedOutput.isRunning(pid)
            else { continue }
            let path = Paths.join(folder, name)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else { continue }
            Files.removeTree(path)
        }
    }

    /// The names in `folder` that start with "pdfedit-".
    static func namesStartingPdfedit(in folder: String) -> [String] {
        let prefix = Array("pdfedit-".utf8)
        return Paths.names(in: folder) { $0.starts(with: prefix) } ?? []
    }
}
