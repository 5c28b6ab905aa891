import ArgumentParser
import PDFEditKit
import PageModel

struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "docs",
        abstract: "List the session's documents.",
        discussion: "Example:\n  pdfedit docs --json")

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let list = try PageEditor.reading(session: options.session) { (editor) in
                DocumentList(session: editor.session, path: editor.sessionFile ?? "")
            }
            if options.output.json {
                Console.json(list)
            } else if !options.output.quiet {
                Console.out(
                    table(
                        ["", "DOCUMENT", "PAGES"],
                        list.documents.map { [$0.current ? "*" : "", $0.name, "\($0.pageCount)"] }))
            }
        }
    }
}

/// `docs --json`, and `open --json`.
struct DocumentList: Encodable {
    struct Entry: Encodable {
        var name: String
        var pageCount: Int
        var current: Bool
    }
    var session: String
    var current: String
    var documents: [Entry]

    init(session: Session, path: String) {
        self.session = path
        current = session.current
        documents = session.documents.map {
            Entry(name: $0.name, pageCount: $0.items.count, current: $0.name == session.current)
        }
    }
}
