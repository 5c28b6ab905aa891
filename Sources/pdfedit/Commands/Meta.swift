import ArgumentParser
import PDFEditKit
import PageModel

struct Meta: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "meta",
        abstract: "Show or set the document's metadata (title, author, subject, keywords).",
        discussion: """
            Without options it shows the metadata export will write: the values set here,
            else those of the first page's source, with its creator, producer and dates
            (--json for all of them, null when absent); it does not edit, so it is refused
            in `run`. With --title, --author, --subject or --keywords it sets them (one
            undo step); an empty value removes one. Export writes them to the document
            information dictionary and the XMP packet alike.

            Examples:
              pdfedit meta
              pdfedit meta --json
              pdfedit meta --title "Annual report 2024" --author "Ann Lee"
              pdfedit meta --keywords ""                  # remove the keywords
              pdfedit meta --title T in.pdf --in-place
            """)

    @Option(name: .long, help: ArgumentHelp("Set the title (empty: remove it).", valueName: "TEXT"))
    var title: String?
    @Option(name: .long, help: ArgumentHelp("Set the author (empty: remove it).", valueName: "TEXT"))
    var author: String?
    @Option(name: .long, help: ArgumentHelp("Set the subject (empty: remove it).", valueName: "TEXT"))
    var subject: String?
    @Option(name: .long, help: ArgumentHelp("Set the keywords (empty: remove them).", valueName: "TEXT"))
    var keywords: String?

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    var fields: DocumentMetadata {
        DocumentMetadata(title: title, author: author, subject: subject, keywords: keywords)
    }

    /// Without a field to set, `meta` shows the metadata and edits nothing.
    var isShowing: Bool { fields.isEmpty }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            guard isShowing else { return try perform() }
            if isDirect || directInput != nil {
                throw PDFEditError.usage("meta shows a session document's metadata; give --title, --author, "
                    + "--subject or --keywords to set them in a file")
            }
            let report = try PageEditor.reading(session: options.session, passwords: try options.passwords.book()) {
                (editor) throws(PDFEditError) in try editor.metadata(doc: options.doc)
            }
            if options.output.json {
                Console.json(report)
            } else if !options.output.quiet {
                for (label, value) in report.fields {
                    Console.out(label.padded(to: 10) + (value.map(shown) ?? "-"))
                }
            }
        }
    }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        guard !isShowing else {
            throw PDFEditError.usage("\"meta\" without --title, --author, --subject or --keywords does not edit; "
                + "not allowed in a script")
        }
        return .metadata(fields)
    }
}
