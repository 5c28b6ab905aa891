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

    public init(force: Bool = false, placeholders: PlaceholderPolicy = .refuse, encryption: ExportEncryption? = nil) {
        self.force = force
        self.placeholders = placeholders
        self.encryption = encryption
    }
}

/// The result of writing one PDF.
public struct ExportResult: Codable, Sendable, Equatable {
    public var output: String
    public var document: String
    public var pageCount: Int
    public var warnings: [String]
}

/// Turns page items into an engine plan and writes it atomically under its final name.
struct ExportWriter {
    let session: Session
    let access: SourceAccess
    /// Files this export may replace without --force (the session's own previous exports).
    var replaceable: Set<String> = []
    /// The one source this export may replace: the input of `--in-place`.
    var allowedSource: String? = nil

    /// Writes `items` (of document `name`) to `output`.
    func write(
        _ items: [PageItem], document name: String, to output: String, settings: ExportSettings
    ) throws(PDFEditError) -> ExportResult {
        guard !items.isEmpty else { throw PDFEditError.notExportable("document \"\(name)\" is empty: nothing to export") }
        let placeholders = items.indices.filter { items[$0].content.isPlaceholder }
        if !placeholders.isEmpty, settings.placeholders == .refuse {
            let positions = placeholders.map { String($0 + 1) }.joined(separator: ", ")
            throw PDFEditError.notExportable(
                "document \"\(name)\" still holds placeholders at positions \(positions); "
                    + "fill them or export with --placeholders blank")
        }
        try checkOutput(output, settings: settings)
        let used = items.compactMap(\.content.source)
        try access.verify(used)

        var sources: [ExportSource] = []
        var sourceIndex: [SourceID: Int] = [:]
        var plan: [ExportItem] = []
        plan.reserveCapacity(items.count)
        for item in items {
            switch item.content {
            case .page(let source, let page):
                let index: Int
                if let known = sourceIndex[source] {
                    index = known
                } else {
                    guard let path = access.path(of: source) else {
                        throw PDFEditError.sessionCorrupt(path: output, reason: "unknown source \(source)")
                    }
                    index = sources.count
                    // No probing open: the bridge tries the candidates itself.
                    sources.append(ExportSource(path: path, alternatives: access.passwords.candidates(for: path)))
                    sourceIndex[source] = index
                }
                plan.append(.page(source: index, index: page - 1, quarterTurns: item.rotation))
            case .blank(let size), .placeholder(let size, _):
                plan.append(.blank(width: size.width, height: size.height, quarterTurns: item.rotation))
            case .image(let source, _):
                throw PDFEditError.notExportable(
                    "\(access.path(of: source) ?? source.description): image pages cannot be exported yet")
            }
        }

        let temporary = AtomicFile.temporaryPath(for: output)
        TemporaryFiles.shared.register(temporary)
        let report: ExportReport
        do throws(EngineError) {
            let options = ExportOptions(deterministicID: settings.encryption == nil, encryption: settings.encryption)
            do {
                report = try PDFExporter.write(sources: sources, items: plan, options: options, to: temporary)
            } catch .password(let file, _) where access.passwords.mayPrompt {
                // None of the given passwords worked: ask on the terminal, then try again.
                guard let (id, index) = sourceIndex.first(where: { sources[$0.value].path == file }) else {
                    throw EngineError.password(file: file, given: true)
                }
                sources[index].password = try access.password(for: id)
                report = try PDFExporter.write(sources: sources, items: plan, options: options, to: temporary)
            }
        } catch {
            unlink(temporary)
            TemporaryFiles.shared.unregister(temporary)
            if case .cannotWrite = error { throw PDFEditError.engine(.cannotWrite(file: output, reason: "\(error)")) }
            throw PDFEditError.engine(error)
        }
        try AtomicFile.commit(temporary, to: output)
        return ExportResult(
            output: output, document: name, pageCount: items.count, warnings: report.warnings.map(\.description))
    }

    /// An output may not name a source (73), nor replace a file without --force (73).
    func checkOutput(_ output: String, settings: ExportSettings) throws(PDFEditError) {
        let target = PasswordBook.standardised(output)
        let allowed = allowedSource.map(PasswordBook.standardised)
        for source in session.sources
        where PasswordBook.standardised(access.absolutePath(source.path)) == target && target != allowed {
            throw PDFEditError.outputIsSource(path: output)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw PDFEditError.engine(.cannotWrite(file: output, reason: "is a directory"))
            }
            if !settings.force && !replaceable.contains(target) { throw PDFEditError.outputExists(path: output) }
        }
        let directory = (target as NSString).deletingLastPathComponent
        guard Glibc.access(directory, W_OK) == 0 else {
            throw PDFEditError.engine(.cannotWrite(file: output, reason: "cannot write in \(directory)"))
        }
    }
}
