import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

/// What an editing command needs to build its edit.
final class EditBuilding {
    /// Direct mode: the names of the documents made from extra files (interleave's OTHER).
    let otherDocuments: [String]
    /// Loads files given as arguments (insert, fill, stamp) into sources.
    let importer: Importer
    /// Set by an insert that skipped files (`--keep-going`): the command ends
    /// with it (exit 3) once its edit is saved.
    var partialImport: PDFEditError?

    init(otherDocuments: [String], importer: Importer) {
        self.otherDocuments = otherDocuments
        self.importer = importer
    }
}

/// An editing command: it only says which `Edit` it means; running it in a
/// session, in direct mode or as a script line is shared.
///
/// The direct-mode rules (a file with -o or --in-place, no --doc) are checked
/// here when the command runs, not in `validate()`: a script line that names a
/// file or -o is refused with the script's own message (`ScriptCommands`).
protocol EditCommand: ParsableCommand {
    var options: EditOptions { get }
    /// Direct-mode options, for the commands that have a direct mode.
    var directOptions: DirectOptions? { get }
    /// Direct mode: the file to edit (the last positional argument).
    var directInput: String? { get }
    /// Direct mode: files that become documents of their own (interleave's OTHER).
    var directDocuments: [String] { get }
    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit
    /// Direct mode: what the command's own options change in the write
    /// (redact's --rasterize-redacted); nothing by default.
    func adjust(_ mode: inout DirectMode) throws(PDFEditError)
}

extension EditCommand {
    var directDocuments: [String] { [] }
    var directOptions: DirectOptions? { nil }
    var directInput: String? { nil }
    var isDirect: Bool { directOptions?.isDirect ?? false }
    func adjust(_ mode: inout DirectMode) throws(PDFEditError) {}

    func run() throws {
        try reporting { () throws(PDFEditError) in try perform() }
    }

    func perform() throws(PDFEditError) {
        let passwords = try options.passwords.book()
        if let direct = directOptions, direct.isDirect {
            // First: --encrypt takes the values after it, also a FILE given after them.
            _ = try direct.encryption.encryption()
            guard let input = directInput else {
                throw PDFEditError.usage("-o/--in-place edit a file: give it as the last argument")
            }
            if options.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to direct mode") }
            var mode = try direct.mode(input: input, passwords: passwords, output: options.output)
            mode.progress = ProgressBar.handler(options.output, .writing)
            try adjust(&mode)
            var building: EditBuilding?
            let (summary, result) = try mode.resolvingStandardStreams { (mode) throws(PDFEditError) in
                try mode.run(otherDocuments: directDocuments) { (_, names, importer) throws(PDFEditError) in
                    let made = EditBuilding(otherDocuments: names, importer: importer)
                    building = made
                    return try edit(made)
                }
            }
            Console.warn(result.warnings)
            // With -o -, standard output carries the PDF and nothing else.
            if direct.output != StandardStreams.name { report(summary, export: result) }
            if let partial = building?.partialImport { throw partial }
        } else {
            if let input = directInput {
                throw PDFEditError.usage("\(input): to edit a file directly, add -o OUT or --in-place")
            }
            try directOptions?.refuseOutsideDirectMode()
            let building = EditBuilding(
                otherDocuments: [], importer: PageEditor.importer(forSession: options.session, passwords: passwords))
            let edit = try edit(building)
            let summary = try PageEditor.editing(session: options.session, passwords: passwords) {
                (editor) throws(PDFEditError) in
                try editor.apply(edit, in: options.doc, label: commandLineLabel())
            }
            report(summary, export: nil)
            if let partial = building.partialImport { throw partial }
        }
    }

    func report(_ summary: ChangeSummary, export: ExportResult?) {
        // `text:`/`empty` matched no page: the edit changed nothing and succeeds
        // (DESIGN.md), saying so on stderr; direct mode still writes its output.
        if summary.unmatched != nil, !options.output.quiet {
            Console.error("pdfedit: \(summary.description)")
        }
        if options.output.json {
            if let export {
                Console.json(DirectReport(change: summary, export: export))
            } else {
                Console.json(summary)
            }
        } else if !options.output.quiet {
            if summary.unmatched == nil { Console.out(shown(summary.description)) }
            if let export { Console.out("wrote \(shown(export.output)) (\(pagesPhrase(export.pageCount)))") }
        }
    }
}

/// Direct mode's `--json`: the change and the file written.
struct DirectReport: Encodable {
    var change: ChangeSummary
    var export: ExportResult
}

/// The command line as the user typed it, for `history` — with passwords replaced
/// by `***`, since the session file must never hold one.
func commandLineLabel(_ arguments: [String] = FileNameText.arguments) -> String {
    let secretOptions: Set<String> = ["--password", "--password-for"]
    // What only changes what this run prints, or which session it edits, is not
    // part of the edit a step records (`history` showed `rotate 2 --by 90 -q`).
    let outputFlags: Set<String> = ["-q", "--quiet", "--json"]
    var words: [String] = []
    var next: (redact: Bool, skip: Bool) = (false, false)
    for argument in arguments {
        if next.redact || next.skip {
            if next.redact { words.append("***") }
            next = (false, false)
            continue
        }
        if secretOptions.contains(argument) {
            next.redact = true
            words.append(argument)
        } else if let equals = argument.firstIndex(of: "="), secretOptions.contains(String(argument[..<equals])) {
            words.append(argument[..<equals] + "=***")
        } else if argument == "--session" {
            next.skip = true
        } else if !outputFlags.contains(argument) && !argument.hasPrefix("--session=") {
            words.append(ScriptText.quotedWord(argument))
        }
    }
    return words.joined(separator: " ")
}
