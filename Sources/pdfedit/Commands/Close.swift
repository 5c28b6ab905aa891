import ArgumentParser
import PDFEditKit
import PageModel

struct Close: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "close",
        abstract: "Close (remove) a document from the session; undo brings it back.",
        discussion: "Example:\n  pdfedit close scratch")

    @Argument(help: "The document.")
    var name: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .closeDocument(name: name) }
}
