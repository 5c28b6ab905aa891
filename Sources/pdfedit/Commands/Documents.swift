import ArgumentParser
import Foundation
import PDFEditKit
import PageModel

struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(name: .long, help: "The session file (default: $PDFEDIT_SESSION or .pdfedit/session.json).")
    var session: String?

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            guard !files.isEmpty else { throw PDFEditError.usage("open needs at least one FILE") }
            let workspace = Workspace(sessionPath: session, passwords: try passwords.book())
            let (opened, warnings) = try workspace.open(files, force: force, progress: ProgressBar.handler(output))
            for warning in warnings { Console.error("pdfedit: warning: \(warning)") }
            let summary = DocumentList(session: opened, path: workspace.store.path)
            if output.json {
                Console.json(summary)
            } else if !output.quiet {
                Console.out(
                    "opened \(opened.documents.count) document\(opened.documents.count == 1 ? "" : "s"): "
                        + opened.documents.map { "\($0.name) (\($0.items.count) page\($0.items.count == 1 ? "" : "s"))" }.joined(separator: ", "))
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

/// Session options for commands that only read or change documents.
struct SessionOptions: ParsableArguments {
    @Option(name: .long, help: "The session file (default: $PDFEDIT_SESSION or .pdfedit/session.json).")
    var session: String?

    @OptionGroup var output: OutputOptions
}

struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "List the session's documents.",
        discussion: "Example:\n  pdfedit docs --json")

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let workspace = Workspace(sessionPath: options.session)
            let list = DocumentList(session: try workspace.read(), path: workspace.store.path)
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

struct New: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create an empty document and make it current.",
        discussion: "Example:\n  pdfedit new handout\n  pdfedit copy 1..3 --to 1 --into handout")

    @Argument(help: "The new document's name.")
    var name: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .newDocument(name: name) }
}

struct Use: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Make a document current.",
        discussion: "Example:\n  pdfedit use appendix")

    @Argument(help: "The document.")
    var name: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .useDocument(name: name) }
}

struct Rename: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a document.",
        discussion: "Example:\n  pdfedit rename report final")

    @Argument(help: "The document's name.")
    var old: String

    @Argument(help: "Its new name.")
    var new: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .renameDocument(from: old, to: new) }
}

struct Close: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "close",
        abstract: "Close (remove) a document from the session; undo brings it back.",
        discussion: "Example:\n  pdfedit close scratch")

    @Argument(help: "The document.")
    var name: String

    @OptionGroup var options: EditOptions

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit { .closeDocument(name: name) }
}
