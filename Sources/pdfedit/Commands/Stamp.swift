import ArgumentParser
import PDFEditKit

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

    @Argument(help: .directModeFile)
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
        return try building.importer.stampEdit(
            selection, file: file, page: page, under: under, fit: fit, opacity: opacity)
    }
}
