import ArgumentParser
import PDFEditKit

struct Blank: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "blank",
        abstract: "Insert blank pages.",
        discussion: """
            SIZE is a4, a5, a3, a6, b5, letter, legal, tabloid, WxH in points (units mm,
            cm, in accepted: 210x297mm), or like:P (the size of the item at P). Default:
            the size of the page before it (the page after it when inserted first; A4
            in an empty document).

            Examples:
              pdfedit blank --at 1
              pdfedit blank --after 3 --count 2 --size a4
              pdfedit blank --at last in.pdf -o out.pdf
            """)

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var insertion: InsertionOptions

    @Option(name: .long, help: "How many blank pages.")
    var count = 1

    @Option(name: .long, help: "Page size (see above).")
    var size: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .blank(at: try insertion.destination(), count: count, size: try size.map(parseSize))
    }
}
