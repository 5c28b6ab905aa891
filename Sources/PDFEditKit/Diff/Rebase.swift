#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// What `relink --rebase` reports: the step, and what it could not map.
package struct RebaseReport: Codable, Sendable {
    package var summary: ChangeSummary
    /// How the old version's pages were known: `file` (still on disk) or `cache` (its cached page facts).
    package var oldPagesFrom: String
    /// Old page → new page, for every old page found in the new version.
    package var pages: [String: Int]
    /// Items now placeholders: their page is not in the new version.
    package var unmapped: [Unmapped]
    /// Stamps removed: their page is not in the new version.
    package var removedStamps: [Unmapped]

    /// The new version's file, as given.
    package var file: String

    /// One warning per item and stamp it could not map, naming the new file.
    package var warnings: [Warning] {
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

    package struct Unmapped: Codable, Sendable {
        package var document: String
        package var position: Int
        package var id: String
        package var page: Int
    }
}

extension Workspace {
    /// `relink --rebase OLD [NEW]`: source OLD (its id, or its path; with NEW
    /// omitted, OLD is also the new version's file: the source regenerated in
    /// place) is replaced by NEW, a new version that gained or lost pages.
    /// Its pages are paired with the new version's by content, as `diff` pairs
    /// pages (`PageMatching`): from the old file when it is still on disk and
    /// unchanged, else from what the session's cache learnt of its pages
    /// (fingerprints and texts of every page a command read). Items of pages
    /// found are renumbered, keeping their ids; items of pages not found
    /// become placeholders saying what they were (see `Session.rebase`).
    package func rebase(_ old: String, to new: String?, label: String) throws(PDFEditError) -> RebaseReport {
        try mutate { (session, access) throws(PDFEditError) in
            let importer = importer()
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
            let newAccess = SourceAccess(session: newSession, baseDirectory: store.baseDirectory, passwords: passwords)
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
