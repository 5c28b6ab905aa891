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
        try export(.document(output: output, selection: selection, doc: doc), settings: settings)[0]
    }

    /// `export --split DIR [SEL]`: one file per item, per K items, or per bookmark.
    package func exportSplit(
        _ request: SplitRequest, selection: PageSelection?, doc: String?, settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        try export(.split(request, selection: selection, doc: doc), settings: settings)
    }

    /// Runs an export job of the session (`PageEditor.export(_:settings:)`, the session locked throughout).
    package func export(_ job: ExportJob, settings: ExportSettings) throws(PDFEditError) -> [ExportResult] {
        try PageEditor.exporting(session: store.path, passwords: passwords, progress: settings.progress) {
            (editor) throws(PDFEditError) in try editor.export(job, settings: settings)
        }
    }

    /// The strategies `export` of document `doc` (all its items) may take
    /// besides copying (for the tests of the decision, `ExportStrategy.allowed`).
    func exportStrategies(doc: String?, settings: ExportSettings) throws(PDFEditError) -> ExportStrategies {
        try PageEditor.exporting(session: store.path, passwords: passwords, progress: nil) {
            (editor) throws(PDFEditError) in try editor.exportStrategies(doc: doc, settings: settings)
        }
    }

    /// The items a selection picks (all when nil), with their 1-based positions.
    static func items(of document: Document, selection: PageSelection?, access: SourceAccess) throws(PDFEditError)
        -> (items: [PageItem], positions: [Int])
    {
        let indices = try access.indices(of: selection, in: document)
        return (indices.map { document.items[$0] }, indices.map { $0 + 1 })
    }
}

func ensureDirectory(_ directory: String) throws(PDFEditError) {
    if Files.makeFolders(directory) != nil {
        throw PDFEditError.engine(.cannotWrite(file: directory, reason: "cannot create the directory"))
    }
}
