import ArgumentParser
import Foundation
import PDFEditKit
import PageModel

/// Options every editing command takes, in a session or in direct mode.
struct EditOptions: ParsableArguments {
    @Option(name: .long, help: "The document to edit (default: the current one).")
    var doc: String?

    @Option(name: .long, help: "The session file (default: $PDFEDIT_SESSION or .pdfedit/session.json).")
    var session: String?

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions
}

/// Direct mode: edit one file without a session.
struct DirectOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Direct mode: write the edited FILE here.")
    var output: String?

    @Flag(name: .customLong("in-place"), help: "Direct mode: replace FILE with the result (atomically).")
    var inPlace = false

    @Flag(name: .long, help: "Direct mode: allow -o to replace an existing file.")
    var force = false

    var isDirect: Bool { output != nil || inPlace }
}

/// What an editing command needs to build its edit.
final class EditBuilding {
    /// Direct mode: the names of the documents made from extra files (interleave's OTHER).
    let otherDocuments: [String]
    /// Loads files given as arguments (insert, fill) into sources.
    let importer: Importer
    /// Files a `--keep-going` insert skipped, with their reasons, and how many it was given.
    var skipped: [PDFEditError] = []
    var given = 0

    init(otherDocuments: [String], importer: Importer) {
        self.otherDocuments = otherDocuments
        self.importer = importer
    }

    /// The error that ends a command whose edit succeeded but skipped files (exit 3).
    var partialImport: PDFEditError? {
        skipped.isEmpty ? nil : .partialImport(skipped: skipped, total: given)
    }
}

/// An editing command: it only says which `Edit` it means; running it in a
/// session, in direct mode or as a script line is shared.
protocol EditCommand: ParsableCommand {
    var options: EditOptions { get }
    /// Direct-mode options, for the commands that have a direct mode.
    var directOptions: DirectOptions? { get }
    /// Direct mode: the file to edit (the last positional argument).
    var directInput: String? { get }
    /// Direct mode: files that become documents of their own (interleave's OTHER).
    var directDocuments: [String] { get }
    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit
}

extension EditCommand {
    var directDocuments: [String] { [] }
    var directOptions: DirectOptions? { nil }
    var directInput: String? { nil }
    var isDirect: Bool { directOptions?.isDirect ?? false }

    func run() throws {
        try reporting { () throws(PDFEditError) in try perform() }
    }

    func perform() throws(PDFEditError) {
        let passwords = try options.passwords.book()
        if let direct = directOptions, direct.isDirect {
            guard let input = directInput else {
                throw PDFEditError.usage("-o/--in-place edit a file: give it as the last argument")
            }
            if options.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to direct mode") }
            var mode = DirectMode(
                input: input, output: direct.output, inPlace: direct.inPlace, force: direct.force,
                passwords: passwords)
            mode.progress = ProgressBar.handler(options.output, after: ProgressBar.writingDelay)
            var building: EditBuilding?
            let (summary, result) = try mode.run(otherDocuments: directDocuments) {
                (_, names, importer) throws(PDFEditError) in
                let made = EditBuilding(otherDocuments: names, importer: importer)
                building = made
                return try edit(made)
            }
            for warning in result.warnings { Console.error("pdfedit: warning: \(warning)") }
            report(summary, export: result)
            if let partial = building?.partialImport { throw partial }
        } else {
            if let input = directInput {
                throw PDFEditError.usage("\(input): to edit a file directly, add -o OUT or --in-place")
            }
            let workspace = Workspace(sessionPath: options.session, passwords: passwords)
            let building = EditBuilding(otherDocuments: [], importer: workspace.importer())
            let edit = try edit(building)
            let summary = try workspace.apply(edit, doc: options.doc, label: commandLineLabel())
            report(summary, export: nil)
            if let partial = building.partialImport { throw partial }
        }
    }

    func report(_ summary: ChangeSummary, export: ExportResult?) {
        if options.output.json {
            if let export {
                Console.json(DirectReport(change: summary, export: export))
            } else {
                Console.json(summary)
            }
        } else if !options.output.quiet {
            Console.out(summary.description)
            if let export { Console.out("wrote \(export.output) (\(pagesPhrase(export.pageCount)))") }
        }
    }
}

struct DirectReport: Encodable {
    var change: ChangeSummary
    var export: ExportResult
}

/// The command line as the user typed it, for `history` — with passwords replaced
/// by `***`, since the session file must never hold one.
func commandLineLabel(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
    let secretOptions: Set<String> = ["--password", "--password-for"]
    var redactNext = false
    return arguments.map { argument -> String in
        if redactNext {
            redactNext = false
            return "***"
        }
        if secretOptions.contains(argument) {
            redactNext = true
            return argument
        }
        if let equals = argument.firstIndex(of: "="), secretOptions.contains(String(argument[..<equals])) {
            return argument[..<equals] + "=***"
        }
        return argument.contains(where: { $0 == " " || $0 == "\"" }) || argument.isEmpty
            ? "\"" + argument.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : argument
    }.joined(separator: " ")
}

// MARK: Parsing at the edge

func parseSelection(_ text: String) throws(PDFEditError) -> PageSelection {
    do throws(SelectionError) { return try PageSelection.parse(text) } catch { throw PDFEditError.selection(error) }
}

func parsePosition(_ text: String) throws(PDFEditError) -> Position {
    do throws(SelectionError) { return try Position.parse(text) } catch { throw PDFEditError.selection(error) }
}

func parseSize(_ text: String) throws(PDFEditError) -> PageSizeSpec {
    do throws(SizeError) { return try PageSize.parse(text) } catch { throw PDFEditError.edit(.size(error)) }
}

/// `--to N` / `--before P` / `--after P`: at most one; `required` for move and copy.
struct DestinationOptions: ParsableArguments {
    @Option(name: .customLong("to"), help: ArgumentHelp("The first moved item ends at position N (or last).", valueName: "N"))
    var to: String?

    @Option(name: .customLong("before"), help: ArgumentHelp("Put the block right before item P.", valueName: "P"))
    var before: String?

    @Option(name: .customLong("after"), help: ArgumentHelp("Put the block right after item P.", valueName: "P"))
    var after: String?

    func destination(required: Bool, positionFlag: String = "--to") throws(PDFEditError) -> Destination? {
        let given = [to, before, after].compactMap { $0 }
        if given.count > 1 { throw PDFEditError.usage("give only one of \(positionFlag), --before, --after") }
        if let to { return .position(try parsePosition(to)) }
        if let before { return .before(try parsePosition(before)) }
        if let after { return .after(try parsePosition(after)) }
        if required { throw PDFEditError.usage("say where: \(positionFlag) N, --before P or --after P") }
        return nil
    }
}

/// Like `DestinationOptions`, spelled `--at N` (insert, blank, placeholder).
struct InsertionOptions: ParsableArguments {
    @Option(name: .customLong("at"), help: ArgumentHelp("The first new item ends at position N (default: the end).", valueName: "N"))
    var at: String?

    @Option(name: .customLong("before"), help: ArgumentHelp("Insert right before item P.", valueName: "P"))
    var before: String?

    @Option(name: .customLong("after"), help: ArgumentHelp("Insert right after item P.", valueName: "P"))
    var after: String?

    func destination() throws(PDFEditError) -> Destination? {
        try DestinationOptions(to: at, before: before, after: after).destination(required: false, positionFlag: "--at")
    }
}

extension DestinationOptions {
    init(to: String?, before: String?, after: String?) {
        self.init()
        self.to = to
        self.before = before
        self.after = after
    }
}
