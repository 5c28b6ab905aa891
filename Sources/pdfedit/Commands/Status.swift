import ArgumentParser
import PDFEditKit
import PageModel

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "status",
        abstract: "Show the session file, the current document and sources that changed or vanished.",
        discussion: "Example:\n  pdfedit status")

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let status = try PageEditor.reading(session: options.session) { $0.status() }
            if options.output.json {
                Console.json(status)
                return
            }
            guard !options.output.quiet else { return }
            var lines = [
                "Session:   \(shown(status.session ?? ""))",
                "Current:   \(shown(status.current)) (\(status.documents) document\(status.documents == 1 ? "" : "s"))",
                "History:   \(status.undoSteps) undoable, \(status.redoSteps) redoable",
            ]
            let bad = status.sources.filter { $0.state != .ok }
            lines.append(
                "Sources:   \(status.sources.count), \(bad.isEmpty ? "all unchanged" : "\(bad.count) need relink")")
            for source in bad { lines.append("  \(source.state.rawValue): \(shown(source.path)) (\(source.id))") }
            if let stripped = status.stripped {
                lines.append("Strips:    \(stripped.joined(separator: ", ")) (at export of \(shown(status.current)))")
            }
            if let optimize = status.optimize {
                lines.append("Optimize:  \(optimize.description) (at export of \(shown(status.current)))")
            }
            Console.out(lines.joined(separator: "\n"))
        }
    }
}
