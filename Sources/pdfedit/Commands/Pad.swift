import ArgumentParser
import PDFEditKit
import PageModel

struct Pad: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "pad",
        abstract: "Add blank pages so the page count is a multiple of K (duplex printing: 2, booklets: 4).",
        discussion: """
            The blank pages go at the end, or with --per-source after each run of consecutive \
            items from one source file (so that each file starts on a front side); blank pages \
            and placeholders count with the run before them, so padding twice adds nothing. \
            Each blank page is the size of the item before it as displayed unless --size is \
            given (a4, letter, WxH with units, like:P). Nothing to add is not an error. One undo step.

            Examples:
              pdfedit pad --multiple-of 2
              pdfedit pad --multiple-of 2 --per-source
              pdfedit pad --multiple-of 4 --size a4
              pdfedit pad --multiple-of 2 in.pdf -o out.pdf
            """)

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .customLong("multiple-of"), help: ArgumentHelp("The page count to reach a multiple of.", valueName: "K"))
    var multipleOf: Int

    @Flag(name: .customLong("per-source"), help: "Pad each run of consecutive items from one source instead.")
    var perSource = false

    @Option(name: .long, help: "Size of the blank pages (default: the item before each).")
    var size: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .pad(multipleOf: multipleOf, perSource: perSource, size: try size.map(parseSize))
    }
}
