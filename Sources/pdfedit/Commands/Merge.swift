import ArgumentParser
import PDFEditKit
import PageModel

/// `merge A B C -o OUT`: the word new users look for, over what exists — the
/// first file in direct mode with the others inserted at its end, exactly as
/// `insert B C --at last A -o OUT` does (every document part of each file kept
/// as an insert keeps it).
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "merge",
        abstract: "Join PDF files (and images) into one PDF, in the order given.",
        discussion: """
            The first FILE's pages come first, then every page of each next file (an image
            is one page). Links, bookmarks, forms, page labels and the other document parts
            of every file are kept, as insert keeps them; --outline per-source gives the
            output one bookmark per file instead (named after it), --outline none none.
            --in-place adds the other files to the first one, replacing it atomically.

            Examples:
              pdfedit merge a.pdf b.pdf c.pdf -o all.pdf
              pdfedit merge ch1.pdf ch2.pdf ch3.pdf -o book.pdf --outline per-source
              pdfedit merge report.pdf appendix.pdf --in-place
              pdfedit merge scan-1.jpg scan-2.jpg -o scans.pdf
            """)

    @Argument(help: "The files to join, in order (PDF, JPEG, PNG).")
    var files: [String]

    @Option(
        name: .customLong("outline"),
        help: "Bookmarks: keep (every file's, the default), per-source (one per file) or none.")
    var outline: OutlineChoice = .keep

    @OptionGroup var direct: DirectOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            guard files.count >= 2 else { throw PDFEditError.usage("merge needs at least two files") }
            guard direct.isDirect else {
                throw PDFEditError.usage("merge writes a new file: give -o OUT (or --in-place to add to the first file)")
            }
            var mode = try direct.mode(input: files[0], passwords: try passwords.book(), output: output)
            mode.progress = ProgressBar.handler(output, .writing)
            mode.outline = outline.policy
            let others = Array(files.dropFirst())
            let (summary, result) = try mode.resolvingStandardStreams { (mode) throws(PDFEditError) in
                try mode.run { (_, _, importer) throws(PDFEditError) in
                    let (edit, outcome) = try importer.insertEdit(
                        others, at: nil, fit: nil, keepGoing: false, progress: ProgressBar.handler(output))
                    Console.warn(outcome.warnings)
                    return edit
                }
            }
            Console.warn(result.warnings)
            if output.json {
                Console.json(DirectReport(change: summary, export: result))
            } else if !output.quiet && direct.output != StandardStreams.name {
                Console.out("wrote \(shown(result.output)) (\(pagesPhrase(result.pageCount)) from \(files.count) files)")
            }
        }
    }
}

/// `split IN -o 'parts/part-{n}.pdf'`: the other word, over `export --split`.
struct Split: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "split",
        abstract: "Split a PDF into several files: one per page, per K pages, at pages or bookmarks, or by size.",
        discussion: """
            -o gives the parts' folder and file name together; the name takes {n} (part
            number, zero-padded), {first} and {last} (page numbers), {src}, {srcpage} and
            {title} (the bookmark), as export --split --name does. The folder is made if
            needed. By default every page is a part of its own.

            Examples:
              pdfedit split book.pdf -o 'pages/page-{n}.pdf'
              pdfedit split book.pdf -o 'parts/part-{n}.pdf' --every 10
              pdfedit split scans.pdf -o 'letters/{n}.pdf' --at empty --drop
              pdfedit split book.pdf -o 'chapters/{n}-{title}.pdf' --outline 1
              pdfedit split big.pdf -o 'mail/part-{n}.pdf' --max-size 10MB
            """)

    @Argument(help: "The PDF to split (- reads standard input).")
    var input: String

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Where the parts go: FOLDER/NAME-TEMPLATE.", valueName: "TEMPLATE"))
    var template: String

    @Option(name: .long, help: ArgumentHelp("K pages per part.", valueName: "K"))
    var every: Int?

    @Option(name: .customLong("at"), help: ArgumentHelp("A new part at each selected page.", valueName: "SEL"))
    var at: String?

    @Flag(name: .long, help: "With --at: leave the selected pages out (a part left empty is not written).")
    var drop = false

    @Option(name: .customLong("outline"), help: ArgumentHelp("A part at each bookmark of levels 1 to L.", valueName: "L"))
    var outlineLevel: Int?

    @Option(name: .customLong("max-size"), help: ArgumentHelp("Parts as large as possible, each file at most SIZE (10MB, 500kB).", valueName: "SIZE"))
    var maxSize: String?

    @Flag(name: .long, help: "Replace existing parts.")
    var force = false

    @OptionGroup var size: SizeOptions
    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        let groupings = [every != nil ? "--every" : nil, at != nil ? "--at" : nil, outlineLevel != nil ? "--outline" : nil]
            .compactMap { $0 }
        if groupings.count > 1 {
            throw PDFEditError.usage("give one of --every, --at and --outline, not \(groupings.joined(separator: " and "))")
        }
        if drop && at == nil { throw PDFEditError.usage("--drop goes with --at") }
        if let outlineLevel, outlineLevel < 1 {
            throw PDFEditError.usage("--outline takes a bookmark level ≥ 1, not \(outlineLevel)")
        }
        if let maxSize, ByteSize.parse(maxSize) == nil {
            throw PDFEditError.usage("--max-size takes a size such as 10MB, 500kB or 2000000, not \"\(maxSize)\"")
        }
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let (folder, name) = Self.folderAndName(template)
            guard !name.isEmpty, name.contains("{") else {
                // `-o parts` most likely means the folder.
                let example = template.contains("/") ? "\(folder)/part-{n}.pdf" : "\(template)/part-{n}.pdf"
                throw PDFEditError.usage("-o \(template): name the parts with a field, e.g. -o '\(example)'")
            }
            var grouping: SplitGrouping = outlineLevel != nil ? .atOutlines : every.map { .every($0) } ?? .each
            if let at { grouping = .at(try selecting.parse(at), drop: drop) }
            let request = SplitRequest(
                directory: folder, grouping: grouping, template: name, outlineLevel: outlineLevel ?? 1,
                maxSize: maxSize.flatMap(ByteSize.parse))
            var settings = ExportSettings(force: force)
            settings.compress = size.compress
            settings.linearize = size.linearize
            settings.images = try size.resampling()
            let bar = ProgressBar.bar(output, .writing)
            defer { bar?.stop() }
            if let bar { settings.progress = { bar.update($0) } }
            let mode = DirectMode(input: input, output: folder, inPlace: false, force: force, passwords: try passwords.book())
            let results = try mode.resolvingStandardStreams { (mode) throws(PDFEditError) in
                try mode.export(selection: nil, split: request, settings: settings)
            }
            for result in results { Console.warn(result.warnings) }
            if output.json {
                Console.json(results)
            } else if !output.quiet {
                Console.out(Export.wroteLines(results, folder: folder).joined(separator: "\n"))
            }
        }
    }

    /// `parts/part-{n}.pdf` → ("parts", "part-{n}.pdf"); a bare name → (".", name).
    static func folderAndName(_ template: String) -> (String, String) {
        guard let slash = template.lastIndex(of: "/") else { return (".", template) }
        let folder = String(template[..<slash])
        return (folder.isEmpty ? "/" : folder, String(template[template.index(after: slash)...]))
    }
}
