import ArgumentParser
import PDFEditKit
import PageModel

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "redo",
        abstract: "Redo the last K undone steps (default 1).",
        discussion: "Examples:\n  pdfedit redo\n  pdfedit redo 2")

    @Argument(help: "How many steps.")
    var steps = 1

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let labels = try PageEditor.editing(session: options.session) { (editor) throws(PDFEditError) in
                try editor.redo(steps)
            }
            reportSteps("redid", labels, options.output)
        }
    }
}
