import ArgumentParser
import PDFEditKit
import PageModel

struct Interleave: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "interleave",
        abstract: "Merge another document's pages alternately into this one.",
        discussion: """
            The result is 1, O1, 2, O2, … (the longer one's rest at the end); OTHER is
            left empty. --reverse takes OTHER from its end: duplex scans whose backs
            came out of the scanner last page first.

            Examples:
              pdfedit interleave backs --reverse
              pdfedit interleave backs.pdf --reverse fronts.pdf -o book.pdf
            """)

    @Argument(help: "The other document (in direct mode: a PDF file).")
    var other: String

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @Flag(name: .long, help: "Take OTHER's pages from its end.")
    var reverse = false

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    var directDocuments: [String] { [other] }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .interleave(other: building.otherDocuments.first ?? other, reversed: reverse)
    }
}

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

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
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

struct Insert: EditCommand {
    static let configuration = CommandConfiguration(
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
        guard !inserted.isEmpty else { throw PDFEditError.usage("insert needs at least one FILE") }
        let fitSize: PageSize?
        switch try fit.map(parseSize) {
        case .fixed(let size)?: fitSize = size
        case .like?: throw PDFEditError.usage("--fit takes a paper size or WxH, not like:P")
        case nil: fitSize = nil
        }
        let destination = try insertion.destination()
        var loaded: [ImportedFile] = []
        var failed: [PDFEditError] = []
        let progress = ProgressBar.handler(options.output)
        for result in building.importer.loadEach(inserted, fit: fitSize, progress: progress) {
            switch result {
            case .success(let file): loaded.append(file)
            case .failure(let error): failed.append(.engine(error))
            }
        }
        building.given = inserted.count
        if !failed.isEmpty {
            // Nothing usable at all: fail like a plain insert, whatever --keep-going says.
            guard keepGoing, !loaded.isEmpty else { throw failed.count == 1 ? failed[0] : .several(failed) }
            building.skipped = failed
        }
        for file in loaded {
            for warning in file.warnings.prefix(1) {
                Console.error("pdfedit: warning: \(file.source.path): damaged, recovered (\(warning))")
            }
        }
        return .insertItems(
            contents: loaded.flatMap(\.contents), at: destination, newSources: loaded.map(\.source))
    }
}
