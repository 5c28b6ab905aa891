import ArgumentParser
import PDFEditKit
import PageModel

struct Optimize: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "optimize",
        abstract: "Rewrite a PDF smaller (what --compress does, --images for lossy), with a report; in a session, set how exports are written.",
        discussion: """
            Identical streams (fonts, images, ICC profiles, forms) are written once,
            every Flate stream is recompressed at zlib's best level, the objects go
            into object streams and those nothing refers to are left out. Pages,
            text, links, bookmarks and forms stay as every export keeps them; the
            file keeps its encryption unless --decrypt.

            --images DPI[:QUALITY] makes it lossy: raster images drawn finer than DPI
            (their largest size on any page) are resampled to it, photographs written
            as JPEG at QUALITY (default 75), line art, 1-bit images and masks with
            Flate, each soft mask with its image. JBIG2, CCITT and JPEG 2000 images,
            images at or below DPI and those in colour spaces it does not handle
            (Indexed, Separation, DeviceN) are left alone; text and vector content
            are never touched.

            Examples:
              pdfedit optimize big.pdf -o small.pdf
              pdfedit optimize big.pdf --in-place --linearize
              pdfedit optimize big.pdf -o small.pdf --json
              pdfedit optimize scans.pdf -o mail.pdf --images 150

            In a session (no FILE) it edits nothing of the pages: it sets how every
            export of the document is written from now on, as one undo step shown by
            `status` (`optimize --linearize --images 150:60`); `optimize --off` writes
            exports as each one asks again. An export's own --compress, --linearize
            and --images add to these (its --images wins).
              pdfedit optimize --images 150
              pdfedit optimize --off
            """)

    @Argument(help: ArgumentHelp("The PDF to rewrite (- reads standard input); none: the session's document.", valueName: "file"))
    var file: String?

    @Option(name: [.short, .customLong("output")], help: "Write the result here (- writes it to standard output).")
    var output: String?

    @Flag(name: .customLong("in-place"), help: "Replace FILE with the result (atomically).")
    var inPlace = false

    @Flag(name: .long, help: "Allow -o to replace an existing file.")
    var force = false

    @Flag(name: .long, help: "Linearize the result (fast web view).")
    var linearize = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Lossy: resample images drawn finer than DPI to it (photographs as JPEG at QUALITY, default 75).",
            valueName: "dpi[:quality]"))
    var images: String?

    @Flag(name: .long, help: "Write the result unencrypted (by default it keeps FILE's encryption and passwords).")
    var decrypt = false

    @Flag(name: .customLong("keep-scripts"), help: "Keep the file's JavaScript and open action.")
    var keepScripts = false

    @Flag(name: .long, help: "In a session: write exports as each one asks again (clears what optimize set).")
    var off = false

    @OptionGroup var options: EditOptions

    var outputOptions: OutputOptions { options.output }
    var directInput: String? { file }

    func validate() throws {
        _ = try SizeOptions.resampling(images)
        if file != nil {
            if output == nil && !inPlace {
                throw PDFEditError.usage("optimize FILE writes a file: give -o OUT or --in-place (without FILE it sets the session's exports)")
            }
            if output != nil && inPlace { throw PDFEditError.usage("give either -o or --in-place, not both") }
            if off { throw PDFEditError.usage("--off belongs to sessions (optimize without FILE)") }
            if options.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to direct mode") }
            if output == StandardStreams.name && outputOptions.json {
                throw PDFEditError.usage("--json cannot share standard output with the PDF (-o -)")
            }
            return
        }
        if output != nil || inPlace { throw PDFEditError.usage("-o and --in-place rewrite a file: give it (optimize FILE -o OUT)") }
        let given = [(force, "--force"), (decrypt, "--decrypt"), (keepScripts, "--keep-scripts")].filter(\.0).map(\.1)
        if let first = given.first { throw PDFEditError.usage("\(first) goes with optimize FILE -o OUT or --in-place") }
        if off && (linearize || images != nil) {
            throw PDFEditError.usage("--off clears the session's settings: not with --linearize or --images")
        }
    }

    /// In a session: the document's export settings, one step.
    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        if file != nil || output != nil || inPlace {
            throw PDFEditError.usage("optimize FILE -o OUT is direct mode, not a session edit")
        }
        return .optimize(off ? nil : OptimizeSettings(linearize: linearize, images: try SizeOptions.resampling(images)))
    }

    func run() throws {
        guard let file else {
            try reporting { () throws(PDFEditError) in try perform() }
            return
        }
        try reporting { () throws(PDFEditError) in
            var mode = DirectMode(
                input: file, output: output, inPlace: inPlace, force: force, passwords: try options.passwords.book())
            mode.progress = ProgressBar.handler(outputOptions, .writing)
            mode.linearize = linearize
            mode.images = try SizeOptions.resampling(images)
            mode.decrypt = decrypt
            mode.keepScripts = keepScripts
            let report = try mode.resolvingStandardStreams { (mode) throws(PDFEditError) in try mode.optimize() }
            Console.warn(report.warnings)
            if outputOptions.json {
                Console.json(report)
            } else if !outputOptions.quiet && output != StandardStreams.name {
                Console.out(Self.lines(report, shownOutput: output ?? file).joined(separator: "\n"))
            }
        }
    }

    /// The text report: the sizes, then what each step saved.
    static func lines(_ report: OptimizeReport, shownOutput: String) -> [String] {
        func percent(_ bytes: Int) -> String {
            guard report.bytesBefore > 0 else { return "" }
            let tenths = (bytes * 1000) / report.bytesBefore
            return " (\(tenths / 10).\(abs(tenths % 10))%)"
        }
        var lines = [
            "wrote \(shown(shownOutput)) (\(pagesPhrase(report.pageCount))\(report.linearized ? ", linearized" : ""))",
            "bytes before:        \(report.bytesBefore)",
            "bytes after:         \(report.bytesAfter)",
            "saved:               \(report.saved)\(percent(report.saved))",
            "  shared duplicates: \(report.sharedDuplicates.bytes) (\(report.sharedDuplicates.count) objects)",
            "  recompression:     \(report.recompression.bytes) (\(report.recompression.count) streams)",
            "  object streams:    \(report.objectStreams) (with unreferenced objects left out)",
        ]
        if let resampling = report.imageResampling {
            lines.insert(
                "  images:            \(report.images.bytes) (\(report.images.count) resampled to \(resampling.dpi) dpi, JPEG quality \(resampling.quality))",
                at: 4)
        }
        return lines
    }
}
