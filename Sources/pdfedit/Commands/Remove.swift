import ArgumentParser
import PDFEditKit
import PageModel

struct Remove: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "remove",
        abstract: "Remove pages.",
        discussion: """
            Examples:
              pdfedit remove 2,4..5
              pdfedit remove even in.pdf -o odd-pages.pdf
            """)

    @Argument(help: "The pages to remove.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .remove(try selecting.parse(selection))
    }
}
