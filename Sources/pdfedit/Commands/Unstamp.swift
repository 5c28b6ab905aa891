import ArgumentParser
import PDFEditKit
import PageModel

struct UnstampPages: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "unstamp",
        abstract: "Remove the stamps of pages (every stamp `stamp` put on them).",
        discussion: """
            Only stamps of the session can be removed: what a PDF already shows is its content.

            Examples:
              pdfedit unstamp all
              pdfedit unstamp 2..4
            """)

    @Argument(help: "The pages whose stamps go.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .unstamp(try selecting.parse(selection))
    }
}
