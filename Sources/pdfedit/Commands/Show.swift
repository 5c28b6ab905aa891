import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "show",
        abstract: "Draw a contact sheet: the document's pages as thumbnails, in order, with position and id.",
        discussion: """
            Each thumbnail shows the page as export writes it (its own /Rotate and the
            item's rotation), captioned with its position and id, then its source, page
            label and rotation. Images are drawn as export places them; blank pages are
            outlined; placeholders are dashed frames with their label; pending redaction
            regions are red boxes with their labels. A page holding
            content the renderer skipped (an image too large to draw, a stream that
            cannot be decoded) is captioned "incomplete" and named after the summary.
            More than --per-sheet items give several sheets: OUT's name + -1, -2…
            (sheet-1.png, sheet-2.png). An existing file is replaced only with --force.
            Thumbnails are cached in the session's cache folder, so showing again after
            an edit renders nothing new.

            Examples:
              pdfedit show -o sheet.png
              pdfedit show -o first.png 1..12 --columns 4 --size 300
            """)

    @Option(name: [.short, .customLong("output")], help: "The PNG to write.")
    var output: String

    @Argument(help: "Only these items (a selection).")
    var selection: String?

    @OptionGroup var document: DocOption

    @Option(name: .long, help: "Thumbnails per row.")
    var columns = SheetOptions.defaultColumns

    @Option(name: .long, help: ArgumentHelp("Each thumbnail fits in PX x PX pixels.", valueName: "PX"))
    var size = SheetOptions.defaultThumbnailSize

    @Option(name: .customLong("per-sheet"), help: ArgumentHelp("At most N items per sheet.", valueName: "N"))
    var perSheet = SheetOptions.defaultPerSheet

    @Flag(name: .long, help: "Replace existing sheet files.")
    var force = false

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            let pages = try selection.map(selecting.parse)
            let sheets = SheetOptions(columns: columns, thumbnailSize: size, perSheet: perSheet, force: force)
            try sheets.check(output: output)
            let report = try PageEditor.reading(session: options.session, passwords: book) {
                (editor) throws(PDFEditError) in
                try editor.writeContactSheets(
                    toPath: output, pages: pages, document: document.doc, options: sheets,
                    progress: ProgressBar.handler(options.output))
            }
            if options.output.json {
                Console.json(report)
            } else if !options.output.quiet {
                let files = report.sheets.map(\.file)
                let what =
                    files.count == 1
                    ? shown(files[0]) : "\(files.count) sheets: \(shown(files[0])) … \(shown(files[files.count - 1]))"
                Console.out(
                    "wrote \(what) (\(report.itemCount) page\(report.itemCount == 1 ? "" : "s") of \(shown(report.document)); "
                        + "\(report.rendered) rendered, \(report.cached) from cache)")
                let incomplete = report.sheets.flatMap(\.items).filter { $0.incomplete == true }
                if !incomplete.isEmpty {
                    let which = incomplete.map { "\($0.position) (@\($0.id))" }.joined(separator: ", ")
                    Console.out(
                        "incomplete: position\(incomplete.count == 1 ? "" : "s") \(which) "
                            + "hold\(incomplete.count == 1 ? "s" : "") content the renderer skipped (drawn without it)")
                }
            }
        }
    }
}
