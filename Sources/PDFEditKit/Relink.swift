#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

extension PageEditor {
    /// Points the source `source` (its id, `s2`, or its path) at the file at
    /// `url`, a source that moved, as one undo step: what `pdfedit relink OLD
    /// NEW` does. The file must have the same content (size and SHA-256) unless
    /// `force`; then it must at least be of the same kind and have every page
    /// the documents use. (A new version that gained or lost pages:
    /// ``rebase(_:onto:)``.)
    ///
    /// - Throws: ``PDFEditError``: `source` names no source, or the file's
    ///   content differs without `force` (`.usage`); it cannot be read (`.engine`).
    @discardableResult
    public mutating func relink(_ source: String, to url: URL, force: Bool = false) throws(PDFEditError)
        -> ChangeSummary
    {
        try relink(source, toPath: url.path, force: force, label: "relink \(source) \(url.path)")
    }

    /// ``relink(_:to:force:)`` with the path as the command line gives it, and its label.
    package mutating func relink(_ old: String, toPath new: String, force: Bool, label: String)
        throws(PDFEditError) -> ChangeSummary
    {
        let access = access
        let importer = importer
        var session = session
        let summary = try access.surfacingLookupFailure { () throws(PDFEditError) -> ChangeSummary in
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
        self.session = session
        return summary
    }
}
