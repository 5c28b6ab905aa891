import ArgumentParser
import PDFEditKit
import PageModel

struct Nup: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "nup",
        abstract: "Put several pages on each sheet (2-up, 4-up…): a sheet is one page whose cells are the pages.",
        discussion: """
            The selected pages are replaced, in order, by sheets of C×R cells (the last sheet may be \
            partly empty), at the place of the first selected page. Each cell shows its page scaled to \
            fit, centred and upright as displayed (its rotation and crop kept). A sheet is one item: \
            rotate, crop, stamp and remove act on the whole sheet; `list` shows its cells' ids and \
            `undo` gives the pages back. A sheet cannot go onto another sheet.

            SIZE: a4, a5, letter, … or WxH (pt; mm, cm, in accepted), or like:P. Default: the size \
            of the first selected page as displayed.

            Examples:
              pdfedit nup all --grid 2x1 --size a4-landscape
              pdfedit nup 1..8 --grid 2x2 --gutter 5mm
              pdfedit nup all --grid 2x3 --order columns
              pdfedit nup all --grid 2x1 --size 842x595 slides.pdf -o handout.pdf
            """)

    @Argument(help: "The pages to put on sheets.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("Columns x rows of cells, each 1 to 20.", valueName: "CxR"))
    var grid: String

    @Option(name: .long, help: "Sheet size (see above).")
    var size: String?

    @Option(name: .long, help: "Fill the cells by rows (left to right, then down) or by columns.")
    var order: SheetOrderChoice = .rows

    @Option(name: .long, help: ArgumentHelp("Space between cells (pt; mm, cm, in accepted).", valueName: "L"))
    var gutter: String = "0"

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let parts = grid.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]) else {
            throw PDFEditError.usage("--grid takes columns x rows, e.g. 2x2, not \"\(grid)\"")
        }
        return .nup(
            try selecting.parse(selection), columns: columns, rows: rows, size: try size.map(parseSize),
            order: order.order, gutter: try parseLength(gutter, option: "--gutter"))
    }
}

/// `--order rows|columns`.
enum SheetOrderChoice: String, ExpressibleByArgument, CaseIterable {
    case rows, columns

    var order: SheetOrder { self == .rows ? .rows : .columns }
}
