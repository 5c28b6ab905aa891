import ArgumentParser
import PDFEditKit
import PageModel

struct NumberPages: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "number",
        abstract: "Draw page numbers on pages (\"Page 3 of 12\"), as a stamp.",
        discussion: """
            TEXT is written on each selected page at export, upright for the reader
            whatever the page's rotation, --margin from the edges of the page as
            displayed, and extractable as text: in a standard font (Helvetica, Times or
            Courier; nothing embedded) when Windows-1252 can say it, else in any language
            in a real font, shaped by Pango and embedded as a subset. TEXT takes {n} (the
            number: --start on the first selected page, one more on each next one in
            document order), {total} (how many pages this command numbered), {label}
            (the page's label as export writes it), {doc} (the document's name), {file}
            (the name of the file the page comes from), {pages} (the document's page
            count), {date} (the day of the export, 2026-03-14) and {date:FORMAT} (in a
            strftime FORMAT: {date:%d.%m.%Y}); another {word} is refused. The
            numbers follow the pages when they move; a removed page leaves no gap.
            `unstamp` removes it, `undo` takes it back.

            Examples:
              pdfedit number all
              pdfedit number 2.. --format "Page {n} of {total}" --start 2
              pdfedit number all --format "{doc} {label}" --position top-right
              pdfedit number all --format "Strona {n} z {total}"
              pdfedit number all --size 2% --margin 3%
              pdfedit number all report.pdf -o numbered.pdf
            """)

    @Argument(help: "The pages to number.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("The text: {n}, {total}, {label}, {doc}, {file}, {pages}, {date}.", valueName: "TEXT"))
    var format = "{n}"

    @Option(name: .long, help: ArgumentHelp("The number of the first selected page.", valueName: "N"))
    var start = 1

    @Option(name: .long, help: positionHelp)
    var position: StampPosition = .bottom

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

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        var mark = TextMark(kind: .number, format: format, start: start, size: 10)
        try applyTextSize(size, to: &mark)
        try look.apply(to: &mark)
        var placement = try parsePlacement(position: position, offset: offset)
        try applyMargin(margin, to: &placement)
        return .textStamp(try selecting.parse(selection), Stamp(text: mark, opacity: try parseOpacity(opacity), placement: placement))
    }
}
