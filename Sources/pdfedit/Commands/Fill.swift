import ArgumentParser
import PDFEditKit
import PageModel

struct Fill: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "fill",
        abstract: "Replace a placeholder with the pages of a file (one slot may become many pages).",
        discussion: """
            The new pages take the placeholder's place (and its rotation).

            Examples:
              pdfedit fill 1 cover.pdf
              pdfedit fill @p12 signature.jpg --fit a4
            """)

    @Argument(help: "The placeholder (a position or @id).")
    var position: String

    @Argument(help: "The PDF or image to put there.")
    var file: String

    @Option(name: .long, help: ArgumentHelp("Place an image on a page of this size, aspect kept.", valueName: "SIZE"))
    var fit: String?

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let fitSize = try parseFitSize(fit)
        return try building.importer.fillEdit(try parsePosition(position), file: file, fit: fitSize)
    }
}
