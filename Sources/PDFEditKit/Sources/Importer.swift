#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
package import PDFEngine
import PageModel

/// A file read by `SourceLoader` and described as a session source.
package struct ImportedFile: Sendable {
    /// Provisional id; the session assigns the real one.
    package var source: Source
    /// The items the file gives: one per page of a PDF, one for an image.
    package var contents: [ItemContent]
    /// The file's stem, for naming a document after it.
    package var stem: String
    /// Damage recovered from while reading.
    package var warnings: [String]
    /// The opened PDF, kept when the importer was asked to (direct mode).
    package var opened: OpenedPDF? = nil
    /// A PDF's bookmarks (pages of the file), which become the outline of its items.
    package var outline: [SourceOutlineEntry] = []

    /// The outline as `Edit.insertItems` takes it (nil for none).
    package var sourceOutline: SourceOutline? {
        outline.isEmpty ? nil : SourceOutline(source: source.id, entries: outline)
    }
}

/// Turns files on disk into session sources, through the one loader.
package struct Importer: Sendable {
    /// The folder stored paths are relative to (the session's).
    package let baseDirectory: String
    /// Passwords to try on encrypted files.
    package let passwords: PasswordBook
    /// Keep each opened PDF in `ImportedFile.opened`, for an export in this process
    /// to use instead of reading and checking the file again (direct mode).
    package var keepOpen = false
    /// The limits a file is checked against as it enters (image pixels).
    package var limits: Limits
    /// PDFs this command already opened (with `keepOpen`), by absolute path: a
    /// file named again is not read and checked again (direct mode).
    package var openedFiles: OpenedFiles? = nil
    /// Where `attachEdit` copies the bytes of attached files (a session's
    /// `SessionStore.attachmentsFolder`); nil: they stay where they are (direct mode).
    package var attachmentStore: String? = nil

    /// An importer for a session whose paths are relative to `baseDirectory`.
    package init(
        baseDirectory: String, passwords: PasswordBook, keepOpen: Bool = false,
        limits: Limits = ProcessLimits.current
    ) {
        self.baseDirectory = baseDirectory
        self.passwords = passwords
        self.keepOpen = keepOpen
        self.limits = limits
    }

    /// How a path is stored: relative to the base directory when below it, else
    /// absolute; both as the kernel resolves them (`Paths.resolved`), so that the
    /// stored path leads to the file that was read.
    package func storedPath(_ path: String) -> String {
        let absolute = Paths.resolved(path)
        let base = Paths.resolved(baseDirectory)
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Reads each file; every unusable one is reported, in argument order.
    package func load(
        _ paths: [String], fit: PageSize? = nil, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> [ImportedFile] {
        var files: [ImportedFile] = []
        var problems: [PDFEditError] = []
        let loaded = PhaseTiming.measure("open") { loadEach(paths, fit: fit, progress: progress) }
        for result in loaded {
            switch result {
            case .success(let file): files.append(file)
            case .failure(let error): problems.append(.engine(error))
            }
        }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw .several(problems) }
        return files
    }

    /// Reads the files in parallel (each worker opens its own library handles) and
    /// returns one result per file, in argument order whatever order they finish in.
    /// `progress` hears of each file read (from the worker threads).
    package func loadEach(
        _ paths: [String], fit: PageSize? = nil, progress: ProgressHandler? = nil
    ) -> [Result<ImportedFile, EngineError>] {
        let results = ResultSlots<ImportedFile>(count: paths.count)
        let counter = ProgressCounter(total: paths.count, unit: "files", phase: "importing", handler: progress)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            defer { counter.advance() }
            do throws(EngineError) {
                results.set(index, .success(try load(paths[index], provisionalNumber: index + 1, fit: fit)))
            } catch {
                results.set(index, .failure(error))
            }
        }
        return results.values
    }

    func load(_ path: String, provisionalNumber: Int, fit: PageSize?) throws(EngineError) -> ImportedFile {
        let absolute = Paths.resolved(path)
        if let known = openedFiles?.file(at: absolute) {
            return known.numbered(provisionalNumber)
        }
        let file = try read(path, provisionalNumber: provisionalNumber, fit: fit)
        if let openedFiles, file.opened != nil, file.source.kind == .pdf {
            openedFiles.remember(file, at: absolute)
        }
        return file
    }

    private func read(_ path: String, provisionalNumber: Int, fit: PageSize?) throws(EngineError) -> ImportedFile {
        let loaded = try passwords.open(path) { password throws(EngineError) in
            try SourceLoader.load(path, password: password, keepOpen: keepOpen, maximumPixels: limits.pixels)
        }.pdf
        let id = SourceID(number: provisionalNumber)
        let kind: SourceKind = loaded.kind == .pdf ? .pdf : .image
        let source = Source(
            id: id, path: storedPath(path), size: loaded.fingerprint.size, sha256: loaded.fingerprint.sha256,
            pageCount: loaded.pageCount, kind: kind)
        SourceChecks.shared.remember(path: path, source: source)
        let contents: [ItemContent] =
            kind == .pdf
            ? (0..<loaded.pageCount).map { .page(source: id, page: $0 + 1) } : [.image(source: id, fit: fit)]
        let stem = Paths.stem(of: path)
        return ImportedFile(
            source: source, contents: contents, stem: stem, warnings: loaded.warnings, opened: loaded.opened,
            outline: loaded.outline)
    }
}

extension ImportedFile {
    /// The same file under another provisional source id.
    func numbered(_ number: Int) -> ImportedFile {
        var file = self
        let id = SourceID(number: number)
        file.source.id = id
        file.contents = contents.map { content in
            if case .page(_, let page) = content { return .page(source: id, page: page) }
            return content
        }
        return file
    }
}

/// The PDFs one direct-mode command opened and keeps open, by absolute path:
/// a file named twice (`insert a.pdf --at last a.pdf`), or the input named
/// again by the edit, is read and checked once, and the export uses them all
/// instead of opening them again.
package final class OpenedFiles: @unchecked Sendable {
    private let lock = Lock()
    private var files: [String: ImportedFile] = [:]

    package init() {}

    func file(at absolutePath: String) -> ImportedFile? { lock.withLock { files[absolutePath] } }

    func remember(_ file: ImportedFile, at absolutePath: String) { lock.withLock { files[absolutePath] = file } }

    /// Every opened PDF, by absolute path.
    package var opened: [String: OpenedPDF] {
        lock.withLock { files.compactMapValues(\.opened) }
    }
}

/// One result per slot, filled from several threads.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Result<Value, EngineError>?]
    private let lock = Lock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result<Value, EngineError>) { lock.withLock { slots[index] = value } }

    var values: [Result<Value, EngineError>] {
        lock.withLock { slots.map { $0 ?? .failure(.library(file: "", message: "not loaded")) } }
    }
}

extension Session {
    /// A new session holding one document per imported file (`Session.opening`),
    /// each source with the page count its import found, within the process's limits.
    static func opening(imported files: [ImportedFile]) throws(PDFEditError) -> Session {
        do throws(EditError) {
            return try Session.opening(
                files.map { file in
                    var source = file.source
                    source.pageCount = file.contents.count
                    return OpenedFile(documentName: file.stem, source: source, outline: file.outline)
                }, limits: ProcessLimits.current)
        } catch {
            throw PDFEditError.edit(error)
        }
    }
}
