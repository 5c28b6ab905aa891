#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// What ``PageEditor/rebase(_:onto:)`` (`pdfedit relink --rebase`) did: the
/// step, how the old version's pages were paired with the new version's, and
/// what it could not map. Its JSON shape (`relink --rebase --json`) is
/// documented in docs/manual.md.
public struct RebaseReport: Codable, Sendable {
    /// What changed, as every edit reports it.
    public var summary: ChangeSummary
    /// How the old version's pages were known: `file` (still on disk) or `cache` (its cached page facts).
    public var oldPagesFrom: String
    /// Old page → new page (the old page's number as text), for every old page found in the new version.
    public var pages: [String: Int]
    /// Items now placeholders: their page is not in the new version.
    public var unmapped: [Unmapped]
    /// Stamps removed: their page is not in the new version.
    public var removedStamps: [Unmapped]

    /// The new version's file, as given.
    public var file: String

    /// One warning per item and stamp it could not map, naming the new file.
    public var warnings: [Warning] {
        unmapped.map {
            .exportNotice(
                file: file,
                message: "page \($0.page) of the old version is not in it: \($0.document) position \($0.position) "
                    + "(@\($0.id)) is now a placeholder")
        }
            + removedStamps.map {
                .exportNotice(
                    file: file,
                    message: "page \($0.page) of the old version is not in it: the stamp of that page on "
                        + "\($0.document) position \($0.position) (@\($0.id)) is removed")
            }
    }

    /// An item, or a stamp on one, whose page is not in the new version.
    public struct Unmapped: Codable, Sendable {
        /// The document holding it.
        public var document: String
        /// Its 1-based position there.
        public var position: Int
        /// The item's id (`p3`).
        public var id: String
        /// The old version's page it showed.
        public var page: Int
    }
}

extension PageEditor {
    /// Maps the editor onto a new version of one of its PDF sources that gained
    /// or lost pages, as one undo step: what `pdfedit relink --rebase` does.
    ///
    /// `source` is the source's id (`s1`) or its path; `newVersion` the new
    /// version's file (nil: the source's own file, regenerated in place). The
    /// pages of the two versions are paired by content, as
    /// ``diff(_:_:passwords:)`` pairs them: from the old file when it is still
    /// there unchanged, else from what the editor's session cache learnt of its
    /// pages. Every item of a page found keeps its id and shows that page in the
    /// new version; an item whose page is not in the new version becomes a
    /// placeholder saying what it was, and a stamp of such a page is removed —
    /// each listed in the report.
    ///
    /// - Throws: ``PDFEditError``: `source` names no PDF source, or the new
    ///   version is not a PDF (`.usage`); it cannot be read (`.engine`).
    @discardableResult
    public mutating func rebase(_ source: String, onto newVersion: URL? = nil) throws(PDFEditError) -> RebaseReport {
        try rebase(source, ontoPath: newVersion?.path, label: "rebase \(source)" + (newVersion.map { " \($0.path)" } ?? ""))
    }

    /// ``rebase(_:onto:)`` with paths as the command line gives them, and its label.
    package mutating func rebase(_ old: String, ontoPath new: String?, label: String) throws(PDFEditError)
        -> RebaseReport
    {
        let access = access
        let importer = importer
        let passwords = passwords
        var working = session
        let report = try access.surfacingLookupFailure { () throws(PDFEditError) -> RebaseReport in
            try Self.rebase(old, to: new, label: label, session: &working, access: access, importer: importer,
                            passwords: passwords)
        }
        session = working
        return report
    }

