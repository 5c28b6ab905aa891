import ArgumentParser
import PDFEditKit
import PageModel

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "run",
        abstract: "Apply a script of editing commands as one all-or-nothing step.",
        discussion: """
            One editing command per line, as on the command line without `pdfedit`;
            `#` starts a comment. Each line sees the positions left by the line before.
            Any failing line cancels the whole script (nothing is applied) and names its
            line. The script is one undo step. Commands that do not edit the session
            (export, show, open, run, undo…) and direct mode are refused (exit 64).

            Example script:
              # put the summary first and drop the blank pages
              move 7 --to 1
              remove 12,14
              rotate even --by 90

              pdfedit run fix.txt
              pdfedit run - < fix.txt
            """)

    @Argument(help: "The script file, or - for stdin.")
    var script: String

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let (name, text) = try ScriptText.read(script)
            let book = try passwords.book()
            let lines = try ScriptCommands.parse(text, name: name)
            let steps = try ScriptCommands.steps(lines, name: name, passwords: book) { lineBook in
                PageEditor.importer(forSession: options.session, passwords: lineBook)
            }
            let summaries = try PageEditor.editing(session: options.session, passwords: book) {
                (editor) throws(PDFEditError) in
                try editor.run(steps, script: name)
            }
            if options.output.json {
                Console.json(summaries)
            } else if !options.output.quiet {
                for summary in summaries { Console.out(shown(summary.description)) }
                Console.out("applied \(summaries.count) command\(summaries.count == 1 ? "" : "s") as one step")
            }
        }
    }
}
