import ArgumentParser
import Foundation
import PDFEditKit
import PageModel

struct StampPages: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "stamp",
        abstract: "Draw a page of a file over (or under) pages: watermarks, letterheads, signatures.",
        discussion: """
            Page K (default 1) of FILE — a PDF, or a JPEG/PNG image — is drawn on each
            selected page at export: centred on the page as displayed and upright for the
            reader whatever the page's rotation (also after a later rotate), at its own
            size, or with --fit as large as the page allows keeping its aspect ratio.
            --under puts it beneath the page's content (an opaque page hides it).
            Stamps pile up in order; `unstamp` removes them, `undo` takes one back.
            The output holds the stamp once, however many pages show it.

            Examples:
              pdfedit stamp all draft.pdf --opacity 0.3
              pdfedit stamp 1 letterhead.pdf --under
              pdfedit stamp last signature.png
              pdfedit stamp all logo.pdf in.pdf -o out.pdf
            """)

    @Argument(help: "The pages to stamp.")
    var selection: String

    @Argument(help: "The PDF or image to draw on them.")
    var file: String

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("The page of FILE to draw (a PDF's; default 1).", valueName: "K"))
    var page = 1

    @Flag(name: .long, help: "Draw it beneath the page's content instead of over it.")
    var under = false

    @Flag(name: .long, help: "Scale it to the page, keeping its aspect ratio (default: its own size).")
    var fit = false

    @Option(
        name: .long,
        help: ArgumentHelp("Opacity: above 0 and at most 1 (0.3), or a percentage (30%).", valueName: "F"))
    var opacity = "1"

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let selection = try parseSelection(selection)
        let opacity = try parseOpacity(opacity)
        guard page >= 1 else { throw PDFEditError.usage("--page takes a page number from 1, not \(page)") }
        guard let loaded = try building.importer.load([file]).first else {
            throw PDFEditError.usage("\(file): nothing to stamp with")
        }
        if loaded.source.kind == .image && page != 1 {
            throw PDFEditError.usage("\(file) is an image: it has only page 1")
        }
        if page > loaded.source.pageCount {
            throw PDFEditError.usage(
                "\(file) has \(loaded.source.pageCount) page\(loaded.source.pageCount == 1 ? "" : "s"): "
                    + "there is no page \(page)")
        }
        return .stamp(
            selection, Stamp(source: loaded.source.id, page: page, under: under, fit: fit, opacity: opacity),
            newSources: [loaded.source])
    }
}

struct UnstampPages: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "unstamp",
        abstract: "Remove the stamps of pages (every stamp `stamp` put on them).",
        discussion: """
            Only stamps of the session can be removed: what a PDF already shows is its content.

            Examples:
              pdfedit unstamp all
              pdfedit unstamp 2..4
            """)

    @Argument(help: "The pages whose stamps go.")
    var selection: String

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .unstamp(try parseSelection(selection))
    }
}

/// A short description of an item's stamps for `list`'s table: each stamp's file
/// name, `:K` for a page other than 1, and its options (`under`, `fit`, `30%`).
func stampMarker(_ stamps: [ListedStamp]) -> String {
    stamps.map { stamp in
        var words = [(stamp.source as NSString).lastPathComponent + (stamp.page == 1 ? "" : ":\(stamp.page)")]
        if stamp.under { words.append("under") }
        if stamp.fit { words.append("fit") }
        if stamp.opacity != 1 { words.append("\(format(stamp.opacity * 100))%") }
        return words.joined(separator: " ")
    }.joined(separator: ", ")
}

/// `0.3`, `1`, `30%`: above 0 and at most 1.
func parseOpacity(_ text: String) throws(PDFEditError) -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let value: Double?
    if trimmed.hasSuffix("%") {
        value = Double(trimmed.dropLast()).map { $0 / 100 }
    } else {
        value = Double(trimmed)
    }
    guard let value, Stamp.isValidOpacity(value) else {
        throw PDFEditError.usage("--opacity takes a number above 0 and at most 1 (or 1% to 100%), not \"\(text)\"")
    }
    return value
}
