import ArgumentParser
import PDFEditKit
import PageModel

struct History: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "history",
        abstract: "List the undo history, oldest first (undone steps are marked), or print it as a script.",
        discussion: """
            --script prints the steps done (or steps N..M) as a script that run and apply
            accept, one command line per step, to replay a session's fix-ups on next
            month's files: pdfedit history --script > fixes.txt, then pdfedit apply
            fixes.txt new/*.pdf -o 'out/{name}'. A step that cannot be a script line (edit,
            made in an editor) is written as a comment. An id (@p12), which means nothing
            in another file, becomes the page's label (label:"iv") or a line of its text
            (text:"Annual report") when that picks exactly the same page in this session,
            said in a comment; otherwise the step is kept with a warning comment above it.

            Examples:
              pdfedit history
              pdfedit history --script
              pdfedit history --script 2..5 > fixes.txt
            """)

    @Flag(name: .long, help: "Print the steps as a script for run and apply.")
    var script = false

    @Argument(help: ArgumentHelp("With --script: the steps N..M (default: every step done).", valueName: "N..M"))
    var steps: String?

    @OptionGroup var options: SessionOptions

    func validate() throws {
        if steps != nil && !script { throw PDFEditError.usage("a range of steps goes with --script") }
        if script && options.output.json { throw PDFEditError.usage("--script and --json do not go together") }
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let editor = try PageEditor.reading(session: options.session) { $0 }
            let entries = editor.session.historyEntries
            if script {
                let replay = try editor.historyScript(
                    of: .text(steps), isScriptLine: { label in (try? ScriptCommands.parse(label, name: "history")) != nil })
                Console.out(replay.text)
                let warned = replay.warnings
                if warned > 0 && !options.output.quiet {
                    Console.error("pdfedit: \(warned == 1 ? "1 step names" : "\(warned) steps name") items by id: see the warnings in the script")
                }
            } else if options.output.json {
                Console.json(entries)
            } else if !options.output.quiet {
                if entries.isEmpty { Console.out("no steps yet") }
                let width = String(entries.count).count
                for entry in entries {
                    let number = String(entry.index).padded(to: width)
                    Console.out("\(number)  \(shown(entry.label))\(entry.isUndone ? "   (undone)" : "")")
                }
            }
        }
    }
}
