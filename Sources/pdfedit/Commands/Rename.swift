import ArgumentParser
import PDFEditKit
import PageModel

struct Rename: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "rename",
        abstract: "Rename a document.",
        discussion: "Example:\n  pdfedit rename report final")

    @Argument(help: "The document's name.")
    var old: String

    @Argument(help: "Its new name.")
    var new: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .renameDocument(from: old, to: new) }
}
