import ArgumentParser
import PDFEditKit
import PageModel

struct Use: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "use",
        abstract: "Make a document current.",
        discussion: "Example:\n  pdfedit use appendix")

    @Argument(help: "The document.")
    var name: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .useDocument(name: name) }
}
