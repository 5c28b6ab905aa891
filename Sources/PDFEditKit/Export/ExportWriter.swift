import Foundation
import PDFEngine
import PageModel

/// What to do with placeholders at export.
public enum PlaceholderPolicy: String, Sendable, CaseIterable {
    /// Refuse the export, naming their positions (the default).
    case refuse
    /// Each placeholder becomes a blank page of its size.
    case blank
}

/// Options shared by every kind of export.
public struct ExportSettings: Sendable {
    public var force: Bool
    public var placeholders: PlaceholderPolicy
    public var encryption: ExportEncryption?
    public var labels: LabelMode
    /// Overrides the title taken from the first source.
    public var title: String?
    /// Told how far writing got (phase "writing": percent of one file, or parts).
    public var progress: ProgressHandler?

    public init(
        force: Bool = false, placeholders: PlaceholderPolicy = .refuse, encryption: ExportEncryption? = nil,
        labels: LabelMode = .keep, title: String? = nil
    ) {
        self.force = force
        self.placeholders = placeholders
        self.encryption = encryption
        self.labels = labels
        self.title = title
    }

    /// The engine's options, with the process's limits (`PDFEDIT_MAX_STREAM_BYTES`).
    func engineOptions() -> ExportOptions {
        let maxStreamBytes = ProcessLimits.current.inflatedStreamBytes
        var writing: (@Sendable (Int, Int) -> Void)?
        if let handler = progress {
            writing = { done, total in
                handler(ProgressUpdate(done: done, total: total, unit: total == 100 ? "%" : "files", phase: "writing"))
            }
        }
        return ExportOptions(
            deterministicID: encryption == nil, encryption: encryption, labels: labels, title: title,
            maxStreamBytes: maxStreamBytes, progress: writing)
    }
}

/// The result of writing one PDF.
public struct ExportResult: Encodable, Sendable, Equatable {
    public var output: String
    public var document: String
    public var pageCount: Int
    /// 1-based positions (in the document) of the first and last exported item.
    public var first: Int?
    public var last: Int?
    public var warnings: [Warning]
}

/// The engine's view of some page items: the sources they read and the pages in order.
struct EnginePlan {
    var sources: [ExportSource]
    var items: [ExportItem]
    /// Which session source each engine source is (nil for converted images).
    var sessionSources: [SourceID?]
    /// Pages drawn onto the items (see `addStamps`).
    var stamps: [ExportStamp] = []
}

/// Turns page items into an engine plan and writes it atomically under its final name.
struct ExportWriter {
    let session: Session
    let access: SourceAccess
    /// Where images are converted to one-page PDFs (cached by fingerprint and size).
    let cacheDirectory: String
    /// Files this export may replace without --force (the session's own previous exports).
    var replaceable: Set<String> = []
    /// Files no export may replace, `--force` or not: the session's own (`SessionStore.ownFiles`).
    var protected: [String] = []
    /// The one source this export may replace: the input of `--in-place`.
    var allowedSource: String? = nil
    /// Direct mode: there is no session, the sources are the command's input files
    /// (which is what a refusal to write over one says).
    var direct = false
    /// Sources the loader opened in this process (direct mode), by absolute path:
    /// the export uses them rather than reading and checking the files again, and
    /// does not hash them again (they were hashed when loaded, moments ago, and
    /// the export reads the very file that was opened then).
    var preopened: [String: OpenedPDF] = [:]
    /// `write` is the last use of the preopened documents: the export may free
    /// them before writing its output (direct mode writes once).
    var lastUseOfPreopened = false

