import ArgumentParser
import PDFEditKit
import PageModel

struct New: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "new",
        abstract: "Create an empty document and make it current.",
        discussion: "Example:\n  pdfedit new handout\n  pdfedit copy 1..3 --to 1 --into handout")

    @Argument(help: "The new document's name.")
    var name: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .newDocument(name: name) }
}
