#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

extension Workspace {
    /// `relink OLD NEW`: points the session's source OLD (its id `s2`, or its path
    /// as stored or as given) at the file NEW, as an undoable step. NEW must have
    /// the same content (size and SHA-256) unless `force`; then it must at least be
    /// of the same kind and have every page the documents use.
    package func relink(_ old: String, to new: String, force: Bool, label: String) throws(PDFEditError) -> ChangeSummary {
        try mutate { (session, access) throws(PDFEditError) in
            let importer = importer()
            let wanted = importer.storedPath(old)
            guard
                let source = session.sources.first(where: {
                    $0.id.description == old || $0.path == old || $0.path == wanted
                })
            else {
                let known = cappedList(session.sources.map { "\($0.id) \($0.path)" })
                throw PDFEditError.usage("\"\(old)\" is not a source of this session (sources: \(known))")
            }
            let file: ImportedFile
            do throws(EngineError) {
                file = try importer.load(new, provisionalNumber: 1, fit: nil)
            } catch {
                throw PDFEditError.engine(error)
            }
            let sameContent = file.source.size == source.size && file.source.sha256 == source.sha256
            if !sameContent && !force {
                // The same file changed in place, or another file: say which, never "x.pdf differs from x.pdf".
                let what =
                    file.source.path == source.path
                    ? "changed since it was imported as source \(source.id)"
                    : "its content differs from source \(source.id) (\(source.path)) as imported"
                throw PDFEditError.usage("\(new): \(what) (size or SHA-256); use --force to relink anyway")
            }
            if (file.source.kind == .image) != (source.kind == .image) {
                throw PDFEditError.usage("\(new): a \(file.source.kind.rawValue) cannot replace a \(source.kind.rawValue) source")
            }
            do throws(EditError) {
                return try session.apply(
                    .relink(
                        source: source.id, path: file.source.path, size: file.source.size,
                        sha256: file.source.sha256, pageCount: file.source.pageCount),
                    label: label, context: access.editContext)
            } catch {
                throw PDFEditError.edit(error)
            }
        }
    }
}
