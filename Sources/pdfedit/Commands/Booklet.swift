import ArgumentParser
import PDFEditKit
import PageModel

struct Booklet: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "booklet",
        abstract: "Impose pages as a saddle-stitched booklet: two per sheet side, in folding order.",
        discussion: """
            The selected pages are padded with empty cells to a multiple of 4 and put two per sheet \
            side, side by side, in the order that folds into a booklet (8 pages: 8|1, 2|7, 6|3, 4|5); \
            print the sheets double-sided (flip on the short edge), fold them in half and staple. The \
            sheets take the place of the first selected page; each is one item whose cells are the \
            pages (`list` shows them; `undo` gives the pages back).

            SIZE: a4, a3, letter, … or WxH (pt; mm, cm, in accepted), or like:P. Default: twice the \
            width of the first selected page as displayed (A5 pages make A4 landscape sheets).

            Examples:
              pdfedit booklet all
              pdfedit booklet all --size a4-landscape
              pdfedit booklet all zine.pdf -o zine-booklet.pdf
            """)

    @Argument(help: "The pages of the booklet, in reading order.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: "Sheet size (see above).")
    var size: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .booklet(try selecting.parse(selection), size: try size.map(parseSize))
    }
}
