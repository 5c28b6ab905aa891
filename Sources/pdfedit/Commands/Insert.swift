import ArgumentParser
import PDFEditKit
import PageModel

struct Insert: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "insert",
        abstract: "Insert PDF files (all their pages) and images (one page each).",
        discussion: """
            Each FILE is one dropped item: its slot is reserved, the file is read (several
            files in parallel), and the slot becomes all of its pages, in argument order.
            One unusable file cancels the whole insert and every bad file is named; with
            --keep-going the good ones are inserted and the command exits 3.

            Examples:
              pdfedit insert cover.pdf --at 1
              pdfedit insert a.pdf photo.jpg b.pdf --after 3 --keep-going
              pdfedit insert scan.jpg --fit a4
              pdfedit insert cover.pdf --at 1 in.pdf -o out.pdf
            """)

    @Argument(help: "The files to insert (in direct mode, followed by the PDF to edit).")
    var files: [String]

    @OptionGroup var insertion: InsertionOptions

    @Flag(name: .customLong("keep-going"), help: "Insert the usable files even if some cannot be read (exit 3).")
    var keepGoing = false

    @Option(name: .long, help: ArgumentHelp("Place images on pages of this size, aspect kept (a4, letter, WxH…).", valueName: "SIZE"))
    var fit: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    var directInput: String? { isDirect ? files.last : nil }
    var inserted: [String] { isDirect ? Array(files.dropLast()) : files }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        // Here, not in validate(): in direct mode the input is read first (a missing one is 66).
        guard !inserted.isEmpty else { throw PDFEditError.usage("insert needs at least one FILE") }
        let fitSize = try parseFitSize(fit)
        let (edit, outcome) = try building.importer.insertEdit(
            inserted, at: try insertion.destination(), fit: fitSize, keepGoing: keepGoing,
            progress: ProgressBar.handler(options.output))
        Console.warn(outcome.warnings)
        building.partialImport = outcome.partialImport
        return edit
    }
}
