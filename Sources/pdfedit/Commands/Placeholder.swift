import ArgumentParser
import PDFEditKit
import PageModel

struct Placeholder: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "placeholder",
        abstract: "Reserve slots to be filled later with `fill`.",
        discussion: """
            A placeholder has a size (like blank pages: default the size of the page
            before it) and an optional label. `export` refuses a document that still holds
            placeholders unless --placeholders blank is given.

            Examples:
              pdfedit placeholder --at 1 --label "cover"
              pdfedit placeholder --after 4 --count 2 --size a4 --label "signed form"
            """)

    @OptionGroup var insertion: InsertionOptions

    @Option(name: .long, help: "How many slots.")
    var count = 1

    @Option(name: .long, help: "Slot size (as for blank).")
    var size: String?

    @Option(name: .long, help: "A label shown by list and show.")
    var label: String?

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .placeholder(at: try insertion.destination(), count: count, size: try size.map(parseSize), label: label)
    }
}
