import Foundation
import PDFEngine
@testable import PDFEditKit
import PageModel
import Testing

/// Every kind of `Edit`, applied to a fresh session of alpha.pdf (7 pages, no
/// bookmarks) with beta.pdf as a second document, and the strategies the
/// export of the result may take, as the kit builds the request
/// (`Workspace.exportStrategies`). `kind(of:)` and `sample(_:)` are switches
/// without default: a new edit does not compile here until it is classified,
/// and unless someone adds what it makes to an allow-list
/// (`ExportStrategy.supports`), it is copied.
@Suite(.enabled(if: ExportPaths.hasFixture("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct EditStrategyTests {
    enum Kind: CaseIterable {
        case move, copy, duplicate, remove, rotate, reverse, interleave, blank, placeholder, insertItems, fill
        case newDocument, renameDocument, closeDocument, useDocument, relink, stamp, textStamp, unstamp, labels
        case metadata, outline, crop, splitPage, pad, blankAfterEach, resize, nup, booklet, rearrange, finish, strip, attach, detach, redact
        case optimize
    }

    static func kind(of edit: Edit) -> Kind {
        switch edit {
        case .move: .move
        case .copy: .copy
        case .duplicate: .duplicate
        case .remove: .remove
        case .rotate: .rotate
        case .reverse: .reverse
        case .interleave: .interleave
        case .blank: .blank
        case .placeholder: .placeholder
        case .insertItems: .insertItems
        case .fill: .fill
        case .newDocument: .newDocument
        case .renameDocument: .renameDocument
        case .closeDocument: .closeDocument
        case .useDocument: .useDocument
        case .relink: .relink
        case .stamp: .stamp
        case .textStamp: .textStamp
        case .unstamp: .unstamp
        case .labels: .labels
        case .metadata: .metadata
        case .outline: .outline
        case .crop: .crop
        case .splitPage: .splitPage
        case .pad: .pad
        case .blankAfterEach: .blankAfterEach
        case .resize: .resize
        case .nup: .nup
        case .booklet: .booklet
        case .rearrange: .rearrange
        case .finish: .finish
        case .strip: .strip
        case .attach: .attach
        case .detach: .detach
        case .redact: .redact
        case .optimize: .optimize
        }
    }

    /// An edit the update takes: the update alone, for the rewrite in place
    /// is a way out beside it only for a file the update cannot take
    /// (repaired, encrypted: `ExportStrategy.allowed`), which alpha.pdf is not.
    static let update: ExportStrategies = [.appendedUpdate]
    static let copying: ExportStrategies = []

    static func selection(_ text: String) throws -> PageSelection { try PageSelection.parse(text) }

    /// The edits of one kind to apply to the session (alpha.pdf current, beta
    /// the other document), and the strategies exporting alpha may then take.
    static func sample(_ kind: Kind, editor: DocumentEditor) throws -> (edits: [Edit], expected: ExportStrategies) {
        let importer = editor.workspace.importer()
        let first = try selection("1")
        switch kind {
        case .move: return ([.move(first, to: .position(.fromEnd(0)))], update)
        case .copy: return ([.copy(first, to: .position(.fromEnd(0)))], update)
        case .duplicate: return ([.duplicate(first)], update)
        // Nothing taken out may stay readable in the source's bytes: rewritten, not appended.
        case .remove: return ([.remove(first)], [.inPlace])
        case .rotate: return ([.rotate(first, quarterTurns: 1)], update)
        case .reverse: return ([.reverse(try selection("all"))], update)
        case .interleave: return ([.interleave(other: "beta", reversed: false)], copying)
        case .blank: return ([.blank(at: nil, count: 1, size: nil)], copying)
        case .placeholder:
            // Exported as a blank page (--placeholders blank).
            return ([.placeholder(at: nil, count: 1, size: nil, label: nil)], copying)
        case .insertItems:
            let other = try importer.insertEdit([ExportPaths.fixture("beta.pdf")], at: nil, fit: nil, keepGoing: false)
            return ([other.edit], copying)
        case .fill:
            return (
                [.placeholder(at: nil, count: 1, size: nil, label: nil),
                 try importer.fillEdit(.fromEnd(0), file: ExportPaths.fixture("beta.pdf"), fit: nil)], copying)
        // Edits of other documents, or of none: alpha's pages as they are.
        case .newDocument: return ([.newDocument(name: "new")], update)
        case .renameDocument: return ([.renameDocument(from: "beta", to: "gamma")], update)
        case .closeDocument: return ([.closeDocument(name: "beta")], update)
        case .useDocument: return ([.useDocument(name: "beta")], update)
        case .relink:
            let source = try #require(try editor.session().sources.first { $0.path.hasSuffix("alpha.pdf") })
            return (
                [.relink(
                    source: source.id, path: source.path, size: source.size, sha256: source.sha256,
                    pageCount: source.pageCount)], update)
        case .stamp:
            return ([try importer.stampEdit(first, file: ExportPaths.fixture("stamp.pdf"), page: 1, under: false, fit: false, opacity: 1)], copying)
        case .textStamp:
            let mark = TextMark(kind: .number, format: "{n}", size: 10)
            return ([.textStamp(first, Stamp(text: mark, placement: StampPlacement()))], copying)
        case .unstamp:
            let mark = TextMark(kind: .number, format: "{n}", size: 10)
            return ([.textStamp(first, Stamp(text: mark, placement: StampPlacement())), .unstamp(first)], update)
        case .labels: return ([.labels([LabelSpec(position: .number(1), style: .lowerRoman)])], update)
        // Old values would stay readable in the source's bytes: rewritten, not appended.
        case .metadata: return ([.metadata(DocumentMetadata(title: "New title"))], [.inPlace])
        // Bookmarks are written by the update; the rewrite in place writes none.
        case .outline: return ([.outline(.add(title: "Start", at: .number(1), parent: nil), sources: [])], update)
        case .crop:
            return ([.crop(first, .margins(Margins(top: 10, right: 10, bottom: 10, left: 10)))], copying)
        case .splitPage: return ([.splitPage(first, columns: 2, rows: 1)], copying)
        case .pad: return ([.pad(multipleOf: 4, perSource: false, size: nil)], copying)
        case .blankAfterEach: return ([.blankAfterEach(first, size: nil)], copying)
        case .resize: return ([.resize(first, to: PageSize(width: 300, height: 300))], copying)
        case .nup: return ([.nup(try selection("1-2"), columns: 2, rows: 1, size: nil, order: .rows, gutter: 0)], copying)
        case .booklet: return ([.booklet(try selection("1-4"), size: nil)], copying)
        // `edit` dropping page 1 and reversing the rest: a removal, so rewritten as remove is.
        case .rearrange:
            return ([.rearrange((2...7).reversed().map { .item(ItemID(number: $0), quarterTurns: 0) })], [.inPlace])
        // What flatten and strip remove would stay readable in the source's bytes,
        // and neither fast path draws appearances: copied.
        case .finish: return ([.finish(first, .flattenForms)], copying)
        case .strip: return ([.strip(.metadata)], copying)
        // The file is written into the document by the copying path only.
        case .attach:
            return (
                [try importer.attachEdit(
                    [ExportPaths.fixture("beta.pdf")], name: nil, page: nil, description: nil, relationship: nil)],
                copying)
        // Attached and removed again: alpha's pages as they were.
        case .detach:
            return (
                [try importer.attachEdit(
                    [ExportPaths.fixture("beta.pdf")], name: nil, page: nil, description: nil, relationship: nil),
                 .detach(["beta.pdf"])], update)
        // What is redacted must not stay readable in the source's bytes: copied, never appended.
        case .redact:
            return (
                [.redact(first, .rect(x: 10, y: 10, width: 50, height: 20, units: .pt), fill: Redaction.black, label: nil)],
                copying)
        // Recompressed, linearized or resampled: the whole file written as its
        // document (alpha.pdf holds nothing that sends it to copying).
        case .optimize: return ([.optimize(OptimizeSettings())], [.wholeFile])
        }
    }

    @Test(arguments: Kind.allCases)
    func everyEditIsClassified(kind: Kind) throws {
        let scratch = try ExportScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        try editor.open([ExportPaths.fixture("alpha.pdf"), ExportPaths.fixture("beta.pdf")])
        let (edits, expected) = try Self.sample(kind, editor: editor)
        #expect(edits.last.map(Self.kind(of:)) == kind)
        for edit in edits {
            try editor.apply(edit, document: "alpha", label: "\(kind)")
        }
        let found = try editor.workspace.exportStrategies(doc: "alpha", settings: ExportSettings(placeholders: .blank))
        #expect(found == expected, "\(kind): \(edits)")
    }

    /// The file inserted into itself is its pages repeated: appended (twins),
    /// as `duplicate`.
    @Test func fileInsertedIntoItself() throws {
        let scratch = try ExportScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        let alpha = ExportPaths.fixture("alpha.pdf")
        try editor.open([alpha])
        let itself = try editor.workspace.importer().insertEdit([alpha], at: nil, fit: nil, keepGoing: false)
        try editor.apply(itself.edit, label: "insert alpha.pdf")
        #expect(try editor.workspace.exportStrategies(doc: nil, settings: ExportSettings()) == Self.update)
    }
}
