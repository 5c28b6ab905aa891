import ArgumentParser
import PDFEditKit
import PageModel

/// `--units pt|mm|%`.
extension RedactUnits: ExpressibleByArgument {}

struct Redact: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "redact",
        abstract: "Remove what pages show in a region or a text, for good (at export).",
        discussion: """
            True redaction: what the page draws inside each region is taken out of the file, not \
            covered. Text whose glyphs meet a region leaves the content stream (the glyphs after it \
            stay where they were), image samples inside are replaced by the fill colour in the image \
            data, paths inside are no longer drawn, annotations and form fields meeting it are \
            removed, and the region is filled (default black). Form XObjects are redacted too, as \
            copies for the page.

            --rect X,Y,W,H is a region with its lower-left corner at X,Y, on the page as displayed \
            (its visible box after rotation, y upward from its lower-left corner), in --units pt \
            (default), mm or % of the displayed page. --text WORDS makes each occurrence of the words \
            on the selected pages a region (found in poppler's text layout; --regex for a regular \
            expression, --case to match case). One of --rect and --text is required.

            In a session each command is one undo step and nothing is removed until export. Every \
            redacting export reads its output back before it keeps it: no text may be left inside a \
            region, no redacted occurrence on its page, and every pixel inside a region must be the \
            fill colour; otherwise nothing is written (exit 65, naming the page and region). A page \
            the redaction cannot judge (a shading or an inline image reaching into a region, an image \
            it cannot decode, text in a font it cannot measure) is refused the same way, unless \
            --rasterize-redacted DPI (here in direct mode and apply, or given to export) writes it as a picture \
            of itself at DPI with its regions filled: its text is gone, and a warning names it. The \
            output is always a new file written whole, never an update appended to its source.

            Examples:
              pdfedit redact 1 --rect 72,600,200,40
              pdfedit redact all --text "Jane Doe"
              pdfedit redact all --text '[0-9]{3}-[0-9]{2}-[0-9]{4}' --regex --fill white
              pdfedit redact 2 --rect 10,10,30,20 --units % --label "§ 5(b)" in.pdf -o out.pdf
            """)

    @Argument(help: "The pages to redact on (with --list: to list).")
    var selection: String?

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("A region on the page as displayed.", valueName: "x,y,w,h"))
    var rect: String?

    @Option(name: .long, help: "The units of --rect.")
    var units: RedactUnits = .pt

    @Option(name: .long, help: ArgumentHelp("Every occurrence of these words.", valueName: "words"))
    var text: String?

    @Flag(name: .long, help: "--text is a regular expression.")
    var regex = false

    @Flag(name: .customLong("case"), help: "--text matches case.")
    var caseSensitive = false

    @Option(name: .long, help: ArgumentHelp("The fill: black, white, a colour name or #rrggbb.", valueName: "colour"))
    var fill = "black"

    @Option(name: .long, help: ArgumentHelp("A label shown with the region by list and redact --list.", valueName: "text"))
    var label: String?

    @Option(
        name: .customLong("rasterize-redacted"),
        help: ArgumentHelp(
            "Direct mode and apply: a page it refuses is written as a picture of itself at DPI, its regions filled.",
            valueName: "DPI"))
    var rasterizeRedacted: Double?

    @Flag(
        name: .long,
        help: "Direct mode and apply: remove the copies of the text outside the pages (annotations, links, attachments, labels, metadata, bookmarks).")
    var scrub = false

    @Flag(name: .long, help: "List the pending regions of the session's document (with --json: as JSON) instead.")
    var list = false

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func run() throws {
        guard list else {
            try reporting { () throws(PDFEditError) in try perform() }
            return
        }
        try reporting { () throws(PDFEditError) in
            guard rect == nil, text == nil, !direct.isDirect, directInput == nil else {
                throw PDFEditError.usage("--list lists a session's pending regions: give no --rect, --text or file")
            }
            let workspace = Workspace(sessionPath: options.session, passwords: try options.passwords.book())
            let listing = try workspace.list(
                doc: options.doc, selection: try selection.map(selecting.parse), includeText: false)
            let rows = listing.items.flatMap { item in
                (item.redactions ?? []).map { (position: item.position, id: item.id, region: $0) }
            }
            if options.output.json {
                Console.json(rows.map { ListedRegion(position: $0.position, id: $0.id, region: $0.region) })
                return
            }
            guard !options.output.quiet else { return }
            for row in rows {
                let region = row.region
                var line = "\(row.position)\t@\(row.id)\t\(region.x),\(region.y),\(region.width),\(region.height)\t\(region.fill)"
                if let label = region.label { line += "\t\(label)" }
                if let text = region.text { line += "\t\"\(text)\"" }
                print(line)
            }
            if rows.isEmpty { print("no pending redactions in \(listing.document)") }
        }
    }

    func adjust(_ mode: inout DirectMode) throws(PDFEditError) {
        mode.rasterizeRedacted = rasterizeRedacted
        mode.scrub = scrub
    }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        guard (rasterizeRedacted == nil && !scrub) || isDirect else {
            throw PDFEditError.usage(
                "\(scrub ? "--scrub" : "--rasterize-redacted") goes with -o or --in-place; in a session give it to export")
        }
        guard let selection else { throw PDFEditError.usage("redact needs the pages to redact on (a selection)") }
        guard (rect == nil) != (text == nil) else {
            throw PDFEditError.usage("redact takes exactly one of --rect and --text")
        }
        guard text != nil || (!regex && !caseSensitive) else {
            throw PDFEditError.usage("--regex and --case go with --text")
        }
        guard let color = TextColor.parse(fill) else {
            throw PDFEditError.usage("--fill \(fill): not a colour (black, white, a name, #rrggbb or c,m,y,k)")
        }
        let pages = try selecting.parse(selection)
        if let text {
            guard !text.isEmpty else { throw PDFEditError.usage("--text needs some text") }
            return .redact(pages, .text(text, regex: regex, caseSensitive: caseSensitive), fill: color, label: label)
        }
        let values = try (rect ?? "").split(separator: ",", omittingEmptySubsequences: false).map {
            (part) throws(PDFEditError) -> Double in
            guard let value = Double(part.trimmingSpaces()), value.isFinite else {
                throw PDFEditError.usage("--rect \(rect ?? ""): four numbers X,Y,W,H are needed")
            }
            return value
        }
        guard values.count == 4 else { throw PDFEditError.usage("--rect \(rect ?? ""): four numbers X,Y,W,H are needed") }
        guard values[2] > 0, values[3] > 0 else { throw PDFEditError.usage("--rect: the width and height must be above 0") }
        return .redact(
            pages, .rect(x: values[0], y: values[1], width: values[2], height: values[3], units: units), fill: color,
            label: label)
    }
}

/// One row of `redact --list --json`.
struct ListedRegion: Encodable {
    var position: Int
    var id: String
    var region: ListedRedaction
}
