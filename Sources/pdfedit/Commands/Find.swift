import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "find",
        abstract: "List the items whose page text contains TEXT.",
        discussion: """
            Matching is the text:WORDS selection rule: case-insensitive, and any run of
            whitespace (spaces, line breaks) counts as one space, so `pdfedit find X`
            and `text:X` select the same items. --match-case compares case too.
            Page texts are extracted once (poppler) and cached in the session's cache
            folder. Finding nothing is not an error.

            Examples:
              pdfedit find "Annual report"
              pdfedit find invoice --doc scans --json
            """)

    @Argument(help: "The text to look for.")
    var text: String

    @OptionGroup var document: DocOption

    @Flag(name: [.short, .customLong("ignore-case")], help: "Ignore case (the default, as for text:).")
    var ignoreCase = false

    @Flag(name: .customLong("match-case"), help: "Match case exactly.")
    var matchCase = false

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func validate() throws {
        if ignoreCase && matchCase {
            throw PDFEditError.usage("give either --ignore-case or --match-case, not both")
        }
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            try PageEditor.checkFind(text)
            let report = try PageEditor.reading(session: options.session, passwords: book) {
                (editor) throws(PDFEditError) in
                try editor.find(
                    text, doc: document.doc, caseSensitive: matchCase, progress: ProgressBar.handler(options.output))
            }
            if options.output.json {
                Console.json(report)
                return
            }
            guard !options.output.quiet else { return }
            let count = report.matches.count
            guard count > 0 else {
                Console.out("\(shown(report.document)): no page contains \"\(shown(report.query))\"")
                return
            }
            Console.out(
                "\(shown(report.document)): \(count) page\(count == 1 ? "" : "s") contain\(count == 1 ? "s" : "") "
                    + "\"\(shown(report.query))\""
            )
            let hasLabels = report.matches.contains { $0.label != nil }
            let rows = report.matches.map { match -> [String] in
                let source =
                    match.source.map { Paths.name(of: $0) + " p.\(match.sourcePage ?? 0)" } ?? ""
                return ["\(match.position)", match.id, source] + (hasLabels ? [match.label ?? ""] : []) + [
                    match.excerpt
                ]
            }
            Console.out(table(["POS", "ID", "SOURCE"] + (hasLabels ? ["LABEL"] : []) + ["TEXT"], rows))
        }
    }
}
