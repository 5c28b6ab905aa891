import ArgumentParser
import PDFEditKit
import PageModel

struct Relink: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "relink",
        abstract: "Point the session at a source that moved (or, with --force, changed).",
        discussion: """
            OLD is the source's id (s1, shown by status) or its path. NEW must have
            the same content unless --force. One undo step.

            Examples:
              pdfedit relink report.pdf archive/report.pdf
              pdfedit relink s2 report-v2.pdf --force
            """)

    @Argument(help: "The source: its id (s1) or its path.")
    var old: String

    @Argument(help: "The file it now is.")
    var new: String

    @Flag(name: .long, help: "Accept a file whose content differs.")
    var force = false

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let workspace = Workspace(sessionPath: options.session, passwords: try passwords.book())
            let summary = try workspace.relink(old, to: new, force: force, label: commandLineLabel())
            if options.output.json {
                Console.json(summary)
            } else if !options.output.quiet {
                Console.out(shown(summary.description))
            }
        }
    }
}
