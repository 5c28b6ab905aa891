import ArgumentParser
import PDFEditKit
import PageModel

struct Move: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "move",
        abstract: "Move pages as one block to another position (or document).",
        discussion: """
            The selected items are taken out and put back as one block in their current
            order, so that the first of them ends at position N of the result.

            Examples (a 7-page document):
              pdfedit move 3..5 --to 1          # 3 4 5 1 2 6 7
              pdfedit move 1,3 --to 4           # 2 4 5 1 3 6 7
              pdfedit move last --after 2
              pdfedit move 1..2 --to 1 --into appendix
              pdfedit move 3..5 --to 1 in.pdf -o out.pdf
            """)

    @OptionGroup var block: BlockArguments
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }
    var directInput: String? { block.directInput }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let (selection, target, into) = try block.parsed()
        return .move(selection, to: target, into: into)
    }
}
