import ArgumentParser
import PDFEditKit
import PageModel

struct Watermark: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "watermark",
        abstract: "Draw a text mark (\"DRAFT\", \"CONFIDENTIAL\") across pages, as a stamp.",
        discussion: """
            TEXT is drawn on each selected page at export (in a standard font when
            Windows-1252 can say it, else in a real font, embedded), turned
            --angle degrees counter-clockwise, centred on the page as displayed (or at
            --position), upright for the reader whatever the page's rotation, scaled down
            when larger than the page, see-through by --opacity; --under puts it beneath
            the page's content. Text extraction finds the words whole (the slanted text
            carries them as /ActualText). TEXT takes {n}, {total}, {label}, {doc},
            {file}, {pages} and {date} as `number` does. `unstamp` removes it, `undo` takes it back.

            Examples:
              pdfedit watermark all --text DRAFT
              pdfedit watermark all --text CONFIDENTIAL --size 48 --angle 30 --opacity 20%
              pdfedit watermark 1 --text "COPY" --angle 0 --position top --under
              pdfedit watermark all --text "ΠΡΟΣΧΕΔΙΟ"
              pdfedit watermark all --text DRAFT report.pdf -o draft.pdf
            """)

    @Argument(help: "The pages to mark.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("The text to draw.", valueName: "TEXT"))
    var text: String

    @Option(name: .long, help: textSizeHelp)
    var size = "72"

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Degrees counter-clockwise.", valueName: "DEG"))
    var angle = 45.0

    @Option(
        name: .long,
        help: ArgumentHelp("Opacity: above 0 and at most 1, or a percentage (30%).", valueName: "O"))
    var opacity = "0.3"

    @Flag(name: .long, help: "Draw it beneath the page's content instead of over it.")
    var under = false

    @Option(name: .long, help: positionHelp)
    var position: StampPosition = .center

    @Option(name: .long, parsing: .unconditional, help: offsetHelp)
    var offset: String?

    @Option(name: .long, help: marginHelp)
    var margin = "0"

    @OptionGroup var look: TextLookOptions

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func validate() throws {
        guard angle.isFinite else { throw PDFEditError.usage("--angle takes a number of degrees") }
    }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        var mark = TextMark(kind: .watermark, format: text, size: 72, angle: angle)
        try applyTextSize(size, to: &mark)
        try look.apply(to: &mark)
        var placement = try parsePlacement(position: position, offset: offset)
        try applyMargin(margin, to: &placement)
        return .textStamp(
            try selecting.parse(selection),
            Stamp(text: mark, under: under, opacity: try parseOpacity(opacity), placement: placement))
    }
}
