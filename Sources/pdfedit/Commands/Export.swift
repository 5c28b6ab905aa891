import ArgumentParser
import PDFEditKit
import PageModel

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "export",
        abstract: "Write a document (or selected pages) as one PDF.",
        discussion: """
            Outputs are written to a temporary file beside the target and renamed into
            place only when complete. An existing file is replaced only with --force (or
            when it is this session's own previous export); a source is never replaced.
            A session export is unencrypted unless --encrypt is given (a warning names
            the encrypted sources its pages come from), and deterministic: the same
            session exported twice gives byte-identical files. With --from the output
            keeps the file's encryption (method, permissions, both passwords) unless
            --decrypt or --encrypt is given. --encrypt - takes the passwords from
            --user-password-file/--owner-password-file (first line) or from
            PDFEDIT_USER_PASSWORD/PDFEDIT_OWNER_PASSWORD, out of sight of ps.

            --split DIR writes one file per item (or per K items with --every K, or one per
            top-level bookmark with --at-outlines) named by --name TEMPLATE, which takes
            {n} (part number, zero-padded), {first} and {last} (positions), {id}, {doc},
            {src} (source file stem), {srcpage} (page in its source) and {title} (the
            bookmark). Default: {doc}-{n}.pdf ({n}-{title}.pdf with --at-outlines).

            --at SEL starts a new part at each selected item (the items before the first
            one form the first part); --drop leaves the selected items out, and a part
            left empty is not written: --at empty --drop splits a scanned stack at its
            blank separator sheets. --at-outlines --level L splits at bookmarks of levels
            1 to L. --max-size SIZE (B, kB, MB, GB: powers of 1000; KiB, MiB, GiB) makes
            every part as large as possible with its file at most SIZE, measured by
            writing it; an item over SIZE on its own is an error naming it. --at, --every
            and --at-outlines exclude each other. Parts are numbered in the order written.

            --rasterize DPI writes each page as one picture at DPI dots per inch (drawn as
            render draws it; --gray in gray), on a page of its size: an image-only PDF
            for printers, or to leave nothing extractable. Its text, links, annotations,
            form fields and bookmarks are gone (a warning says so); not with --split,
            --all, --compress, --linearize or --encrypt.

            Examples:
              pdfedit export out.pdf
              pdfedit export chapter.pdf 10..60 --doc book
              pdfedit export --all exports/
              pdfedit export --split pages/ --name "page-{n}.pdf"
              pdfedit export --split chapters/ --at-outlines
              pdfedit export --split sections/ --at-outlines --level 2
              pdfedit export --split letters/ --at empty --drop
              pdfedit export --split mail/ --max-size 10MB
              pdfedit export --split parts/ --at empty --drop --from scans.pdf
              pdfedit export out.pdf 10..60 --from in.pdf
              curl -s https://example.org/in.pdf | pdfedit export - 1..3 --from - > first3.pdf
              pdfedit export out.pdf --encrypt - --allow print,copy
              pdfedit export merged.pdf --outline per-source
              pdfedit export flat.pdf --rasterize 150 --gray --from signed.pdf
            """)

    @Argument(help: "The PDF to write, - for standard output (with --all or --split: a directory).")
    var output: String

    @Argument(help: "Only these pages (a selection).")
    var selection: String?

    @OptionGroup var document: DocOption

    @Flag(name: .long, help: "Export every document into the directory OUTPUT, one file each.")
    var all = false

    @Flag(name: .long, help: "One file per item (or per --every K items, or per bookmark) in the directory OUTPUT.")
    var split = false

    @Option(name: .long, help: ArgumentHelp("With --split: how to name the parts (see above).", valueName: "TEMPLATE"))
    var name: String?

    @Option(name: .long, help: ArgumentHelp("With --split: K items per file.", valueName: "K"))
    var every: Int?

    @Flag(name: .customLong("at-outlines"), help: "With --split: one file per top-level bookmark.")
    var atOutlines = false

    @Option(name: .long, help: ArgumentHelp("With --at-outlines: split at bookmarks of levels 1 to L (default 1).", valueName: "L"))
    var level: Int?

    @Option(name: .customLong("at"), help: ArgumentHelp("With --split: a new part at each selected item.", valueName: "SEL"))
    var at: String?

    @Flag(name: .long, help: "With --at: leave the selected items out (a part left empty is not written).")
    var drop = false

    @Option(
        name: .customLong("max-size"),
        help: ArgumentHelp("With --split: parts as large as possible, each file at most SIZE (10MB, 500kB).", valueName: "SIZE"))
    var maxSize: String?

    @Option(name: .long, help: "Page labels: keep (the document's own, see labels; else each page's source label), renumber (1…n) or none.")
    var labels: LabelsChoice = .keep

    @Option(
        name: .long,
        help: "Bookmarks: keep (the document's outline), per-source (one entry per source file) or none.")
    var outline: OutlineChoice = .keep

    @Option(name: .long, help: "The output's title (default: the first source's).")
    var title: String?

    @Option(name: .long, help: "Direct mode: export pages of this PDF (- reads standard input) instead of a session document.")
    var from: String?

    @Flag(name: .long, help: "Replace an existing output file.")
    var force = false

    @Option(name: .long, help: "Placeholders: refuse (default) or blank (each becomes a blank page of its size).")
    var placeholders: PlaceholdersChoice = .refuse

    @Flag(name: .long, help: "With --from: write the output unencrypted (by default it keeps the file's encryption).")
    var decrypt = false

    @Flag(
        name: .long,
        help: "With --from: a file qpdf cannot repair is redrawn page by page with poppler (its annotations, links, bookmarks, forms and structure are lost).")
    var repair = false

    @Option(
        name: .long,
        help: ArgumentHelp("Write each page as one picture at DPI dots per inch: an image-only PDF (its text is gone).", valueName: "DPI"))
    var rasterize: Double?

    @Flag(name: .long, help: "With --rasterize: the pictures in gray.")
    var gray = false

    @Option(
        name: .customLong("rasterize-redacted"),
        help: ArgumentHelp("A page redaction refuses is written as a picture of itself at DPI, its regions filled (its text is gone).", valueName: "DPI"))
    var rasterizeRedacted: Double?

    @Flag(
        name: .long,
        help: "Remove the copies of a redacted text outside the pages (annotations, links, attachments, labels, metadata, bookmarks).")
    var scrub = false

    @OptionGroup var encryption: EncryptOptions

    @Flag(name: .customLong("keep-scripts"), help: "Keep the sources' JavaScript and the first one's open action.")
    var keepScripts = false

    @Flag(
        name: .customLong("keep-signatures"),
        help: "Keep a signed source's signatures valid (its bytes kept, the edit appended as an update), or refuse the export when it cannot.")
    var keepSignatures = false

    @OptionGroup var size: SizeOptions
    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var session: SessionOption
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        // `export 1..3`, the output forgotten: a file named "1..3" is not what was meant.
        if !all && !split && output != StandardStreams.name && !output.lowercased().hasSuffix(".pdf"),
            (try? PageSelection.parse(output)) != nil
        {
            throw PDFEditError.usage(
                "\(output) is a page selection, not a file to write: give the output first "
                    + "(pdfedit export OUT.pdf \(output)), or name it .pdf")
        }
        if decrypt && from == nil {
            throw PDFEditError.usage("--decrypt goes with --from (a session export is unencrypted)")
        }
        if repair && from == nil {
            throw PDFEditError.usage("--repair goes with --from (a session's sources were read when imported)")
        }
        if decrypt && !encryption.encrypt.isEmpty { throw PDFEditError.usage("give --decrypt or --encrypt, not both") }
        if !split && (name != nil || every != nil || atOutlines || at != nil || maxSize != nil) {
            throw PDFEditError.usage("--name, --every, --at, --at-outlines and --max-size go with --split")
        }
        let groupings = [every != nil ? "--every" : nil, at != nil ? "--at" : nil, atOutlines ? "--at-outlines" : nil]
            .compactMap { $0 }
        if groupings.count > 1 {
            throw PDFEditError.usage("give one of --at, --every and --at-outlines, not \(groupings.joined(separator: " and "))")
        }
        if drop && at == nil { throw PDFEditError.usage("--drop goes with --at") }
        if level != nil && !atOutlines { throw PDFEditError.usage("--level goes with --at-outlines") }
        if let level, level < 1 { throw PDFEditError.usage("--level takes an outline level ≥ 1, not \(level)") }
        if let maxSize, ByteSize.parse(maxSize) == nil {
            throw PDFEditError.usage("--max-size takes a size such as 10MB, 500kB or 2000000, not \"\(maxSize)\"")
        }
        if rasterize != nil && (split || all) {
            throw PDFEditError.usage("--rasterize writes one file: not with --split or --all")
        }
        if gray && rasterize == nil { throw PDFEditError.usage("--gray goes with --rasterize") }
        if from != nil && (all || document.doc != nil) {
            throw PDFEditError.usage("--from exports one file: --all and --doc do not apply")
        }
        if from == nil && all && (selection != nil || document.doc != nil || split) {
            throw PDFEditError.usage("--all exports whole documents: no selection, --doc or --split")
        }
    }

    /// `--split` with its grouping, or nil.
    func makeSplitRequest() throws(PDFEditError) -> SplitRequest? {
        guard split else { return nil }
        var grouping: SplitGrouping = atOutlines ? .atOutlines : every.map { .every($0) } ?? .each
        if let at { grouping = .at(try selecting.parse(at), drop: drop) }
        return SplitRequest(
            directory: output, grouping: grouping, template: name, outlineLevel: level ?? 1,
            maxSize: maxSize.flatMap(ByteSize.parse))
    }

    /// Most files a `wrote` list names one by one; a longer split is counted.
    static let namedFiles = 10

    /// What an export prints: a line per file written, and when there were
    /// several a summary line; past `namedFiles` files the rest are counted
    /// rather than listed (a burst into 570 parts printed 570 lines and no total).
    static func wroteLines(_ results: [ExportResult], folder: String?) -> [String] {
        var lines = results.prefix(namedFiles).map { result in
            "wrote \(shown(result.output)) (\(pagesPhrase(result.pageCount)) of \(shown(result.document)))"
        }
        guard results.count > 1 else { return lines }
        if results.count > namedFiles { lines.append("… and \(results.count - namedFiles) more") }
        let pages = results.reduce(0) { $0 + $1.pageCount }
        lines.append("wrote \(results.count) files\(folder.map { " in \(shown($0))" } ?? "") (\(pagesPhrase(pages)))")
        return lines
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            var settings = ExportSettings(force: force, placeholders: placeholders.policy, title: title)
            labels.apply(to: &settings)
            settings.outline = outline.policy
            settings.keepScripts = keepScripts
            settings.keepSignatures = keepSignatures
            settings.compress = size.compress
            settings.linearize = size.linearize
            settings.images = try size.resampling()
            settings.rasterize = rasterize
            settings.rasterizeGray = gray
            settings.rasterizeRedacted = rasterizeRedacted
            settings.scrub = scrub
            // The bar covers reading the session and preparing the pages too, so it is
            // stopped (erased) however the export ends.
            let bar = ProgressBar.bar(outputOptions, .writing)
            defer { bar?.stop() }
            if let bar { settings.progress = { bar.update($0) } }
            settings.outputEncryption = try encryption.encryption()
            let book = try passwords.book()
            let parsedSelection = try selection.map(selecting.parse)
            let splitRequest = try makeSplitRequest()
            let results: [ExportResult]
            let toStandardOutput = output == StandardStreams.name
            if toStandardOutput && (split || all) {
                throw PDFEditError.usage("\(split ? "--split" : "--all") writes a folder, not standard output (-)")
            }
            if toStandardOutput && outputOptions.json {
                throw PDFEditError.usage("--json cannot share standard output with the PDF (export -)")
            }
            if let from {
                var direct = DirectMode(input: from, output: output, inPlace: false, force: force, passwords: book)
                direct.decrypt = decrypt
                direct.repair = repair
                results = try direct.resolvingStandardStreams { (direct) throws(PDFEditError) in
                    try direct.export(selection: parsedSelection, split: splitRequest, settings: settings)
                }
            } else {
                results = try StandardStreams.writing(to: output) { (output) throws(PDFEditError) in
                    let job: ExportJob
                    if all {
                        job = .all(directory: output)
                    } else if let splitRequest {
                        job = .split(splitRequest, selection: parsedSelection, doc: document.doc)
                    } else {
                        job = .document(output: output, selection: parsedSelection, doc: document.doc)
                    }
                    return try PageEditor.exporting(
                        session: session.session, passwords: book, progress: settings.progress
                    ) { (editor) throws(PDFEditError) in try editor.export(job, settings: settings) }
                }
            }
            for result in results { Console.warn(result.warnings) }
            if outputOptions.json {
                Console.json(results)
            } else if !outputOptions.quiet && !toStandardOutput {
                Console.out(Self.wroteLines(results, folder: split || all ? output : nil).joined(separator: "\n"))
            }
        }
    }
}
