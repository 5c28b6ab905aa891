import ArgumentParser
import PDFEditKit
import PageModel

struct BatesNumbers: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "bates",
        abstract: "Draw Bates numbers on pages (ABC000123), as a stamp.",
        discussion: """
            Each selected page gets TEXT followed by its number, zero-padded to D digits:
            --start on the first selected page, one more on each next one in document
            order (the numbers follow the pages when they move). Drawn at export in a
            standard font (in a real font, embedded, when Windows-1252 cannot say TEXT),
            upright whatever the page's rotation, --margin from the edges
            of the page as displayed (default the bottom-right corner), extractable as
            text. `unstamp` removes it, `undo` takes it back.

            Examples:
              pdfedit bates all --prefix ABC
              pdfedit bates all --prefix "SMITH-" --start 1201 --digits 5
              pdfedit bates all --prefix DEF production.pdf -o stamped.pdf
            """)

    @Argument(help: "The pages to number.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("The text before each number.", valueName: "TEXT"))
    var prefix: String

    @Option(name: .long, help: ArgumentHelp("The number of the first selected page.", valueName: "N"))
    var start = 1

    @Option(name: .long, help: ArgumentHelp("Digits of the number, zero-padded.", valueName: "D"))
    var digits = 6

    @Option(name: .long, help: positionHelp)
    var position: StampPosition = .bottomRight

    @Option(name: .long, parsing: .unconditional, help: offsetHelp)
    var offset: String?

    @Option(name: .long, help: textSizeHelp)
    var size = "10"

    @Option(name: .long, help: marginHelp)
    var margin = "24"

    @OptionGroup var look: TextLookOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Opacity: above 0 and at most 1, or a percentage (30%).", valueName: "O"))
    var opacity = "1"

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func validate() throws {
        try TextMark.checkBatesDigits(digits)
    }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        var mark = TextMark(kind: .bates, format: prefix + "{n}", start: start, digits: digits, size: 10)
        try applyTextSize(size, to: &mark)
        try look.apply(to: &mark)
        var placement = try parsePlacement(position: position, offset: offset)
        try applyMargin(margin, to: &placement)
        return .textStamp(try selecting.parse(selection), Stamp(text: mark, opacity: try parseOpacity(opacity), placement: placement))
    }
}
