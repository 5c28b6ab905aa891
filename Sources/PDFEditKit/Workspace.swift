#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// The session-mode use cases: each loads the session under its lock, does one
/// thing, and saves (atomically) only if that thing fully succeeded.
package struct Workspace: Sendable {
    package let store: SessionStore
    /// Passwords to try on encrypted sources.
    package let passwords: PasswordBook

    /// The session at `sessionPath`; nil: `PDFEDIT_SESSION`, else `.pdfedit/session.json` here.
    package init(sessionPath: String?, passwords: PasswordBook = PasswordBook()) {
        store = SessionStore(explicitPath: sessionPath)
        self.passwords = passwords
    }

    /// The session as it is on disk, for commands that only read it.
    package func read() throws(PDFEditError) -> Session {
        try store.withLock { () throws(PDFEditError) in try store.load() }
    }

    /// `open FILE...`: a new session with one document per file.
    package func open(
        _ paths: [String], force: Bool, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> (Session, warnings: [Warning]) {
        try store.withLock(creating: true) { () throws(PDFEditError) in
            // The session never goes where one of its files is, nor over a file
            // that is not a session (`--force` only ever replaces a session); no
            // file of the session (its lock, its list of exports) is a source.
            let sessionFiles = Set(store.ownFiles.map(FileIdentity.init(of:)))
            if let file = paths.first(where: { sessionFiles.contains(FileIdentity(of: $0)) }) {
                throw PDFEditError.sessionPlace(
                    path: file, reason: "is one of the session's own files; the session must go elsewhere")
            }
            try store.checkReplaceable()
            if store.exists && !force {
                throw PDFEditError.outputExists(path: store.path)
            }
            let files = try Importer(baseDirectory: store.baseDirectory, passwords: passwords).load(
                paths, progress: progress)
            let session = try Session.opening(imported: files)
            try store.save(session)
            pruneCache(for: session)
            let warnings = zip(paths, files).flatMap { path, file in Warning.damage(of: path, messages: file.warnings) }
            return (session, warnings)
        }
    }

    /// Applies one edit as one undo step.
    package func apply(_ edit: Edit, doc: String?, label: String) throws(PDFEditError) -> ChangeSummary {
        try mutate { (session, access) throws(PDFEditError) in
            try access.apply([(edit, doc)], to: &session, label: label)[0]
        }
    }

    /// Applies several edits as one all-or-nothing undo step (`run SCRIPT`).
    package func applyAll(_ edits: [(edit: Edit, doc: String?)], label: String) throws(PDFEditError) -> [ChangeSummary] {
        try mutate { (session, access) throws(PDFEditError) in
            try access.apply(edits, to: &session, label: label, batch: true)
        }
    }

    /// `undo [N]`: takes back the last `steps` steps; returns their labels, newest first.
    package func undo(_ steps: Int) throws(PDFEditError) -> [String] {
        try mutate { (session, _) throws(PDFEditError) in
            do throws(EditError) { return try session.undo(steps) } catch { throw PDFEditError.edit(error) }
        }
    }

    /// `redo [N]`: replays `steps` undone steps; returns their labels, oldest first.
    package func redo(_ steps: Int) throws(PDFEditError) -> [String] {
        try mutate { (session, _) throws(PDFEditError) in
            do throws(EditError) { return try session.redo(steps) } catch { throw PDFEditError.edit(error) }
        }
    }

    /// Files given on the command line, loaded into sources relative to this session.
    package func importer() -> Importer {
        var importer = Importer(baseDirectory: store.baseDirectory, passwords: passwords)
        importer.attachmentStore = store.attachmentsFolder
        return importer
    }

    /// Load, change, save — under the lock, and only when `body` succeeds.
    func mutate<T>(_ body: (inout Session, SourceAccess) throws(PDFEditError) -> T) throws(PDFEditError) -> T {
        try store.withLock { () throws(PDFEditError) in
            var session = try store.load()
            let access = SourceAccess(
                session: session, baseDirectory: store.baseDirectory, passwords: passwords,
                cacheDirectory: store.cacheDirectory)
            let sourcesBefore = Set(session.sources.map(\.sha256))
            let result: T
            do throws(PDFEditError) {
                result = try access.surfacingLookupFailure { () throws(PDFEditError) in try body(&session, access) }
            } catch {
                // Damage in the file, found when undo or redo replays it: an unusable input (65).
                if case .edit(.historyCorrupt(let reason)) = error {
                    throw PDFEditError.sessionCorrupt(path: store.path, reason: "its history is inconsistent (\(reason))")
                }
                throw error
            }
            try store.save(session)
            let sourcesAfter = Set(session.sources.map(\.sha256))
            if !sourcesBefore.isSubset(of: sourcesAfter) { pruneCache(for: session) }
            return result
        }
    }

    /// Removes cached entries of sources the session no longer holds (`CacheFolder`).
    private func pruneCache(for session: Session) {
        guard let cache = store.cacheDirectory else { return }
        CacheFolder.prune(cache, keeping: Set(session.sources.map(\.sha256)))
    }

    // MARK: Export

    /// `export OUT [SEL]`: one multi-page PDF of a document (or of the selected items).
    package func export(
        to output: String, selection: PageSelection?, doc: String?, settings: ExportSettings
    ) throws(PDFEditError) -> ExportResult {
        try exporting(doc: doc, progress: settings.progress) { (writer, document) throws(PDFEditError) in
            let chosen = try Self.items(of: document, selection: selection, access: writer.access)
            let result = try writer.write(
                chosen.items, document: document.name, to: output, settings: settings,
                positions: chosen.positions.first.map { $0...(chosen.positions.last ?? $0) })
            rememberExport(output)
            return result
        }
    }

    /// `export --split DIR [SEL]`: one file per item, per K items, or per bookmark.
    package func exportSplit(
        _ request: SplitRequest, selection: PageSelection?, doc: String?, settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        try exporting(doc: doc, progress: settings.progress) { (writer, document) throws(PDFEditError) in
            let chosen = try Self.items(of: document, selection: selection, access: writer.access)
            let results = try writer.split(
                chosen.items, positions: chosen.positions, document: document.name, request: request,
                settings: settings)
            rememberExports(results.map(\.output))
            return results
        }
    }

    /// `export --all DIR`: every document, one file each, named after the document.
    package func exportAll(to directory: String, settings: ExportSettings) throws(PDFEditError) -> [ExportResult] {
        try exporting(doc: nil, progress: settings.progress) { (writer, _) throws(PDFEditError) in
            try ensureDirectory(directory)
            let documents = writer.session.documents.filter { !$0.items.isEmpty }
            let targets = documents.map { ($0, Paths.join(directory, $0.name + ".pdf")) }
            // Check every target first, so that a clash is found before anything is written.
            for (_, output) in targets { try writer.checkOutput(output, settings: settings) }
            var results: [ExportResult] = []
            for (document, output) in targets {
                results.append(
                    try writer.write(
                        document.items, document: document.name, to: output, settings: settings,
                        positions: 1...document.items.count))
                rememberExport(output)
            }
            return results
        }
    }

    /// The strategies `export` of document `doc` (all its items) may take
    /// besides copying, from the request it would make (for the tests of the
    /// decision, `ExportStrategy.allowed`).
    func exportStrategies(doc: String?, settings: ExportSettings) throws(PDFEditError) -> ExportStrategies {
        try exporting(doc: doc, progress: nil) { (writer, document) throws(PDFEditError) in
            try writer.strategies(document.items, document: document.name, settings: settings)
        }
    }

    /// Loads the session under its lock and hands an export writer and the chosen
    /// document to `body`. `progress` hears of the work before the writing (which
    /// reports its own): reading the session, then checking the sources and
    /// planning the pages, uncounted (a large session spends seconds there).
    private func exporting<T>(
        doc: String?, progress: ProgressHandler?, _ body: (ExportWriter, Document) throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        try store.withLock { () throws(PDFEditError) in
            progress?(ProgressUpdate(done: 0, total: 0, unit: "", phase: "reading the session"))
            let session = try store.load()
            progress?(ProgressUpdate(done: 0, total: 0, unit: "", phase: "preparing the pages"))
            let access = SourceAccess(
                session: session, baseDirectory: store.baseDirectory, passwords: passwords,
                cacheDirectory: store.cacheDirectory)
            let document = try session.chosenDocument(doc)
            // Images are converted in the cache; without one to trust, in a scratch folder.
            let cache = access.cacheDirectory
            let scratch = cache == nil ? try ScratchDirectory.forImages(of: session, shared: nil) : nil
            let writer = ExportWriter(
                session: session, access: access, cacheDirectory: cache ?? scratch?.path,
                replaceable: previousExports(), protected: store.ownFiles)
            return try withExtendedLifetime(scratch) { () throws(PDFEditError) in try body(writer, document) }
        }
    }

    /// The items a selection picks (all when nil), with their 1-based positions.
    static func items(of document: Document, selection: PageSelection?, access: SourceAccess) throws(PDFEditError)
        -> (items: [PageItem], positions: [Int])
    {
        let indices = try access.indices(of: selection, in: document)
        return (indices.map { document.items[$0] }, indices.map { $0 + 1 })
    }

    /// The session's own previous exports, which may be replaced without `--force`
    /// while they are as they were written (`ExportsList`).
    private var exportsList: ExportsList { ExportsList(path: store.exportsListPath) }

    private func previousExports() -> Set<WrittenFile> { exportsList.replaceable() }

    private func rememberExport(_ output: String) {
        rememberExports([output])
    }

    private func rememberExports(_ outputs: [String]) { exportsList.remember(outputs) }
}

func ensureDirectory(_ directory: String) throws(PDFEditError) {
    if Files.makeFolders(directory) != nil {
        throw PDFEditError.engine(.cannotWrite(file: directory, reason: "cannot create the directory"))
    }
}
