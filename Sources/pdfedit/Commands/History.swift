import ArgumentParser
import PDFEditKit
import PageModel

struct History: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "history",
        abstract: "List the undo history, oldest first (undone steps are marked).",
        discussion: "Example:\n  pdfedit history")

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let entries = try Workspace(sessionPath: options.session).read().historyEntries
            if options.output.json {
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
