import ArgumentParser
import PDFEditKit
import PageModel

struct Duplicate: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "duplicate",
        abstract: "Copy each selected page right after itself.",
        discussion: """
            Examples:
              pdfedit duplicate 2            # 1 2 2' 3 …
              pdfedit duplicate odd in.pdf -o out.pdf
            """)

    @Argument(help: "The pages to duplicate.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .duplicate(try selecting.parse(selection))
    }
}
