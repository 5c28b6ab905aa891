import Foundation
import Testing

/// Help texts read well at 80 columns, and the committed man page is the one
/// `make man` makes from them, with the sections the help does not carry.
@Suite struct HelpAndManPageTests {
    static let page = Paths.root.appendingPathComponent("docs/pdfedit.1").path

    static func subcommands() throws -> [String] {
        let help = try pdfedit("--help").stdout
        // Every group's commands (EDITING, AUTHORING, …), not only the last group's.
        let listed = help.components(separatedBy: "SUBCOMMANDS:").dropFirst().joined(separator: "\n")
        // A command's name is lower case (and `-`): the closing "  See 'pdfedit help …'" is not one.
        return listed.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }.filter { $0 != "help" && $0.allSatisfy { $0.isLowercase || $0 == "-" } }
    }

    /// A discussion line as long as the help width, followed by more of its
    /// paragraph, shows as a stray break (relink's "same" alone on its line).
    @Test func noStrayLineBreaksAt80Columns() throws {
        let commands = try Self.subcommands()
        #expect(commands.contains("relink") && commands.count > 20, "\(commands)")
        for command in [[]] + commands.map({ [$0] }) {
            let help = try pdfedit(args: command + ["--help"], environment: ["COLUMNS": "1000"]).stdout
            let lines = (help.components(separatedBy: "\nUSAGE:").first ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) where line.count >= 80 {
                #expect(next.isEmpty || next.hasPrefix(" "), "\(command): \"\(line)\" then \"\(next)\"")
            }
        }
    }

    @Test func showHelpSaysImagesAreDrawn() throws {
        let help = try pdfedit("show", "--help", environment: ["COLUMNS": "1000"]).stdout
        #expect(help.contains("Images are drawn as export places them"))
        #expect(!help.contains("images are dashed frames") && !help.contains("placeholders and images are"))
    }

    /// The page records a digest of the help, its extra sections and the script that
    /// finishes it: a help text changed without `make man` fails here.
    @Test func manPageIsMadeFromTheCurrentHelp() throws {
        let check = try run("python3", [
            Paths.root.appendingPathComponent("scripts/man-page.py").path, "--check", Self.page, Paths.binary,
        ])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func manPageHasNoWarningsAndKeepsItsCharacters() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        #expect(text.contains("rotate\\[u2026] (each one undoable)"))
        #expect(text.isASCII())
        guard FileManager.default.fileExists(atPath: "/usr/bin/man") else {
            Issue.record("man is not installed (make setup installs man-db)")
            return
        }
        let warnings = try run("/usr/bin/man", ["--warnings", "-l", Self.page], environment: ["MANPAGER": "cat"])
        #expect(warnings.status == 0)
        #expect(warnings.stderr.isEmpty, "\(warnings.stderr)")
        #expect(warnings.stdout.contains("rotate… (each"))
    }

    /// The help's "See man pdfedit for …" points at the page's own sections in the
    /// page itself (issue 40, item 43: `man pdfedit` said "see man pdfedit").
    @Test func manPageDoesNotSendTheReaderToItself() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        #expect(!text.lowercased().contains("see man pdfedit"))
        #expect(text.contains("The SELECTIONS, ENVIRONMENT and EXIT STATUS sections below give"))
        #expect(try pdfedit("--help", environment: ["COLUMNS": "1000"]).stdout.contains("See man pdfedit for selections"))
    }

    /// ENVIRONMENT names every variable the sources read; EXIT STATUS has the table.
    @Test func manPageDocumentsEnvironmentAndExitStatus() throws {
        let text = try String(contentsOfFile: Self.page, encoding: .utf8)
        let environment = text.components(separatedBy: ".Sh ENVIRONMENT").last?.components(separatedBy: ".Sh ").first ?? ""
        for variable in try Self.variablesRead() {
            #expect(environment.contains(".It Ev \(variable)\n"), "\(variable) is read but not in ENVIRONMENT")
        }
        // One EXIT STATUS section (the plugin's generic one is replaced, not kept beside it).
        let headings = text.split(separator: "\n").filter { $0.hasPrefix(".Sh") }
        #expect(headings.filter { $0.contains("EXIT STATUS") }.count == 1, "\(headings)")
        #expect(!text.contains(".Ex -std"))
        let exitStatus = text.components(separatedBy: ".Sh EXIT STATUS").last ?? ""
        for code in ["0", "1", "3", "64", "65", "66", "71", "73", "75", "77", "130, 143", "141"] {
            #expect(exitStatus.contains(".It \(code)\n"), "exit \(code)")
        }
        #expect(text.contains(".Sh SELECTIONS"))
    }

    /// `environment["X"]` and `"PDFEDIT_…"` literals in Swift, `getenv("X")` in C++, and COLUMNS.
    static func variablesRead() throws -> Set<String> {
        var found: Set<String> = ["COLUMNS"]
        let sources = Paths.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let pattern = try NSRegularExpression(pattern: #"(?:getenv\(|environment\[|")(PDFEDIT_[A-Z_]+)""#)
        for file in files where ["swift", "cpp", "c"].contains(file.pathExtension) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { found.insert(String(text[range])) }
            }
        }
        return found
    }
}

extension String {
    fileprivate func isASCII() -> Bool { unicodeScalars.allSatisfy(\.isASCII) }
}
