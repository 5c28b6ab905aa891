#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// Direct mode: an editing command on one file, without a session — the command
/// line's arguments as the library's values, and nothing else.
///
/// The input (and the command's other files) is opened into a `PageEditor` of
/// its own, in memory (`PageEditor.init(opening:passwords:repair:scratch:)`:
/// nothing is written to the current directory), the edit is applied by the
/// method a session's command calls (`PageEditor.apply`, `run`), and the
/// result written with `PageEditor.write(_:toPath:settings:options:lastUse:)`:
/// to `-o OUT`, or replacing the input atomically with `--in-place`
/// (`WriteOptions.replacingSource`), keeping its encryption unless `--decrypt`
/// (`WriteOptions.Encryption`). `-` is resolved beforehand
/// (`resolvingStandardStreams`).
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
    /// The scratch folder (image cache) to use; nil: the editor makes one when it
    /// has an image to convert. A batch shares one among its files and threads
    /// (entries are renamed into place whole, so two threads making the same one
    /// both succeed); `-` shares standard input's.
    var scratch: ScratchDirectory?
    /// `--repair`: an input qpdf refuses as damaged beyond repair is redrawn
    /// page by page through poppler (see `PageEditor.init(contentsOf:passwords:repair:)`).
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

    /// What the write does about the input: replaced with `--in-place`, its
    /// encryption kept unless `--decrypt`.
    var writeOptions: WriteOptions {
        WriteOptions(replacingSource: inPlace, encryption: decrypt ? .remove : .keep)
    }

    /// The export settings these options make.
    var settings: ExportSettings {
        var settings = ExportSettings(force: force)
        settings.progress = progress
        settings.outputEncryption = outputEncryption
        settings.keepScripts = keepScripts
        settings.keepSignatures = keepSignatures
        settings.rasterizeRedacted = rasterizeRedacted
        settings.scrub = scrub
        settings.compress = compress
        settings.linearize = linearize
        settings.images = images
        settings.outline = outline
        return settings
    }

    /// The input and `others` (each a document of its own) opened in an editor.
    func open(_ others: [String] = [], repairing: Bool? = nil) throws(PDFEditError) -> PageEditor {
        try PageEditor(opening: [input] + others, passwords: passwords, repair: repairing ?? repair, scratch: scratch)
    }

    /// Loads the input (and `otherDocuments`, each as a document of its own), lets
    /// `makeEdit` build the edit (given the editor, the other documents' names and
    /// the importer of the files it names), applies it to the input's document
    /// and writes that document out.
    package func run(
        otherDocuments: [String] = [],
        _ makeEdit: (_ editor: PageEditor, _ otherNames: [String], _ importer: Importer) throws(PDFEditError) -> Edit
    ) throws(PDFEditError) -> (ChangeSummary, ExportResult) {
        let (summaries, result) = try edit(otherDocuments: otherDocuments) {
            (editor, otherNames, document) throws(PDFEditError) -> [ChangeSummary] in
            let edit = try makeEdit(editor, otherNames, editor.importer)
            return [try editor.apply(edit, in: document, label: "direct")]
        }
        return (summaries[0], result)
    }

    /// Applies the lines of a script (`steps`, built beforehand, named `script` in
    /// messages) to the input as one all-or-nothing step (`PageEditor.run`, as
    /// `pdfedit run` in a session) and writes the result, for `BatchApply`. A
    /// line the model refuses fails with its line number; nothing is written then.
    package func run(_ steps: [ScriptStep], script: String) throws(PDFEditError) -> ([ChangeSummary], ExportResult) {
        try edit { (editor, _, document) throws(PDFEditError) -> [ChangeSummary] in
            try editor.run(steps.map { ScriptStep(line: $0.line, edit: $0.edit, doc: document) }, script: script)
        }
    }

    /// The one direct-mode edit path: opens the input (and `otherDocuments`), lets
    /// `change` edit the editor (given the other documents' names and the input's
    /// document name), and writes the input's document to the output, atomically
    /// (`optimize` changes nothing).
    func edit(
        otherDocuments: [String] = [],
        _ change: (_ editor: inout PageEditor, _ otherNames: [String], _ document: String) throws(PDFEditError)
            -> [ChangeSummary]
    ) throws(PDFEditError) -> ([ChangeSummary], ExportResult) {
        guard let target = inPlace ? input : output else {
            throw PDFEditError.usage("direct mode needs -o OUT or --in-place")
        }
        if inPlace && output != nil { throw PDFEditError.usage("give either -o or --in-place, not both") }
        if render != nil && inPlace { throw PDFEditError.usage("render writes images: give -o, not --in-place") }
        if !inPlace && render == nil {
            try Self.checkBeforeReading(target, sources: [input] + otherDocuments, force: force)
        }
        var editor = try open(otherDocuments)
        let inputDocument = editor.documentNames[0]
        let otherNames = Array(editor.documentNames.dropFirst())
        let summaries = try PhaseTiming.measure("edit") { () throws(PDFEditError) -> [ChangeSummary] in
            try Self.naming(input) { () throws(PDFEditError) in try change(&editor, otherNames, inputDocument) }
        }
        guard editor.documentNames.contains(inputDocument) else {
            throw PDFEditError.usage("the edit left no document to write")
        }
        if var render {
            render.force = force
            let document = try editor.session.chosenDocument(inputDocument)
            let drawn = try editor.renderImages(
                document.items, positions: document.items.indices.map { $0 + 1 }, document: document,
                pattern: PageImages.applyPattern(target, settings: render), settings: render)
            return (
                summaries,
                ExportResult(
                    output: drawn.files.first ?? target, document: inputDocument, pageCount: drawn.images.count,
                    first: 1, last: drawn.images.count, warnings: Warning.oneDamageWarningPerFile(editor.openingWarnings))
            )
        }
        let items = try editor.items(of: inputDocument)
        var result = try editor.write(
            PickedPages(document: inputDocument, items: items, positions: [1, max(1, items.count)]),
            toPath: target, settings: settings, options: writeOptions, lastUse: true)
        // Damage found at import and again at export is one warning per file.
        result.warnings = Warning.oneDamageWarningPerFile(editor.openingWarnings + result.warnings)
        return (summaries, result)
    }

    /// `export OUT [SEL] --from FILE` (and `--split DIR`): pages of a file written out
    /// without a session.
    package func export(
        selection: PageSelection?, split: SplitRequest? = nil, settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        if split == nil, let output { try Self.checkBeforeReading(output, sources: [input], force: settings.force) }
        let editor = try open()
        let document = editor.documentNames[0]
        let chosen = try Self.naming(input) { () throws(PDFEditError) in try editor.pick(selection, in: document) }
        var results: [ExportResult]
        let options = WriteOptions(encryption: decrypt ? .remove : .keep)
        if let split {
            results = try editor.writeParts(chosen, request: split, settings: settings, options: options)
        } else {
            guard let output else { throw PDFEditError.usage("export needs an output file") }
            results = [try editor.write(chosen, toPath: output, settings: settings, options: options, lastUse: true)]
        }
        // The export reads the document the import opened, so damage is reported
        // from the import (once per file), as the edit commands do; an export
        // says nothing of a repair.
        if !results.isEmpty {
            let damage = editor.openingWarnings.filter { if case .recoveredDamage = $0 { true } else { false } }
            results[0].warnings = Warning.oneDamageWarningPerFile(damage + results[0].warnings)
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
