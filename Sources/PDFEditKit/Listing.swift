#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// One row of `pdfedit list`. The JSON shape is documented in docs/manual.md.
package struct ListedItem: Codable, Equatable, Sendable {
    /// 1-based position in the document.
    package var position: Int
    /// The item's stable id, `p12`.
    package var id: String
    /// page, blank, image or placeholder.
    package var kind: String
    /// The source file as stored in the session (nil for blanks and placeholders).
    package var source: String?
    /// 1-based page in the source.
    package var sourcePage: Int?
    /// The size a reader will show after export, in points (all rotation applied).
    package var width: Double?
    /// Height as a reader shows it, in points.
    package var height: Double?
    /// The item's own rotation in degrees, added to the page's /Rotate (0, 90, 180, 270).
    package var rotation: Int
    /// A placeholder's label.
    package var placeholderLabel: String?
    /// The page label export writes: from the document's own ranges (`labels`)
    /// when it has them, else the source's /PageLabels (nil when it has none).
    package var label: String?
    /// The first words of the page's text (nil for blanks, placeholders, images,
    /// pages without text, and with `--no-text`).
    package var text: String?
    /// Pages drawn onto this one at export, in drawing order (nil when none).
    package var stamps: [ListedStamp]?
    /// A sheet's cells (`nup`, `booklet`) in layout order: the id of the item
    /// each holds, nil for an empty cell (nil for items that are not sheets).
    package var cells: [String?]?
    /// What `flatten` and `strip` do to the page at export, in order
    /// (`flatten forms`, `strip links`…; nil when nothing).
    package var finish: [String]?
}

/// Everything `list` reports about a document.
package struct Listing: Codable, Equatable, Sendable {
    /// The document's name.
    package var document: String
    /// Items in the whole document (not only the listed ones).
    package var pageCount: Int
    /// The listed items, in document order.
    package var items: [ListedItem]
}

extension Workspace {
    /// The items of a document (or the selected ones), described. Page texts come
    /// from the session's text cache (pages not cached yet are extracted on every
    /// core and cached); `includeText: false` skips them.
    package func list(
        doc: String?, selection: PageSelection?, includeText: Bool = true, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> Listing {
        let session = try read()
        let document = try session.chosenDocument(doc)
        let name = document.name
        let access = SourceAccess(
            session: session, baseDirectory: store.baseDirectory, passwords: passwords,
            cacheDirectory: store.cacheDirectory)
        let indices = try access.indices(of: selection, in: document)
        let labels = OutputLabels(document: document, access: access)
        if includeText {
            access.prefetchTexts(of: indices.map { document.items[$0] }, progress: progress)
        }
        let stampTexts = document.stampTexts { labels.label(of: document.items[$0]) }
        // Sizes and labels come through lookups that keep their failure (a changed source) for here.
        let items = try access.surfacingLookupFailure { () throws(PDFEditError) in
            try listedItems(indices)
        }
        access.saveCaches()
        return Listing(document: name, pageCount: document.items.count, items: items)

        func listedItems(_ indices: [Int]) throws(PDFEditError) -> [ListedItem] {
            try indices.map { (index) throws(PDFEditError) -> ListedItem in
                let item = document.items[index]
                var listed = ListedItem(
                    position: index + 1, id: item.id.description, kind: item.content.kindName,
                    rotation: item.rotation * 90)
                switch item.content {
                case .page(let source, let page):
                    listed.source = session.source(source)?.path
                    listed.sourcePage = page
                case .image(let source, _):
                    listed.source = session.source(source)?.path
                case .placeholder(_, let label):
                    listed.placeholderLabel = label
                case .blank:
                    break
                case .sheet(let sheet):
                    listed.cells = sheet.cells.map { $0.item?.id.description }
                }
                if let size = access.shownSize(of: item) {
                    let turned = item.rotation % 2 == 1
                    listed.width = rounded(turned ? size.height : size.width)
                    listed.height = rounded(turned ? size.width : size.height)
                }
                listed.label = labels.label(of: item)
                listed.stamps = ListedStamp.list(item.stamps, texts: stampTexts[index] ?? [], session: session)
                listed.finish = item.finish.isEmpty ? nil : item.finish.map(\.description)
                if includeText {
                    listed.text = try access.textOrWarning(of: item).map { firstWords($0) }.flatMap {
                        $0.isEmpty ? nil : $0
                    }
                }
                return listed
            }
        }
    }
}

/// What `status` reports.
package struct SessionStatus: Codable, Equatable, Sendable {
    /// One source file of the session.
    package struct SourceState: Codable, Equatable, Sendable {
        /// The source's id, `s1`.
        package var id: String
        /// As stored in the session (relative to its folder when below it).
        package var path: String
        /// ok, changed or missing.
        package var state: String
    }
    /// The session file.
    package var session: String
    /// The current document's name.
    package var current: String
    /// Number of documents.
    package var documents: Int
    /// Steps `undo` can take back, and `redo` can replay.
    package var undoSteps: Int
    /// Undone steps `redo` can replay.
    package var redoSteps: Int
    /// Every source, with whether it is still the imported file.
    package var sources: [SourceState]
    /// The parts `strip` leaves out of the current document's exports
    /// (`javascript`, `attachments`, `metadata`, `structure`; nil when none).
    package var stripped: [String]?
    /// How the current document's exports are written (`optimize`; nil when as each export asks).
    package var optimize: OptimizeSettings?
}

extension Workspace {
    /// `status`: the session's documents, history depths and the state of each source (each is hashed).
    package func status() throws(PDFEditError) -> SessionStatus {
        let session = try read()
        let access = SourceAccess(
            session: session, baseDirectory: store.baseDirectory, passwords: passwords, cacheDirectory: store.cacheDirectory)
        let sources = session.sources.map { source -> SessionStatus.SourceState in
            let state: String
            do throws(PDFEditError) {
                try access.verify([source.id])
                state = "ok"
            } catch {
                if case .sourceChanged(_, let reason) = error, reason.hasPrefix("missing") {
                    state = "missing"
                } else {
                    state = "changed"
                }
            }
            return SessionStatus.SourceState(id: source.id.description, path: source.path, state: state)
        }
        return SessionStatus(
            session: store.path, current: session.current, documents: session.documents.count,
            undoSteps: session.history.undoableCount, redoSteps: session.history.redoableCount, sources: sources,
            stripped: session.document(named: session.current).flatMap { $0.stripped.isEmpty ? nil : $0.stripped.map(\.rawValue) },
            optimize: session.document(named: session.current)?.optimize)
    }
}
