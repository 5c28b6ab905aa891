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
    /// (`flatten forms`, `strip links`…; nil when nothing); pending redactions
    /// counted as one entry (`redact 3 regions`).
    package var finish: [String]?
    /// The regions `redact` takes out of the page at export (nil when none).
    package var redactions: [ListedRedaction]?
}

/// One pending redaction of a page, as `redact --list` and `list --json` show
/// it: the region on the page as displayed (`x`, `y` from its lower-left
/// corner, `width`, `height`, points), its fill, label and covered text.
package struct ListedRedaction: Codable, Equatable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double
    package var fill: String
    package var label: String?
    package var text: String?
}

/// Everything `list` reports about a document.
package struct Listing: Codable, Equatable, Sendable {
    /// The document's name.
    package var document: String
    /// Items in the whole document (not only the listed ones).
    package var pageCount: Int
    /// The listed items, in document order.
    package var items: [ListedItem]
    /// The sources of the listed items that carry digital signatures, in order
    /// of first use (empty when none does).
    package var signatures: [SourceSignatures] = []
}

extension Workspace {
    /// `list`: as `PageEditor.list` of an editor of the session file.
    package func list(
        doc: String?, selection: PageSelection?, includeText: Bool = true, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> Listing {
        try PageEditor(loaded: try read(), store: store, passwords: passwords).list(
            doc: doc, selection: selection, includeText: includeText, progress: progress)
    }
}

extension PageEditor {
    /// The items of a document (or the selected ones), described. Page texts come
    /// from the session's text cache (pages not cached yet are extracted on every
    /// core and cached); `includeText: false` skips them.
    package func list(
        doc: String?, selection: PageSelection?, includeText: Bool = true, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> Listing {
        let session = session
        let document = try session.chosenDocument(doc)
        let name = document.name
        let access = access
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
        let signed = try access.surfacingLookupFailure { () throws(PDFEditError) in
            access.signedSources(indices.flatMap { document.items[$0].content.sources })
        }
        access.saveCaches()
        return Listing(document: name, pageCount: document.items.count, items: items, signatures: signed)

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
                listed.finish = Workspace.finishSummary(item.finish)
                if item.finish.contains(where: { if case .redact = $0 { true } else { false } }) {
                    listed.redactions = Workspace.redactions(of: item, frame: access.frame(of: item))
                }
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

/// An editor's state (``PageEditor/status()``, `pdfedit status`): its documents,
/// how far undo and redo go, and whether each source is still the file that
/// was read. The JSON shape (`status --json`) is documented in docs/manual.md.
public struct SessionStatus: Codable, Equatable, Sendable {
    /// One source file of the editor.
    public struct SourceState: Codable, Equatable, Sendable {
        /// Whether a source file is still what was read.
        public enum State: String, Codable, Equatable, Sendable {
            /// The file is there, with the content that was read.
            case ok
            /// The file is there with other content (`pdfedit relink --force` or `--rebase` takes it).
            case changed
            /// The file is gone (`pdfedit relink` points at where it went).
            case missing
        }
        /// The source's id, `s1`.
        public var id: String
        /// As stored (relative to the session's folder, or to the editor's, when below it).
        public var path: String
        /// Whether the file is as it was read.
        public var state: State
    }
    /// The session file; nil for an editor in memory.
    public var session: String?
    /// The current document's name.
    public var current: String
    /// Number of documents.
    public var documents: Int
    /// Steps ``PageEditor/undo(_:)`` can take back.
    public var undoSteps: Int
    /// Undone steps ``PageEditor/redo(_:)`` can replay.
    public var redoSteps: Int
    /// Every source, with whether it is still the file that was read.
    public var sources: [SourceState]
    /// The parts `strip` leaves out of the current document's exports
    /// (`javascript`, `attachments`, `metadata`, `structure`; nil when none).
    public var stripped: [String]?
    /// How the current document's exports are written (`optimize`; nil when as each export asks).
    public var optimize: OptimizeSettings?
}

extension PageEditor {
    /// The editor's documents, undo and redo depths, and the state of each
    /// source file (each is read and hashed): what `pdfedit status` reports.
    public func status() -> SessionStatus {
        let access = access
        let sources = session.sources.map { source -> SessionStatus.SourceState in
            let state: SessionStatus.SourceState.State
            do throws(PDFEditError) {
                try access.verify([source.id])
                state = .ok
            } catch {
                if case .sourceChanged(_, let reason) = error, reason.hasPrefix("missing") {
                    state = .missing
                } else {
                    state = .changed
                }
            }
            return SessionStatus.SourceState(id: source.id.description, path: source.path, state: state)
        }
        let current = session.document(named: session.current)
        return SessionStatus(
            session: sessionFile, current: session.current, documents: session.documents.count,
            undoSteps: session.history.undoableCount, redoSteps: session.history.redoableCount, sources: sources,
            stripped: current.flatMap { $0.stripped.isEmpty ? nil : $0.stripped.map(\.rawValue) },
            optimize: current?.optimize)
    }
}

extension Workspace {
    /// `status`: as ``PageEditor/status()`` of an editor of the session file.
    package func status() throws(PDFEditError) -> SessionStatus {
        PageEditor(loaded: try read(), store: store, passwords: passwords).status()
    }
}

extension Workspace {
    /// The finishing steps as `list` shows them: each step, with the pending
    /// redactions counted in one entry where the first of them is.
    static func finishSummary(_ steps: [PageFinish]) -> [String]? {
        let regions = steps.filter { if case .redact = $0 { true } else { false } }.count
        var shown: [String] = []
        var counted = false
        for step in steps {
            guard case .redact = step else {
                shown.append(step.description)
                continue
            }
            if !counted {
                shown.append("redact \(regions) region\(regions == 1 ? "" : "s")")
                counted = true
            }
        }
        return shown.isEmpty ? nil : shown
    }

    /// An item's pending redactions on its page as displayed (nil when none).
    static func redactions(of item: PageItem, frame: PageFrame?) -> [ListedRedaction]? {
        let regions = item.finish.compactMap { if case .redact(let region) = $0 { region } else { nil } }
        guard !regions.isEmpty else { return nil }
        let visible = item.boxes.crop ?? frame?.visibleBox
        let turns = (frame?.quarterTurns ?? 0) + item.rotation
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        return regions.map { region in
            let shown = visible.map { region.rect.toDisplayed(visible: $0, quarterTurns: turns) } ?? region.rect
            let (red, green, blue) = region.fill.rgb
            let hex = [red, green, blue].map { value -> String in
                let byte = Int((value * 255).rounded())
                return (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined()
            return ListedRedaction(
                x: rounded(shown.x0), y: rounded(shown.y0), width: rounded(shown.width), height: rounded(shown.height),
                fill: "#" + hex, label: region.label, text: region.text)
        }
    }
}
