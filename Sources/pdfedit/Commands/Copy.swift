import ArgumentParser
import PDFEditKit
import PageModel

struct Copy: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "copy",
        abstract: "Copy pages as one block to a position (or another document).",
        discussion: """
            Like move, but the originals stay; the copies are new items with new ids.

            Examples:
              pdfedit copy 1 --to last
              pdfedit copy 2..3 --to 1 --into handout
              pdfedit copy 1 --to last in.pdf -o out.pdf
            """)

    @OptionGroup var block: BlockArguments
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }
    var directInput: String? { block.directInput }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let (selection, target, into) = try block.parsed()
        return .copy(selection, to: target, into: into)
    }
}
