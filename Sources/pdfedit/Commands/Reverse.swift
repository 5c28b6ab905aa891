import ArgumentParser
import PDFEditKit
import PageModel

struct Reverse: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "reverse",
        abstract: "Reverse the order of pages (the selected ones swap places among their own slots).",
        discussion: """
            Examples:
              pdfedit reverse                 # the whole document
              pdfedit reverse 2..5
              pdfedit reverse all in.pdf -o out.pdf
            """)

    @Argument(help: "The pages to reverse (default: all; required in direct mode).")
    var selection: String?

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .reverse(try selection.map(selecting.parse) ?? .all)
    }
}
