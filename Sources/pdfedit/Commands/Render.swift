import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "render",
        abstract: "Draw pages as image files (PNG, JPEG, TIFF) at a resolution or a pixel size.",
        usage: """
            pdfedit render [<selection>] -o <pattern> [<options>]
            pdfedit render [<selection>] <file> -o <pattern> [<options>]
            """,
        discussion: """
            Each selected item becomes one image, drawn as show draws it (poppler
            through cairo): its rotation, crop, resize and stamps; a blank page white,
            a placeholder as a labelled frame. Pages are drawn on every core.

            -o gives the folder and the file name together (the folder is made if
            needed); the name takes {n} (the image's number, zero-padded), {first} and
            {last} (its position), {id}, {doc}, {src} and {srcpage}, as split and
            export --split do. Several images need a field, except in TIFF: the pages
            given one name are the pages of one file (-o all.tiff writes one
            multi-page TIFF). The format comes from --format or the name's extension
            (.png, .jpg/.jpeg, .tif/.tiff). Existing files are replaced only with
            --force; a file pdfedit reads is never replaced.

            Size: --dpi N (default 150; 1 to 2400), or --width or --height in pixels
            (the other side in proportion). --gray writes 8-bit gray, --mono 1-bit
            black and white (no dithering). --background transparent leaves what the
            page does not paint transparent (PNG, TIFF). --no-annotations leaves
            annotations out, as printing does (form fields are still drawn).

            Without a session, give the file (or --from FILE). In an apply script, a
            line `render [options]` (no -o) draws each result instead of writing a PDF:
            apply's -o names the images, with -1, -2… before the extension (a .tiff is
            one file).

            Examples:
              pdfedit render -o 'pages/page-{n}.png'
              pdfedit render 1..3 book.pdf -o 'previews/{n}.jpg' --width 800 --quality 85
              pdfedit render scans.pdf -o scans.tiff --dpi 300 --mono
              pdfedit render @p4 -o cover.png --dpi 72 --background transparent
              pdfedit apply -e 'render --dpi 50' *.pdf -o 'thumbs/{stem}.png'
            """)

    @Argument(help: ArgumentHelp("Only these items (a selection); then a PDF to draw without a session.", valueName: "selection|file"))
    var arguments: [String] = []

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Where the images go: FOLDER/NAME with fields.", valueName: "pattern"))
    var pattern: String?

    @Option(name: .long, help: ArgumentHelp("Dots per inch (default 150).", valueName: "N"))
    var dpi: Double?

    @Option(name: .long, help: ArgumentHelp("Each image PX pixels wide.", valueName: "PX"))
    var width: Int?

    @Option(name: .long, help: ArgumentHelp("Each image PX pixels high.", valueName: "PX"))
    var height: Int?

    @Option(name: .long, help: ArgumentHelp("png, jpeg or tiff (default: from the extension).", valueName: "format"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("JPEG quality, 1 to 100.", valueName: "Q"))
    var quality = 90

    @Flag(name: .long, help: "8-bit gray.")
    var gray = false

    @Flag(name: .long, help: "1-bit black and white.")
    var mono = false

    @Option(name: .long, help: ArgumentHelp("What the page does not paint: white or transparent.", valueName: "white|transparent"))
    var background = "white"

    @Flag(name: .customLong("no-annotations"), help: "Leave annotations out.")
    var noAnnotations = false

    @Option(name: .long, help: ArgumentHelp("Direct mode: draw pages of this PDF (- reads standard input) instead of a session document.", valueName: "file"))
    var from: String?

    @Flag(name: .long, help: "Replace existing files.")
    var force = false

    @OptionGroup var document: DocOption
    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    /// The settings the options give (the kit checks the values' ranges).
    func settings() throws(PDFEditError) -> RenderSettings {
        var settings = RenderSettings()
        let sizes = [dpi != nil ? "--dpi" : nil, width != nil ? "--width" : nil, height != nil ? "--height" : nil]
            .compactMap { $0 }
        if sizes.count > 1 { throw PDFEditError.usage("give one of --dpi, --width and --height, not \(sizes.joined(separator: " and "))") }
        if let dpi { settings.resolution = .dpi(dpi) }
        if let width { settings.resolution = .width(width) }
        if let height { settings.resolution = .height(height) }
        if let format {
            switch format.lowercased() {
            case "png": settings.format = .png
            case "jpeg", "jpg": settings.format = .jpeg
            case "tiff", "tif": settings.format = .tiff
            default: throw PDFEditError.usage("--format takes png, jpeg or tiff, not \"\(format)\"")
            }
        }
        if gray && mono { throw PDFEditError.usage("give --gray or --mono, not both") }
        settings.colors = mono ? .mono : gray ? .gray : .color
        switch background {
        case "white": settings.transparent = false
        case "transparent": settings.transparent = true
        default: throw PDFEditError.usage("--background takes white or transparent, not \"\(background)\"")
        }
        settings.quality = quality
        settings.annotations = !noAnnotations
        settings.force = force
        return settings
    }

    /// The selection and the file of direct mode, from the positional arguments:
    /// `SEL FILE`, `FILE` (`-`, an existing file, or a word that is no
    /// selection), or `SEL`.
    func selectionAndFile() throws(PDFEditError) -> (selection: String?, file: String?) {
        switch arguments.count {
        case 0: return (nil, from)
        case 1:
            let word = arguments[0]
            // A selection's words hold "/" and ".pdf" too (`outline:A/B`, `text:a.pdf`).
            let looksLikeFile =
                word == "-" || FileManager.default.fileExists(atPath: word) || (try? PageSelection.parse(word)) == nil
            if looksLikeFile {
                if from != nil { throw PDFEditError.usage("give the file once: \(word) or --from") }
                return (nil, word)
            }
            return (word, from)
        case 2:
            if from != nil { throw PDFEditError.usage("give the file once: \(arguments[1]) or --from") }
            return (arguments[0], arguments[1])
        default:
            throw PDFEditError.usage("render takes a selection and a file at most, not \(arguments.count) arguments")
        }
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            guard let pattern else { throw PDFEditError.usage("render needs -o PATTERN (e.g. -o 'pages/page-{n}.png')") }
            var settings = try settings()
            let (selection, file) = try selectionAndFile()
            let bar = ProgressBar.bar(options.output)
            defer { bar?.stop() }
            if let bar { settings.progress = { bar.update($0) } }
            let result: RenderResult
            if let file {
                if document.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to a file") }
                let mode = DirectMode(input: file, output: nil, inPlace: false, force: force, passwords: try passwords.book())
                result = try mode.resolvingStandardStreams { (mode) throws(PDFEditError) in
                    try mode.render(selection: try selection.map(selecting.parse), pattern: pattern, settings: settings)
                }
            } else {
                let book = try passwords.book()
                let pages = try selection.map(selecting.parse)
                result = try PageEditor.reading(session: options.session, passwords: book) {
                    (editor) throws(PDFEditError) in
                    try editor.render(to: pattern, document: document.doc, pages: pages, settings: settings)
                }
            }
            bar?.stop()
            Console.warn(result.warnings)
            if options.output.json {
                Console.json(result)
            } else if !options.output.quiet {
                let count = result.images.count
                let files = result.files
                let what = files.count == 1 ? shown(files[0]) : "\(shown(files[0])) … \(shown(files[files.count - 1]))"
                let size = result.images.first.map { " \($0.width)x\($0.height)" } ?? ""
                Console.out(
                    "wrote \(count) image\(count == 1 ? "" : "s") of \(shown(result.document)) "
                        + "(\(result.format.rawValue)\(count == 1 ? size : "")): \(what)")
            }
        }
    }
}