    /// Checks that `items` can be exported and builds the engine's plan.
    func plan(_ items: [PageItem], document name: String, settings: ExportSettings) throws(PDFEditError) -> EnginePlan {
        guard !items.isEmpty else { throw PDFEditError.notExportable("document \"\(name)\" is empty: nothing to export") }
        let placeholders = items.indices.filter { items[$0].content.isPlaceholder }
        if !placeholders.isEmpty, settings.placeholders == .refuse {
            let positions = placeholders.map { String($0 + 1) }.joined(separator: ", ")
            throw PDFEditError.notExportable(
                "document \"\(name)\" still holds placeholders at positions \(positions); "
                    + "fill them or export with --placeholders blank")
        }
        let used = Set(items.compactMap(\.content.source))
        try access.verify(used.filter { id in access.path(of: id).map { preopened[$0] == nil } ?? true })

        var plan = EnginePlan(sources: [], items: [], sessionSources: [])
        var pdfIndex: [SourceID: Int] = [:]
        var imageIndex: [String: Int] = [:]
        plan.items.reserveCapacity(items.count)
        for item in items {
            switch item.content {
            case .page(let source, let page):
                let index: Int
                if let known = pdfIndex[source] {
                    index = known
                } else {
                    guard let path = access.path(of: source) else {
                        throw PDFEditError.sessionCorrupt(path: name, reason: "unknown source \(source)")
                    }
                    index = plan.sources.count
                    // No probing open: the bridge tries the candidates itself.
                    plan.sources.append(
                        ExportSource(
                            path: path, alternatives: access.passwords.candidates(for: path),
                            name: stem(session.source(source)?.path ?? path), document: preopened[path]))
                    plan.sessionSources.append(source)
                    pdfIndex[source] = index
                }
                plan.items.append(.page(source: index, index: page - 1, quarterTurns: item.rotation))
            case .blank(let size), .placeholder(let size, _):
                plan.items.append(.blank(width: size.width, height: size.height, quarterTurns: item.rotation))
            case .image(let source, let fit):
                let converted = try imagePDF(source, fit: fit)
                let index: Int
                if let known = imageIndex[converted] {
                    index = known
                } else {
                    index = plan.sources.count
                    plan.sources.append(ExportSource(path: converted, name: stem(session.source(source)?.path ?? converted)))
                    plan.sessionSources.append(nil)
                    imageIndex[converted] = index
                }
                plan.items.append(.page(source: index, index: 0, quarterTurns: item.rotation))
            }
        }
        try addStamps(of: items, to: &plan)
        return plan
    }

    /// The one-page PDF showing an image source, made once and kept in the cache
    /// (keyed by the image's SHA-256 and the page size), so re-exports are identical.
    func imagePDF(_ source: SourceID, fit: PageSize?) throws(PDFEditError) -> String {
        guard let image = session.source(source), let path = access.path(of: source) else {
            throw PDFEditError.sessionCorrupt(path: source.description, reason: "unknown source \(source)")
        }
        let directory = PathText.join(cacheDirectory, "images")
        try CacheFolder.require(directory)
        let sizeKey = fit.map { "-\(Int(($0.width * 100).rounded()))x\(Int(($0.height * 100).rounded()))" } ?? ""
        let cached = (directory as NSString).appendingPathComponent("\(image.sha256)\(sizeKey).pdf")
        if FileManager.default.fileExists(atPath: cached) { return cached }
        AtomicFile.removeStaleTemporaries(for: [cached])
        let temporary = AtomicFile.temporaryPath(for: cached)
        TemporaryFiles.shared.register(temporary)
        do throws(EngineError) {
            try ImagePage.writePDF(
                image: path, fit: fit.map { ($0.width, $0.height) }, to: temporary,
                maximumPixels: ProcessLimits.current.pixels)
        } catch {
            unlink(temporary)
            TemporaryFiles.shared.unregister(temporary)
            throw PDFEditError.engine(error)
        }
        try AtomicFile.commit(temporary, to: cached, permissions: .privateFile)
        CacheFolder.noteWritten()
        return cached
    }

    /// Writes `items` (of document `name`) to `output`.
    func write(
        _ items: [PageItem], document name: String, to output: String, settings: ExportSettings,
        positions: ClosedRange<Int>? = nil
    ) throws(PDFEditError) -> ExportResult {
        try checkOutput(output, settings: settings)
        let options = settings.engineOptions()
        var plan = try plan(items, document: name, settings: settings)
        if lastUseOfPreopened {
            for index in plan.sources.indices where plan.sources[index].document != nil {
                plan.sources[index].lastUseOfDocument = true
            }
        }
        AtomicFile.removeStaleTemporaries(for: [output])
        let temporary = AtomicFile.temporaryPath(for: output)
        let report = try run(&plan, temporaries: [temporary], outputs: [output]) { (plan) throws(EngineError) in
            try PDFExporter.write(
                sources: plan.sources, items: plan.items, stamps: plan.stamps, options: options, to: temporary)
        }
        try AtomicFile.commit(temporary, to: output)
        return ExportResult(
            output: output, document: name, pageCount: items.count, first: positions?.lowerBound,
            last: positions?.upperBound, warnings: report.warnings.map(describe))
    }

