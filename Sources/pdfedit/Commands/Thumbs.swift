import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct Thumbs: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "thumbs",
        abstract: "Write one PNG thumbnail per item into a directory.",
        discussion: """
            Files are named {n}-{id}.png: the item's position, zero-padded to the width
            of the document's page count, and its stable id (03-p3.png), so they sort in
            document order. Each shows the page as export writes it (its own /Rotate and
            the item's rotation) and fits in PX x PX pixels; pending redaction regions
            are red boxes with their labels. Existing files are replaced only with
            --force.

            Examples:
              pdfedit thumbs thumbs/
              pdfedit thumbs previews/ 1..10 --size 400
            """)

    @Argument(help: "The directory to write into (created if missing).")
    var directory: String

    @Argument(help: "Only these items (a selection).")
    var selection: String?

    @OptionGroup var document: DocOption

    @Option(name: .long, help: ArgumentHelp("Each thumbnail fits in PX x PX pixels.", valueName: "PX"))
    var size = SheetOptions.defaultThumbnailSize

    @Flag(name: .long, help: "Replace existing files.")
    var force = false

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            let pages = try selection.map(selecting.parse)
            try SheetOptions.checkThumbnail(size: size)
            let report = try PageEditor.reading(session: options.session, passwords: book) {
                (editor) throws(PDFEditError) in
                try editor.writeThumbnails(
                    intoPath: directory, pages: pages, document: document.doc, size: size, force: force,
                    progress: ProgressBar.handler(options.output))
            }
            if options.output.json {
                Console.json(report)
            } else if !options.output.quiet {
                let count = report.files.count
                Console.out(
                    "wrote \(count) thumbnail\(count == 1 ? "" : "s") of \(shown(report.document)) to \(shown(directory)) "
                        + "(\(report.rendered) rendered, \(report.cached) from cache)")
            }
        }
    }
}
