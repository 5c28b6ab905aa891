import ArgumentParser
import PDFEditKit
import PageModel

struct Placeholder: EditCommand {
    static let configuration = CommandConfiguration(
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

struct Fill: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "fill",
        abstract: "Replace a placeholder with the pages of a file (one slot may become many pages).",
        discussion: """
            The new pages take the placeholder's place (and its rotation).

            Examples:
              pdfedit fill 1 cover.pdf
              pdfedit fill @p12 signature.jpg --fit a4
            """)

    @Argument(help: "The placeholder (a position or @id).")
    var position: String

    @Argument(help: "The PDF or image to put there.")
    var file: String

    @Option(name: .long, help: ArgumentHelp("Place an image on a page of this size, aspect kept.", valueName: "SIZE"))
    var fit: String?

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let fitSize: PageSize?
        switch try fit.map(parseSize) {
        case .fixed(let size)?: fitSize = size
        case .like?: throw PDFEditError.usage("--fit takes a paper size or WxH, not like:P")
        case nil: fitSize = nil
        }
        let loaded = try building.importer.load([file], fit: fitSize)
        return .fill(try parsePosition(position), contents: loaded.flatMap(\.contents), newSources: loaded.map(\.source))
    }
}

struct Relink: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relink",
        abstract: "Point the session at a source that moved (or, with --force, changed).",
        discussion: """
            OLD is the source's id (s1, shown by status) or its path. NEW must have
            the same content unless --force. One undo step.

            Examples:
              pdfedit relink report.pdf archive/report.pdf
              pdfedit relink s2 report-v2.pdf --force
            """)

    @Argument(help: "The source: its id (s1) or its path.")
    var old: String

    @Argument(help: "The file it now is.")
    var new: String

    @Flag(name: .long, help: "Accept a file whose content differs.")
    var force = false

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let workspace = Workspace(sessionPath: options.session, passwords: try passwords.book())
            let summary = try workspace.relink(old, to: new, force: force, label: commandLineLabel())
            if options.output.json {
                Console.json(summary)
            } else if !options.output.quiet {
                Console.out(summary.description)
            }
        }
    }
}
