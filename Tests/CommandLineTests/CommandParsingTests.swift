import ArgumentParser
import PDFEditKit
import Testing

@testable import pdfedit

/// `PDFEdit.parseCommand` parses a line that starts with a command without
/// subcommands by that command alone (`parsedByItsCommand`), and anything else
/// from the root. Both must give the same command, with the same values, for
/// every line, and refuse the same lines.
@Suite struct CommandParsingTests {
    /// The example lines of every command's help (the "pdfedit …" lines of its
    /// discussion), as words without "pdfedit"; `perCommand` limits how many of
    /// each command's are taken (a parse from the root takes a tenth of a second
    /// in a debug build).
    static func exampleLines(perCommand: Int = .max) -> [[String]] {
        var lines: [[String]] = []
        for command in PDFEdit.configuration.subcommands {
            for commandType in [command] + command.configuration.subcommands {
                let examples = commandType.configuration.discussion.split(separator: "\n").compactMap { line in
                    let text = line.trimmingPrefix(while: { $0 == " " })
                    return text.hasPrefix("pdfedit ") ? shellWords(String(text)).map { Array($0.dropFirst()) } : nil
                }
                lines += examples.prefix(perCommand)
            }
        }
        return lines
    }

    /// `text` split as `run` splits a script line; nil for a line with a pipe,
    /// a redirection or a substitution, which is not one command's words.
    static func shellWords(_ text: String) -> [String]? {
        guard !text.contains(where: { "|<>$`;&".contains($0) }) else { return nil }
        return try? ScriptText.words(text)
    }

    /// The command's type and every value it holds, as `dump` writes them.
    static func described(_ command: ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    /// What a line parses to, or the error it gives (with ArgumentParser's message for it).
    static func outcome(_ parse: ([String]) throws -> ParsableCommand, _ words: [String]) -> String {
        do { return described(try parse(words)) } catch {
            return "error \(error): \(PDFEdit.fullMessage(for: error))"
        }
    }

    /// The first two example lines of each command parse to the same command and
    /// values by the command alone as from the root; a command with subcommands
    /// (outline) is always parsed from the root.
    @Test(arguments: exampleLines(perCommand: 2))
    func everyExampleParsesAsFromTheRoot(words: [String]) throws {
        let expected = Self.outcome(PDFEdit.parsedFromTheRoot, words)
        #expect(!expected.hasPrefix("error"), "an example of the help does not parse: \(expected)")
        let command = try #require(PDFEdit.configuration.subcommands.first { $0.configuration.commandName == words.first })
        let short = PDFEdit.parsedByItsCommand(words)
        if command.configuration.subcommands.isEmpty {
            #expect(short.map(Self.described) == expected)
        } else {
            #expect(short == nil)
        }
    }

    @Test func theExamplesCoverTheCommands() {
        let verbs = Set(Self.exampleLines(perCommand: 2).compactMap(\.first))
        #expect(verbs.count > 38, "\(verbs.sorted())")
        #expect(verbs.isSuperset(of: ["rotate", "move", "export", "open", "outline"]))
    }

    /// Lines the command alone refuses, or that mean something else from the
    /// root, give the root's answer: the same error message, help, version.
    @Test(arguments: [
        ["open"],  // validate() refuses no file
        ["watermark", "all", "--text", "A", "--angle", "nan"],  // validate() refuses
        ["rotate", "2"],  // --by is missing
        ["rotate", "2", "--by", "90", "--nonsense"],
        ["rotate", "--help"],
        ["rotate", "2", "--by", "90", "-h"],
        ["rotate", "2", "--by", "90", "--version"],
        ["move", "1", "--to"],
        ["help", "rotate"],
        ["outline", "add", "Chapter", "--page", "3"],
        ["--version"],
        ["rotate", "--generate-completion-script", "bash"],  // the root's option
        ["rotate", "2", "--by", "90", "--generate-completion-script"],
    ])
    func linesTheCommandAloneRefusesGetTheRootsAnswer(words: [String]) {
        #expect(PDFEdit.parsedByItsCommand(words) == nil)
        #expect(Self.outcome(PDFEdit.parseCommand, words) == Self.outcome(PDFEdit.parsedFromTheRoot, words))
    }

    /// Every command names itself (the parser finds it by `commandName`), and its
    /// help, made from the root, reads `pdfedit COMMAND`.
    @Test func everyCommandNamesItself() throws {
        let commands = PDFEdit.configuration.subcommands
        #expect(commands.count > 40)
        for command in commands {
            #expect(command.configuration.commandName != nil, "\(command)")
        }
        let help = PDFEdit.helpMessage(for: Rotate.self, columns: 1000)
        #expect(help.contains("USAGE: pdfedit rotate [<options>] <selection>"), "\(help)")
        #expect(!help.contains("pdfedit pdfedit"))
    }

    /// A line whose rest would parse as another command's, or as the help
    /// command's, is never taken as that: the result is always the verb's type.
    @Test func theResultIsAlwaysTheVerbsCommand() throws {
        let parsed = try PDFEdit.parseCommand(["rotate", "help", "--by", "90"])
        #expect(parsed is Rotate)
        #expect((parsed as? Rotate)?.selection == "help")
    }
}
