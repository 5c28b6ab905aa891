#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

// MARK: The command line's session exports

extension PageEditor {
    /// `pdfedit export` of a session: `body` is given an editor of the session
    /// file at `path` (see ``reading(session:passwords:_:)``) while the session
    /// stays locked, so that no other command changes it during the write.
    /// `progress` hears of the work before the writing (which reports its own):
    /// reading the session, then checking the sources and planning the pages,
    /// uncounted (a large session spends seconds there).
    package static func exporting<T>(
        session path: String?, passwords: PasswordBook, progress: ProgressHandler?,
        _ body: (PageEditor) throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        let store = SessionStore(explicitPath: path)
        return try store.withLock { () throws(PDFEditError) in
            progress?(ProgressUpdate(done: 0, total: 0, unit: "", phase: "reading the session"))
            let session = try store.load()
            progress?(ProgressUpdate(done: 0, total: 0, unit: "", phase: "preparing the pages"))
            return try body(PageEditor(loaded: session, store: store, passwords: passwords))
        }
    }

    /// Runs an export job of the session file this editor was read from (in
    /// ``exporting(session:passwords:progress:_:)``): one result per file
    /// written. Unlike ``write(to:document:pages:settings:)-3v0ab``, the
    /// session's earlier exports may be replaced without `force` while they are
    /// as they were written (`ExportsList`), and each file written joins them.
    package func export(_ job: ExportJob, settings: ExportSettings) throws(PDFEditError) -> [ExportResult] {
        switch job {
        case .document(let output, let selection, let doc):
            return try sessionWriter(doc: doc) { (writer, document) throws(PDFEditError) in
                let chosen = try Workspace.items(of: document, selection: selection, access: writer.access)
                let result = try writer.write(
                    chosen.items, document: document.name, to: output, settings: settings,
                    positions: chosen.positions.first.map { $0...(chosen.positions.last ?? $0) })
                exportsList?.remember([output])
                return [result]
            }
        case .split(let request, let selection, let doc):
            return try sessionWriter(doc: doc) { (writer, document) throws(PDFEditError) in
                let chosen = try Workspace.items(of: document, selection: selection, access: writer.access)
                let results = try writer.split(
                    chosen.items, positions: chosen.positions, document: document.name, request: request,
                    settings: settings)
                exportsList?.remember(results.map(\.output))
                return results
            }
        case .all(let directory):
            return try sessionWriter(doc: nil) { (writer, _) throws(PDFEditError) in
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
                    exportsList?.remember([output])
                }
                return results
            }
        }
    }

    /// The strategies an export of document `doc` (all its items) may take
    /// besides copying, from the request it would make (for the tests of the
    /// decision, `ExportStrategy.allowed`).
    func exportStrategies(doc: String?, settings: ExportSettings) throws(PDFEditError) -> ExportStrategies {
        try sessionWriter(doc: doc) { (writer, document) throws(PDFEditError) in
            try writer.strategies(document.items, document: document.name, settings: settings)
        }
    }

    /// An export writer of the editor's session and the chosen document, for
    /// `body`. Images are converted in the session's cache; without one to
    /// trust, in a scratch folder.
    private func sessionWriter<T>(doc: String?, _ body: (ExportWriter, Document) throws(PDFEditError) -> T)
        throws(PDFEditError) -> T
    {
        let access = access
        let document = try session.chosenDocument(doc)
        let cache = access.cacheDirectory
        let scratch = cache == nil ? try ScratchDirectory.forImages(of: session, shared: nil) : nil
        let writer = ExportWriter(
            session: session, access: access, cacheDirectory: cache ?? scratch?.path,
            replaceable: exportsList?.replaceable() ?? [], protected: protectedFiles)
        return try withExtendedLifetime(scratch) { () throws(PDFEditError) in try body(writer, document) }
    }
}
