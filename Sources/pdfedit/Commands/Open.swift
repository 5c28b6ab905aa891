import ArgumentParser
import PDFEditKit
import PageModel

struct Open: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "open",
        abstract: "Start a session with one document per file.",
        discussion: """
            Each document is named after its file's stem (made unique); the first one is
            current. An existing session in that place is replaced only with --force,
            and the history starts afresh.

            Examples:
              pdfedit open report.pdf appendix.pdf
              pdfedit open --session work/s.json scan.pdf --force
            """)

    @Argument(help: "The PDFs to open.")
    var files: [String]

    @Flag(name: .long, help: "Replace an existing session.")
    var force = false

    @OptionGroup var session: SessionOption
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard !files.isEmpty else { throw PDFEditError.usage("open needs at least one FILE") }
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let (editor, warnings) = try PageEditor.open(
                files, session: session.session, replacing: force, passwords: try passwords.book(),
                progress: ProgressBar.handler(output))
            let opened = editor.session
            Console.warn(warnings)
            let summary = DocumentList(session: opened, path: editor.sessionFile ?? "")
            if output.json {
                Console.json(summary)
            } else if !output.quiet {
                Console.out(
                    "opened \(opened.documents.count) document\(opened.documents.count == 1 ? "" : "s"): "
                        + cappedList(opened.documents.map { "\(shown($0.name)) (\(pagesPhrase($0.items.count)))" }))
            }
        }
    }
}