    /// Source `old` (its id, or its path; with `new` nil, `old` is also the new
    /// version's file: the source regenerated in place) is replaced by `new`,
    /// a new version that gained or lost pages. Its pages are paired with the
    /// new version's by content, as `diff` pairs pages (`PageMatching`): from
    /// the old file when it is still on disk and unchanged, else from what the
    /// session's cache learnt of its pages (fingerprints and texts of every page
    /// a command read). Items of pages found are renumbered, keeping their ids;
    /// items of pages not found become placeholders saying what they were (see
    /// `Session.rebase`).
    private static func rebase(
        _ old: String, to new: String?, label: String, session: inout Session, access: SourceAccess,
        importer: Importer, passwords: PasswordBook
    ) throws(PDFEditError) -> RebaseReport {
        do {
            let newPath = new ?? old
            let wanted = importer.storedPath(old)
            let candidates = session.sources.filter {
                $0.id.description == old || $0.path == old || $0.path == wanted
            }
            let pdfSources = session.sources.filter { $0.kind == .pdf }
            guard let source = candidates.first ?? (new == nil && pdfSources.count == 1 ? pdfSources.first : nil),
                source.kind == .pdf
            else {
                let known = cappedList(session.sources.map { "\($0.id) \($0.path)" })
                throw PDFEditError.usage("\"\(old)\" is not a PDF source of this session (sources: \(known))")
            }
            let files = try importer.load([newPath])
            guard let file = files.first, file.source.kind == .pdf else {
                throw PDFEditError.usage("\(newPath): a new version of \(source.id) must be a PDF")
            }
            let newSession = try Session.opening(imported: files)
            let newAccess = SourceAccess(session: newSession, baseDirectory: importer.baseDirectory, passwords: passwords)
            let newItems = newSession.documents[0].items
            let newSide = DiffSide(
                name: newPath, items: newItems, labels: nil, access: newAccess,
                imagePDF: { (_, _) throws(PDFEditError) in throw PDFEditError.usage("no images in a PDF") },
                stampTexts: [:])
            let oldItems = (1...max(1, source.pageCount)).map {
                PageItem(id: ItemID(number: $0), content: .page(source: source.id, page: $0))
            }
            let matching: PageMatching
            let from: String
            if SourceChecks.shared.result(path: access.absolutePath(source.path), source: source) == nil {
                let oldSide = DiffSide(
                    name: source.path, items: oldItems, labels: nil, access: access,
                    imagePDF: { (_, _) throws(PDFEditError) in throw PDFEditError.usage("no images in a PDF") },
                    stampTexts: [:])
                matching = try DocumentDiff.compare(oldSide, newSide).1
                from = "file"
            } else {
                // The old version is gone: what the cache knows of its pages.
                let record = access.pageFacts.record(source.sha256)
                let oldSignatures = oldItems.enumerated().map { index, item in
                    let page = String(index + 1)
                    let digest = record.fingerprints?[page]
                    return PageSignature(
                        exact: digest.flatMap { DocumentDiff.exactKey(of: item, access: access, digest: $0) },
                        quarterTurns: 0, words: PageSignature.words(of: record.texts[page] ?? ""))
                }
                guard oldSignatures.contains(where: { $0.exact != nil || !$0.words.isEmpty }) else {
                    throw PDFEditError.usage(
                        "\(source.path): the version \(source.id) was imported from is gone and none of its pages was "
                            + "read by this session; give the old file too: relink --rebase OLD-FILE NEW-FILE")
                }
                var newSignatures = try DocumentDiff.signatures(of: newSide)
                let texts = try DocumentDiff.texts(of: newSide, indices: Array(newItems.indices))
                for index in newSignatures.indices {
                    newSignatures[index].quarterTurns = 0
                    newSignatures[index].words = PageSignature.words(of: texts[index] ?? "")
                }
                matching = PageMatching.match(left: oldSignatures, right: newSignatures)
                from = "cache"
            }
            var pages: [Int: Int] = [:]
            for pair in matching.pairs { pages[pair.left + 1] = pair.right + 1 }
            var sizes: [Int: PageSize] = [:]
            let record = access.pageFacts.record(source.sha256)
            for (page, size) in record.sizes ?? [:] where size.count == 2 {
                if let number = Int(page) { sizes[number] = PageSize(width: size[0], height: size[1]) }
            }
            if from == "file" {
                for item in oldItems where pages[item.id.number] == nil && sizes[item.id.number] == nil {
                    if let size = access.displayedSize(of: item) { sizes[item.id.number] = size }
                }
            }
            let outcome: RebaseOutcome
            do throws(EditError) {
                outcome = try session.rebase(
                    source.id, path: file.source.path, size: file.source.size, sha256: file.source.sha256,
                    pageCount: file.source.pageCount, pages: pages, sizes: sizes, label: label)
            } catch {
                throw PDFEditError.edit(error)
            }
            func listed(_ entries: [(document: String, position: Int, id: ItemID, page: Int)]) -> [RebaseReport.Unmapped] {
                entries.map { .init(document: $0.document, position: $0.position, id: $0.id.description, page: $0.page) }
            }
            return RebaseReport(
                summary: outcome.summary, oldPagesFrom: from,
                pages: Dictionary(uniqueKeysWithValues: pages.map { (String($0.key), $0.value) }),
                unmapped: listed(outcome.unmapped), removedStamps: listed(outcome.droppedStamps), file: newPath)
        }
    }
}
