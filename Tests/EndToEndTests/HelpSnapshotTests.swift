import Foundation
import Testing

/// `pdfedit --help` and `pdfedit help CMD` of every command, at 80 columns, are
/// the committed texts in `Snapshots/` (help-pdfedit.txt, help-CMD.txt): a help
/// text that changes by accident (an option group reordered, a default spelled
/// differently) fails here; one that changes on purpose is refreshed with
///
///     PDFEDIT_UPDATE_SNAPSHOTS=1 PDFEDIT_BIN=$PWD/.build/debug/pdfedit swift test --filter HelpSnapshotTests
///
/// (then `make man`, which the man page test asks for) and reviewed in the diff.
@Suite struct HelpSnapshotTests {
    static let folder = Paths.root.appendingPathComponent("Tests/EndToEndTests/Snapshots")
    static let updating = ProcessInfo.processInfo.environment["PDFEDIT_UPDATE_SNAPSHOTS"] == "1"

    /// Every command, in the order of `pdfedit --help`.
    static let commands = [
        "merge", "split", "open", "docs", "status", "history", "list", "find", "show", "thumbs", "info", "diff", "export", "optimize", "render",
        "new", "use", "rename", "close", "move", "copy", "duplicate", "remove", "rotate", "reverse", "edit", "interleave",
        "blank", "insert", "placeholder", "fill", "stamp", "unstamp", "number", "bates", "watermark", "crop", "split-page", "resize", "nup", "booklet", "pad", "outline", "relink", "undo", "redo", "run", "apply",
        "labels", "meta", "attach", "flatten", "strip", "redact",
    ]

    static func help(_ arguments: [String]) throws -> String {
        let result = try pdfedit(args: arguments, environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    static func compare(_ text: String, with name: String) throws {
        let file = folder.appendingPathComponent(name)
        if updating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("\(name) is missing: run with PDFEDIT_UPDATE_SNAPSHOTS=1 to write it")
            return
        }
        #expect(text == expected, "\(name) differs from the help; PDFEDIT_UPDATE_SNAPSHOTS=1 refreshes it")
    }

    @Test func topLevelHelp() throws {
        try Self.compare(try Self.help(["--help"]), with: "help-pdfedit.txt")
    }

    @Test(arguments: commands) func commandHelp(_ command: String) throws {
        let text = try Self.help(["help", command])
        // `pdfedit CMD --help` is the same text as `pdfedit help CMD`.
        #expect(try Self.help([command, "--help"]) == text, "\(command)")
        try Self.compare(text, with: "help-\(command).txt")
    }

    /// The list above is every command the help lists, and there is no snapshot of
    /// a command that went.
    @Test func everyCommandHasASnapshot() throws {
        let help = try Self.help(["--help"])
        // The command lines of every "… SUBCOMMANDS:" section: "  NAME   abstract".
        let sections = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst()
        let listed = sections.flatMap { section in
            section.components(separatedBy: "\n\n")[0].split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
                return line.split(separator: " ").first.map(String.init)
            }
        }.filter { $0 != "help" }
        #expect(listed == Self.commands)
        guard !Self.updating else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasPrefix("help-") }
        #expect(Set(files) == Set(["help-pdfedit.txt"] + Self.commands.map { "help-\($0).txt" }))
    }
}