    /// Writes several parts from one bridge call (which writes them on as many
    /// threads as there are cores, see `pe_export_parts`); all parts reach their
    /// final names only when every one was written.
    func writeParts(
        _ items: [PageItem], document name: String, parts: [(items: Range<Int>, output: String)],
        positions: [Int], settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        var paths = StandardPaths()
        let targets = parts.map { paths.standardised($0.output) }
        var seen: [String: String] = [:]
        for (part, key) in zip(parts, targets) {
            if let earlier = seen[key] {
                throw PDFEditError.usage("two parts would both be named \(earlier): make --name tell them apart")
            }
            seen[key] = part.output
        }
        // Folders are made only once the names are known to be distinct.
        for directory in Set(parts.map { directoryOf($0.output) }) {
            try ensureDirectory(directory)
        }
        let checker = OutputChecker(writer: self, settings: settings)
        for (part, target) in zip(parts, targets) { try checker.check(part.output, target: target) }
        let options = settings.engineOptions()
        var plan = try plan(items, document: name, settings: settings)
        AtomicFile.removeStaleTemporaries(for: parts.map(\.output))
        let temporaries = AtomicFile.temporaryPaths(for: parts.map(\.output))
        let engineParts = zip(parts, temporaries).map { ExportPart(items: $0.items, path: $1) }
        let report = try run(&plan, temporaries: temporaries, outputs: parts.map(\.output)) {
            (plan) throws(EngineError) in
            try PDFExporter.writeParts(
                sources: plan.sources, items: plan.items, stamps: plan.stamps, parts: engineParts,
                options: options)
        }
        // All parts appear together: a Ctrl-C now takes effect once every one is renamed.
        try Cancellation.deferringSignals { () throws(PDFEditError) in
            do throws(PDFEditError) {
                try AtomicFile.commitAll(Array(zip(temporaries, parts.map(\.output))))
            } catch {
                // A failed rename leaves the parts after it as temporary files.
                for temporary in temporaries {
                    unlink(temporary)
                    TemporaryFiles.shared.unregister(temporary)
                }
                throw error
            }
        }
        let warnings = report.warnings.map(describe)
        return parts.enumerated().map { index, part in
            ExportResult(
                output: part.output, document: name, pageCount: part.items.count,
                first: positions[part.items.lowerBound], last: positions[part.items.upperBound - 1],
                warnings: index == 0 ? warnings : [])
        }
    }

    /// Runs an engine write with the plan's temporaries registered for cancellation,
    /// asking for a password on the terminal once when none of the known ones worked.
    /// A write error names the output the user asked for, not its temporary file.
    private func run(
        _ plan: inout EnginePlan, temporaries: [String], outputs: [String],
        _ body: (EnginePlan) throws(EngineError) -> ExportReport
    ) throws(PDFEditError) -> ExportReport {
        temporaries.forEach(TemporaryFiles.shared.register)
        func removeTemporaries() {
            for temporary in temporaries {
                unlink(temporary)
                TemporaryFiles.shared.unregister(temporary)
            }
        }
        func attempt(_ plan: EnginePlan) -> Result<ExportReport, EngineError> {
            do throws(EngineError) { return .success(try body(plan)) } catch { return .failure(error) }
        }
        var outcome = attempt(plan)
        if case .failure(.password(let file, _)) = outcome, access.passwords.mayPrompt {
            if let index = plan.sources.firstIndex(where: { $0.path == file }),
                let id = plan.sessionSources[index]
            {
                do throws(PDFEditError) {
                    plan.sources[index].password = try access.password(for: id)
                } catch {
                    removeTemporaries()
                    throw error
                }
                outcome = attempt(plan)
            } else {
                outcome = .failure(.password(file: file, given: true))
            }
        }
        switch outcome {
        case .success(let report):
            return report
        case .failure(let error):
            removeTemporaries()
            // A failure of an output is told by its final name, never the hidden temporary's.
            if let index = temporaries.firstIndex(of: error.file), outputs.indices.contains(index) {
                switch error {
                case .cannotWrite(_, let reason):
                    throw PDFEditError.engine(.cannotWrite(file: outputs[index], reason: reason))
                case .library(_, let message):
                    throw PDFEditError.engine(.library(file: outputs[index], message: message))
                default:
                    break
                }
            }
            throw PDFEditError.engine(error)
        }
    }

    /// An engine warning as the kit's `Warning`, naming the source as the session
    /// stores it (as the user gave it), not by the absolute path the engine was handed.
    func describe(_ warning: ExportWarning) -> Warning {
        guard let file = warning.file else { return Warning(exportMessage: warning.message, file: "output") }
        let shown = session.sources.first { access.absolutePath($0.path) == file }?.path ?? file
        return Warning(exportMessage: warning.message, file: shown)
    }

    /// An output may not name a source (73), nor replace a file without --force (73).
    func checkOutput(_ output: String, settings: ExportSettings) throws(PDFEditError) {
        try OutputChecker(writer: self, settings: settings).check(output, target: PasswordBook.standardised(output))
    }
}

