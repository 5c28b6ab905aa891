import ArgumentParser
import PDFEditKit
import PageModel

/// What `strip` removes.
enum StripTarget: String, CaseIterable, ExpressibleByArgument {
    case annotations, links, fields, javascript, attachments, metadata, thumbnails, structure

    /// The document-level part, nil for what pages carry.
    var documentPart: DocumentPart? {
        switch self {
        case .javascript: .javascript
        case .attachments: .attachments
        case .metadata: .metadata
        case .structure: .structure
        case .annotations, .links, .fields, .thumbnails: nil
        }
    }
}

struct Strip: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "strip",
        abstract: "Remove what a published document should not carry (at export).",
        discussion: """
            Of pages (SEL, default all): `annotations` (every annotation; --type narrows to \
            subtypes such as Link,Highlight,Text,Widget), `links`, `fields` (form fields and their \
            widgets), `thumbnails` (embedded page thumbnails). Of the whole document (no \
            selection): `javascript` (document scripts, open and document actions, and the \
            JavaScript actions of pages, links, fields and bookmarks), `attachments` (embedded \
            files and file attachment annotations), `metadata` (the document information \
            dictionary and XMP; values set with `meta` afterwards are written anew), `structure` \
            (the tags: the structure tree and marked-content references; a PDF/UA claim goes too).

            In a session it is one undo step, carried out by export. In direct mode \
            `strip metadata` says which entries the file had.

            Examples:
              pdfedit strip annotations --type Link,Highlight
              pdfedit strip links 3..5
              pdfedit strip metadata
              pdfedit strip javascript in.pdf -o clean.pdf
              pdfedit strip fields form.pdf --in-place
            """)

    @Argument(help: "What to remove.")
    var target: StripTarget

    @Argument(help: "The pages (default: all; not for document-level parts).")
    var selection: String?

    @Argument(help: .directModeFile)
    var file: String?

    @Option(
        name: .long,
        help: ArgumentHelp("With annotations: only these subtypes (e.g. Link,Highlight; repeatable).", valueName: "subtypes"))
    var type: [String] = []

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    var directInput: String? { DirectArguments.file(selection, file, direct: direct.isDirect) }

    /// The subtypes of --type, commas and repeats alike, without a leading slash.
    var subtypes: [String] {
        var seen: Set<String> = []
        return type.flatMap { $0.split(separator: ",") }
            .map { $0.hasPrefix("/") ? String($0.dropFirst()) : String($0) }
            .filter { seen.insert($0).inserted }
    }

    /// Direct mode's `strip metadata` says which entries of the file's document
    /// information went (read before the file is replaced), after the usual lines.
    func run() throws {
        try reporting { () throws(PDFEditError) in
            var removed: String?
            if target == .metadata, isDirect, let input = directInput, input != StandardStreams.name,
                direct.output != StandardStreams.name, !options.output.json, !options.output.quiet
            {
                let keys = try FileInfo.informationKeys(path: input, passwords: try options.passwords.book())
                removed = keys.isEmpty
                    ? "removed: no document information; the XMP packet, if any"
                    : "removed: document information (\(keys.joined(separator: ", "))) and the XMP packet, if any"
            }
            try perform()
            if let removed { Console.out(removed) }
        }
    }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let given = DirectArguments.selection(selection, file, direct: direct.isDirect)
        if !type.isEmpty && target != .annotations {
            throw PDFEditError.usage("--type goes with strip annotations")
        }
        if let part = target.documentPart {
            if let given {
                throw PDFEditError.usage(
                    "strip \(target.rawValue) removes a part of the whole document: it takes no selection (got \(given))")
            }
            return .strip(part)
        }
        let pages = try given.map(selecting.parse) ?? .all
        let finish: PageFinish =
            switch target {
            case .links: .stripAnnotations(types: ["Link"])
            case .fields: .stripAnnotations(types: ["Widget"])
            case .thumbnails: .stripThumbnails
            default: .stripAnnotations(types: subtypes)
            }
        return .finish(pages, finish)
    }
}
