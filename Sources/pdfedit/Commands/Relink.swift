import ArgumentParser
import PDFEditKit
import PageModel

struct Relink: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "relink",
        abstract: "Point the session at a source that moved, changed (--force), or gained or lost pages (--rebase).",
        discussion: """
            OLD is the source's id (s1, shown by status) or its path. NEW must have
            the same content unless --force. One undo step.

            --rebase maps the session onto a new version of the source that gained or
            lost pages: its pages are paired with the new version's by content, as diff
            pairs them, and every item keeps its id and shows its page in the new
            version. An item whose page is not in the new version becomes a placeholder
            saying what it was (export names it until it is filled or removed); a stamp
            of such a page is removed. Each is reported. The old version is read from
            OLD's file when it is still there unchanged, else from what the session read
            of its pages; NEW omitted means the source's own file, regenerated in place.

            Examples:
              pdfedit relink report.pdf archive/report.pdf
              pdfedit relink s2 report-v2.pdf --force
              pdfedit relink --rebase report.pdf report-march.pdf
              pdfedit relink --rebase report.pdf
            """)

    @Argument(help: "The source: its id (s1) or its path.")
    var old: String

    @Argument(help: "The file it now is (with --rebase, default: OLD's own file).")
    var new: String?

    @Flag(name: .long, help: "Accept a file whose content differs.")
    var force = false

    @Flag(name: .long, help: "Map the session onto a new version that gained or lost pages, by content.")
    var rebase = false

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func validate() throws {
        if new == nil && !rebase { throw PDFEditError.usage("give the file the source now is: relink OLD NEW") }
        if rebase && force { throw PDFEditError.usage("--rebase and --force do not go together") }
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            if rebase {
                let report = try PageEditor.editing(session: options.session, passwords: book) {
                    (editor) throws(PDFEditError) in
                    try editor.rebase(old, ontoPath: new, label: commandLineLabel())
                }
                if options.output.json {
                    Console.json(report)
                    return
                }
                Console.warn(report.warnings)
                if !options.output.quiet { Console.out(shown(report.summary.description)) }
                return
            }
            guard let new else { return }
            let summary = try PageEditor.editing(session: options.session, passwords: book) {
                (editor) throws(PDFEditError) in
                try editor.relink(old, toPath: new, force: force, label: commandLineLabel())
            }
            if options.output.json {
                Console.json(summary)
            } else if !options.output.quiet {
                Console.out(shown(summary.description))
            }
        }
    }
}