/// `ExportWriter.checkOutput` for many outputs: the sources' standardised paths
/// are worked out once, and each directory is checked once.
final class OutputChecker {
    private let settings: ExportSettings
    private let replaceable: Set<String>
    private let sourceTargets: Set<String>
    private let allowed: String?
    private let direct: Bool
    private let protected: Set<String>
    private var writableDirectories: Set<String> = []

    init(writer: ExportWriter, settings: ExportSettings) {
        self.settings = settings
        replaceable = writer.replaceable
        sourceTargets = Set(writer.session.sources.map { PasswordBook.standardised(writer.access.absolutePath($0.path)) })
        allowed = writer.allowedSource.map(PasswordBook.standardised)
        direct = writer.direct
        protected = Set(writer.protected.map(PasswordBook.standardised))
    }

    /// `target` is `output` standardised (`PasswordBook.standardised`).
    func check(_ output: String, target: String) throws(PDFEditError) {
        if sourceTargets.contains(target) && target != allowed {
            throw PDFEditError.outputIsSource(path: output, direct: direct)
        }
        if protected.contains(target) {
            throw PDFEditError.sessionPlace(path: output, reason: "is a file of the session; refusing to write over it")
        }
        if try existingOutput(output), !settings.force && !replaceable.contains(target) {
            throw PDFEditError.outputExists(path: output)
        }
        let directory = directoryOf(target)
        if writableDirectories.contains(directory) { return }
        guard Glibc.access(directory, W_OK) == 0 else {
            throw PDFEditError.engine(.cannotWrite(file: output, reason: "cannot write in \(directory)"))
        }
        writableDirectories.insert(directory)
    }
}

/// Whether something stands where an output goes. Only a regular file (itself or
/// behind a symbolic link) may ever be replaced, and only with `--force`: a
/// folder, a device, a FIFO or a socket is refused (73), `--force` or not — a
/// rename over `/dev/null` would replace the device node itself.
func existingOutput(_ path: String) throws(PDFEditError) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else {
        // Nothing there, or a dangling link (the rename replaces the link).
        return lstat(path, &status) == 0
    }
    guard let kind = nonRegularKind(status.st_mode) else { return true }
    throw PDFEditError.engine(.cannotWrite(file: path, reason: "is \(kind), not a regular file; refusing to replace it"))
}

/// What a file of `mode` is, for a message ("a folder", "a FIFO"…), or nil for a
/// regular file: the one naming of the outputs' and the session path's checks.
func nonRegularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
}

/// `PasswordBook.standardised` for many files in few directories: each directory
/// is standardised (symbolic links resolved, component by component) once, and a
/// file name is appended to it unless the file itself is a symbolic link.
struct StandardPaths {
    private var directories: [String: String] = [:]

    mutating func standardised(_ path: String) -> String {
        var status = stat()
        guard let (directory, name) = PlainPath.split(path), !name.isEmpty,
            !(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        else {
            return PasswordBook.standardised(path)
        }
        let key = directory.isEmpty ? "." : directory
        let standard: String
        if let known = directories[key] {
            standard = known
        } else {
            standard = PasswordBook.standardised(key)
            directories[key] = standard
        }
        return standard == "/" ? "/" + name : standard + "/" + name
    }
}

/// `(path as NSString).deletingLastPathComponent`, quickly for the usual path
/// (no "//", no trailing "/", last component not "." or ".."); a split export
/// asks it for thousands of files.
func directoryOf(_ path: String) -> String {
    guard let (directory, _) = PlainPath.split(path) else { return PathText.folder(of: path) }
    return directory
}

/// Paths split at their last "/" by looking at their bytes, for the plain paths a
/// split export makes by the thousand (Foundation's path functions cost tens of
/// thousands of instructions a call).
enum PlainPath {
    /// (directory, name) as `NSString` would give them (`deletingLastPathComponent`,
    /// `lastPathComponent`) for a path without "//", without a trailing "/" and
    /// whose name is not "." or ".."; nil for any other path.
    static func split(_ path: String) -> (directory: String, name: String)? {
        let bytes = path.utf8
        guard let last = bytes.last, last != UInt8(ascii: "/") else { return nil }
        var previous: UInt8 = 0
        var slash: String.Index? = nil
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") {
                if previous == UInt8(ascii: "/") { return nil }
                slash = index
            }
            previous = byte
            index = bytes.index(after: index)
        }
        let nameStart = slash.map { bytes.index(after: $0) } ?? bytes.startIndex
        let name = String(path[nameStart...])
        if name == "." || name == ".." { return nil }
        guard let slash else { return ("", name) }
        return (slash == bytes.startIndex ? "/" : String(path[..<slash]), name)
    }
}

/// A file's name without folder and extension.
func stem(_ path: String) -> String {
    ((path as NSString).lastPathComponent as NSString).deletingPathExtension
}
