import ArgumentParser
import PDFEditKit
import PageModel

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach files to the document, list, extract or remove its attachments.",
        discussion: """
            Document-level attachments go in the EmbeddedFiles name tree and the catalog's
            /AF (associated files: PDF/A-3, Factur-X and ZUGFeRD invoices), each with its
            MIME type, dates, size, MD5 checksum and /AFRelationship; with --page P the
            file is shown by a file attachment annotation on that page, and moves with it.
            The sources' own attachments are listed, extracted and removed by name too.
            Names are unique in a document: adding a name that is taken is refused.
            In a session the bytes of an added file are copied beside the session
            (<session>.attachments/), so a later change of the file changes no export.

            Examples:
              pdfedit attach add invoice.xml --relationship Data --description "Factur-X data"
              pdfedit attach add photo.jpg --page 3
              pdfedit attach list --json
              pdfedit attach extract --to out/
              pdfedit attach remove invoice.xml
              pdfedit attach add data.csv in.pdf -o out.pdf
              pdfedit attach extract --to out/ --from in.pdf
            """,
        subcommands: [AttachAdd.self, AttachList.self, AttachExtract.self, AttachRemove.self])
}

struct AttachAdd: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Attach files (one undo step), at document level or on the page at --page.",
        discussion: """
            The name is the file's name (--name gives another, for one FILE); its MIME
            type is guessed from its extension (application/octet-stream otherwise); its
            dates are the file's modification time. A name the document already has
            (an added file or a source's attachment) is refused (64).

            Examples:
              pdfedit attach add invoice.xml --relationship Data
              pdfedit attach add notes.txt --page 1 --description "Reviewer notes"
              pdfedit attach add a.csv b.csv in.pdf -o out.pdf
            """)

    @Argument(help: "The files to attach (in direct mode, followed by the PDF to edit).")
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("The attachment's name (default: the file's name).", valueName: "NAME"))
    var name: String?

    @Option(name: .long, help: ArgumentHelp("Attach to the page at P (a file attachment annotation).", valueName: "P"))
    var page: String?

    @Option(name: .long, help: ArgumentHelp("A description of the file.", valueName: "TEXT"))
    var description: String?

    @Option(
        name: .long,
        help: ArgumentHelp("How it relates to the document (/AFRelationship).", valueName: "Source|Data|Alternative|Supplement|Unspecified"))
    var relationship: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }
    var directInput: String? { isDirect ? files.last : nil }
    var attached: [String] { isDirect ? Array(files.dropLast()) : files }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        var related: AttachmentRelationship?
        if let relationship {
            guard let parsed = AttachmentRelationship(parsing: relationship) else {
                throw PDFEditError.usage(
                    "--relationship takes Source, Data, Alternative, Supplement or Unspecified, not \"\(relationship)\"")
            }
            related = parsed
        }
        var position: Position?
        if let page {
            do throws(SelectionError) { position = try Position.parse(page) } catch { throw PDFEditError.selection(error) }
        }
        return try building.importer.attachEdit(
            attached, name: name, page: position, description: description, relationship: related)
    }
}

struct AttachRemove: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove attachments by name (one undo step): added ones, or the sources' own.",
        discussion: """
            Examples:
              pdfedit attach remove invoice.xml
              pdfedit attach remove old.csv in.pdf -o out.pdf
            """)

    @Argument(help: "The names of the attachments (in direct mode, followed by the PDF to edit).")
    var names: [String] = []

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }
    var directInput: String? { isDirect ? names.last : nil }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .detach(isDirect ? Array(names.dropLast()) : names)
    }
}

struct AttachList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the document's attachments as export will write them.",
        discussion: """
            One line each: name, size, MIME type, relationship, page (- for document
            level), where it comes from ("added" or the source), description. --json
            prints [{"name", "size", "mimeType", "description", "relationship", "page",
            "from"}]. --from FILE lists a file's attachments instead of a session's.

            Examples:
              pdfedit attach list
              pdfedit attach list --json --from invoice.pdf
            """)

    @Option(name: .long, help: "Direct mode: list the attachments of this PDF instead of a session document.")
    var from: String?

    @OptionGroup var document: DocOption
    @OptionGroup var options: SessionOptions
    @OptionGroup var passwords: PasswordOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            let infos: [AttachmentInfo]
            if let from {
                if document.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to --from") }
                infos = try DirectMode(input: from, output: nil, inPlace: false, force: false, passwords: book)
                    .attachments()
            } else {
                infos = try PageEditor.reading(session: options.session, passwords: book) {
                    (editor) throws(PDFEditError) in try editor.attachments(in: document.doc)
                }
            }
            if options.output.json {
                Console.json(infos)
            } else if !options.output.quiet {
                for info in infos {
                    let fields = [
                        info.name, info.size.map(String.init) ?? "-", info.mimeType ?? "-", info.relationship ?? "-",
                        info.page.map(String.init) ?? "-", info.from, info.description ?? "",
                    ]
                    Console.out(fields.map(shown).joined(separator: "\t"))
                }
            }
        }
    }
}

struct AttachExtract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write attachments (all, or those named) into a folder.",
        discussion: """
            Each file is written inside DIR under a plain file name, never a path: "/"
            and "\\" become "_" (../../x is written as .._.._x), control characters
            become "_", and an empty name, "." or ".." becomes "attachment". Two
            attachments that would get one file name are refused (64); an existing file
            is replaced only with --force (73 otherwise). Each file is written
            atomically; nothing is written unless every check passed.

            Examples:
              pdfedit attach extract --to attachments/
              pdfedit attach extract invoice.xml --to . --force
              pdfedit attach extract --to out/ --from in.pdf
            """)

    @Argument(help: "The attachments to extract (default: all).")
    var names: [String] = []

    @Option(name: .long, help: ArgumentHelp("The folder to write them into (made when missing).", valueName: "DIR"))
    var to: String

    @Flag(name: .long, help: "Replace existing files.")
    var force = false

    @Option(name: .long, help: "Direct mode: extract from this PDF instead of a session document.")
    var from: String?

    @OptionGroup var document: DocOption
    @OptionGroup var options: SessionOptions
    @OptionGroup var passwords: PasswordOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            let written: [String]
            if let from {
                if document.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to --from") }
                written = try DirectMode(input: from, output: nil, inPlace: false, force: force, passwords: book)
                    .extractAttachments(names, to: to)
            } else {
                written = try PageEditor.reading(session: options.session, passwords: book) {
                    (editor) throws(PDFEditError) in
                    try editor.extractAttachments(names, toPath: to, force: force, in: document.doc)
                }
            }
            if options.output.json {
                Console.json(written)
            } else if !options.output.quiet {
                for file in written { Console.out("wrote \(shown(file))") }
                if written.isEmpty { Console.out("no attachments to extract") }
            }
        }
    }
}
