import ArgumentParser
import PDFEditKit
import PageModel

struct SplitPage: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "split-page",
        abstract: "Split each page into a grid of pages, one cell each (a scanned spread into its two pages).",
        discussion: """
            Each selected page becomes C×R pages that show one cell of it (a crop box on a copy; the \
            content is kept whole), in reading order as displayed: left to right, top to bottom, as the \
            reader sees the page whatever its rotation. The first cell stays the original item, so \
            bookmarks pointing at it stay. Cells divide what is visible now (after any crop).

            Examples:
              pdfedit split-page all --grid 2x1
              pdfedit split-page 3..8 --grid 1x2
              pdfedit split-page all --grid 2x1 spreads.pdf -o pages.pdf
            """)

    @Argument(help: "The pages to split.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("Columns x rows, each 1 to 20 (2x1: left and right halves).", valueName: "CxR"))
    var grid: String

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let parts = grid.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]) else {
            throw PDFEditError.usage("--grid takes columns x rows, e.g. 2x1, not \"\(grid)\"")
        }
        return .splitPage(try selecting.parse(selection), columns: columns, rows: rows)
    }
}
