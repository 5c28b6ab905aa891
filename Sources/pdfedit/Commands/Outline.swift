import ArgumentParser
import PDFEditKit
import PageModel

struct Outline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outline",
        abstract: "Show or edit the document's bookmarks (outline).",
        discussion: """
            Bookmarks point at page items, so `move` carries a bookmark with its page;
            `remove` turns a bookmark whose page is gone into a heading if entries remain
            under it, else removes it; `duplicate` and `copy` leave it on the original.
            PATH names an entry by its titles joined by "/" (a "/" inside a title is
            written "\\/"); a PATH that matches two siblings is an error.

            Examples:
              pdfedit outline
              pdfedit outline add "Results" 12 --parent "Part 2"
              pdfedit outline rename "Part 2/Results" "Findings"
              pdfedit outline import toc.txt in.pdf -o out.pdf
            """,
        subcommands: [
            OutlineShow.self, OutlineAdd.self, OutlineRemove.self, OutlineRename.self, OutlineClear.self,
            OutlineImport.self, OutlineExport.self,
        ],
        defaultSubcommand: OutlineShow.self)
}

struct OutlineShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the outline as export will write it (TITLE<TAB>POSITION, two spaces a level).",
        discussion: """
            A heading has no position. --json prints [{"title", "position", "id",
            "children"}] (a heading's position and id are null), what `outline export`
            writes and `outline import` reads. Not allowed in a `run` script.

            Examples:
              pdfedit outline
              pdfedit outline --json --doc report
            """)

    @OptionGroup var document: DocOption
    @OptionGroup var options: SessionOptions
    @OptionGroup var passwords: PasswordOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let (_, entries) = try PageEditor.reading(session: options.session, passwords: try passwords.book()) {
                (editor) throws(PDFEditError) in try editor.outline(doc: document.doc)
            }
            if options.output.json {
                Console.json(entries)
            } else if !options.output.quiet && !entries.isEmpty {
                Console.out(OutlineFile.text(entries))
            }
        }
    }
}

struct OutlineAdd: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a bookmark to the item at P (the last child of --parent, or the last top-level entry).",
        discussion: """
            Examples:
              pdfedit outline add "Introduction" 1
              pdfedit outline add "Methods" @p14 --parent "Part 1"
              pdfedit outline add "Index" last in.pdf -o out.pdf
            """)

    @Argument(help: "The bookmark's title (Unicode).")
    var title: String

    @Argument(help: "The position (or @ID) of the item it goes to.")
    var position: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("The entry it goes under.", valueName: "PATH"))
    var parent: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .outline(.add(title: title, at: try parsePosition(position), parent: parent))
    }
}

struct OutlineRemove: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a bookmark and the entries under it.",
        discussion: """
            Examples:
              pdfedit outline remove "Part 2/Draft notes"
            """)

    @Argument(help: ArgumentHelp("The entry (titles joined by /).", valueName: "path"))
    var path: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .outline(.remove(path: path))
    }
}

struct OutlineRename: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Give a bookmark a new title.",
        discussion: """
            Examples:
              pdfedit outline rename "Part 2/Results" "Findings"
            """)

    @Argument(help: ArgumentHelp("The entry (titles joined by /).", valueName: "path"))
    var path: String

    @Argument(help: "The new title.")
    var title: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .outline(.rename(path: path, title: title))
    }
}

struct OutlineClear: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every bookmark of the document.",
        discussion: """
            Examples:
              pdfedit outline clear
              pdfedit outline clear in.pdf --in-place
            """)

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .outline(.clear)
    }
}

struct OutlineImport: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Replace the outline with the one in FILE (JSON, or TITLE<TAB>POSITION lines).",
        discussion: """
            FILE is the JSON of `outline --json` (positions resolved against the current
            order; a null position is a heading), or text with one entry per line,
            TITLE<TAB>POSITION, indented by two spaces per level (a line without a tab is
            a heading).

            Examples:
              pdfedit outline import toc.json
              pdfedit outline import toc.txt in.pdf -o out.pdf
            """)

    @Argument(help: "The outline file.")
    var file: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .outline(.replace(try OutlineFile.read(file)))
    }
}

struct OutlineExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the outline as JSON (what `outline --json` prints) to FILE.",
        discussion: """
            Not allowed in a `run` script.

            Examples:
              pdfedit outline export toc.json
            """)

    @Argument(help: "The JSON file to write.")
    var file: String

    @Flag(name: .long, help: "Replace an existing file.")
    var force = false

    @OptionGroup var document: DocOption
    @OptionGroup var options: SessionOptions
    @OptionGroup var passwords: PasswordOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let count = try PageEditor.reading(session: options.session, passwords: try passwords.book()) {
                (editor) throws(PDFEditError) in try editor.exportOutline(doc: document.doc, to: file, force: force)
            }
            if !options.output.quiet && !options.output.json {
                Console.out("wrote \(shown(file)) (\(count == 1 ? "1 entry" : "\(count) entries"))")
            }
        }
    }
}
