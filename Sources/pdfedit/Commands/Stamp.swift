import ArgumentParser
import PDFEditKit
import PageModel

struct StampPages: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "stamp",
        abstract: "Draw a page of a file over (or under) pages: watermarks, letterheads, signatures.",
        discussion: """
            Page K (default 1) of FILE — a PDF, or a JPEG/PNG image — is drawn on each
            selected page at export: upright for the reader whatever the page's rotation
            (also after a later rotate), centred on the page as displayed or, with
            --position, flush with an edge or corner, then moved by --offset; at its own
            size (scaled down when larger than the page), or with --fit as large as the
            page allows keeping its aspect ratio.
            --under puts it beneath the page's content (an opaque page hides it).
            Stamps pile up in order; `unstamp` removes them, `undo` takes one back.
            The output holds the stamp once, however many pages show it.
            --each draws page K of FILE on the first selected page, K+1 on the second…
            (a letterhead or an overlay per page, as pdftk's multistamp); past FILE's
            last page the rest are left alone, or get its last page (--repeat-last), or
            FILE starts again (--cycle).

            Examples:
              pdfedit stamp all draft.pdf --opacity 0.3
              pdfedit stamp 1 letterhead.pdf --under
              pdfedit stamp last signature.png --position bottom-right --offset -36,36
              pdfedit stamp 1 logo.png --position top-left --offset 10mm,-10mm
              pdfedit stamp all logo.pdf in.pdf -o out.pdf
              pdfedit stamp all overlay.pdf --each --repeat-last
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

    @Flag(name: .long, help: "Page K of FILE on the first selected page, K+1 on the second, and so on.")
    var each = false

    @Flag(name: .customLong("repeat-last"), help: "With --each: pages past FILE's last page get its last page.")
    var repeatLast = false

    @Flag(name: .long, help: "With --each: FILE starts again at page K after its last page.")
    var cycle = false

    @Option(name: .long, help: positionHelp)
    var position: StampPosition = .center

    // `.unconditional` so that `--offset -10,5` is read as a value.
    @Option(name: .long, parsing: .unconditional, help: offsetHelp)
    var offset: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let selection = try selecting.parse(selection)
        let opacity = try parseOpacity(opacity)
        let placement = try parsePlacement(position: position, offset: offset)
        if (repeatLast || cycle) && !each { throw PDFEditError.usage("--repeat-last and --cycle go with --each") }
        if repeatLast && cycle { throw PDFEditError.usage("give --repeat-last or --cycle, not both") }
        let sequence: StampEach? = each ? (repeatLast ? .repeatLast : cycle ? .cycle : .stop) : nil
        return try building.importer.stampEdit(
            selection, file: file, page: page, under: under, fit: fit, opacity: opacity, placement: placement,
            each: sequence)
    }
}
