import ArgumentParser
import PDFEditKit
import PageModel

struct Blank: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "blank",
        abstract: "Insert blank pages.",
        discussion: """
            SIZE is a4, a5, a3, a6, b5, letter, legal, tabloid, WxH in points (units mm,
            cm, in accepted: 210x297mm), or like:P (the size of the item at P). Default:
            the size of the page before it (the page after it when inserted first; A4
            in an empty document).

            --after-each SEL puts one blank page after every selected item, each the size
            of the item before it as displayed unless --size is given (one undo step).

            Examples:
              pdfedit blank --at 1
              pdfedit blank --after 3 --count 2 --size a4
              pdfedit blank --after-each odd
              pdfedit blank --after-each 1,5,9 in.pdf -o out.pdf
              pdfedit blank --at last in.pdf -o out.pdf
            """)

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var insertion: InsertionOptions

    @Option(name: .long, help: "How many blank pages (default: 1).")
    var count: Int?

    @Option(
        name: .customLong("after-each"),
        help: ArgumentHelp("One blank page after every selected item.", valueName: "SEL"))
    var afterEach: String?

    @Option(name: .long, help: "Page size (see above).")
    var size: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func validate() throws {
        if afterEach != nil && (insertion.at != nil || insertion.before != nil || insertion.after != nil || count != nil) {
            throw PDFEditError.usage("--after-each places the blank pages itself: no --at, --before, --after or --count")
        }
    }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        if let afterEach {
            return .blankAfterEach(try selecting.parse(afterEach), size: try size.map(parseSize))
        }
        return .blank(at: try insertion.destination(), count: count ?? 1, size: try size.map(parseSize))
    }
}
