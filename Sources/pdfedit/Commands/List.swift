import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct List: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "list",
        abstract: "List a document's page items: position, id, kind, source, size, rotation, label, text.",
        discussion: """
            LABEL is the page label from the source's /PageLabels (shown when a source
            has them); TEXT the first words of the page's text, extracted once and
            cached in the session's cache folder (--no-text skips it).
            A sheet (nup, booklet) shows its cells' item ids in the SOURCE column
            (- for an empty cell); --json gives them as "cells".

            Examples:
              pdfedit list
              pdfedit list 1..5 --doc appendix --json
            """)

    @Argument(help: "Only these items (a selection).")
    var selection: String?

    @OptionGroup var document: DocOption

    @Flag(name: .customLong("no-text"), help: "Skip the page text (faster on long documents the first time).")
    var noText = false

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            let pages = try selection.map(selecting.parse)
            let listing = try PageEditor.reading(session: options.session, passwords: book) {
                (editor) throws(PDFEditError) in
                try editor.list(
                    doc: document.doc, selection: pages, includeText: !noText,
                    progress: ProgressBar.handler(options.output))
            }
            if options.output.json {
                Console.json(listing)
                return
            }
            guard !options.output.quiet else { return }
            let hasLabels = listing.items.contains { $0.label != nil }
            let hasStamps = listing.items.contains { $0.stamps != nil }
            let hasFinish = listing.items.contains { $0.finish != nil }
            let rows = listing.items.map { item -> [String] in
                let size = item.width.map { "\(format($0)) x \(format(item.height ?? 0))" } ?? "?"
                var source = item.source.map { Paths.name(of: $0) } ?? ""
                if let label = item.placeholderLabel { source = "\"\(label)\"" }
                if let cells = item.cells { source = "cells " + cells.map { $0 ?? "-" }.joined(separator: ",") }
                let page = item.sourcePage.map(String.init) ?? ""
                return ["\(item.position)", item.id, item.kind, source, page, size, "\(item.rotation)"]
                    + (hasLabels ? [item.label ?? ""] : []) + (hasStamps ? [stampMarker(item.stamps ?? [])] : [])
                    + (hasFinish ? [(item.finish ?? []).joined(separator: ", ")] : []) + (noText ? [] : [item.text ?? ""])
            }
            let header =
                ["POS", "ID", "KIND", "SOURCE", "PAGE", "SIZE (pt)", "ROT"]
                + (hasLabels ? ["LABEL"] : []) + (hasStamps ? ["STAMPS"] : []) + (hasFinish ? ["AT EXPORT"] : []) + (noText ? [] : ["TEXT"])
            Console.out("\(shown(listing.document)): \(pagesPhrase(listing.pageCount))")
            if !rows.isEmpty { Console.out(table(header, rows)) }
            let signed = signatureLines(listing.signatures)
            if !signed.isEmpty { Console.out(signed.joined(separator: "\n")) }
        }
    }
}
