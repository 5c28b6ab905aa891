import ArgumentParser
import PDFEditKit
import PageModel

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "undo",
        abstract: "Take back the last K steps (default 1).",
        discussion: "Examples:\n  pdfedit undo\n  pdfedit undo 3")

    @Argument(help: "How many steps.")
    var steps = 1

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let labels = try PageEditor.editing(session: options.session) { (editor) throws(PDFEditError) in
                try editor.undo(steps)
            }
            reportSteps("undid", labels, options.output)
        }
    }
}

/// `undo --json`, `redo --json`.
struct StepsReport: Encodable {
    var action: String
    var steps: [String]
}

/// What undo and redo print: each step they took back or redid.
func reportSteps(_ verb: String, _ labels: [String], _ output: OutputOptions) {
    if output.json {
        Console.json(StepsReport(action: verb == "undid" ? "undo" : "redo", steps: labels))
    } else if !output.quiet {
        for label in labels { Console.out("\(verb): \(shown(label))") }
    }
}
