import ArgumentParser
import Foundation
import PDFEditKit
import PageModel

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Apply a script of editing commands as one all-or-nothing step.",
        discussion: """
            One editing command per line, as on the command line without `pdfedit`;
            `#` starts a comment. Each line sees the positions left by the line before.
            Any failing line cancels the whole script (nothing is applied) and names its
            line. The script is one undo step. Commands that do not edit the session
            (export, show, open, run, undo…) and direct mode are refused (exit 64).

            Example script:
              # put the summary first and drop the blank pages
              move 7 --to 1
              remove 12,14
              rotate even --by 90

              pdfedit run fix.txt
              pdfedit run - < fix.txt
            """)

    @Argument(help: "The script file, or - for stdin.")
    var script: String

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let text: String
            if script == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard FileManager.default.fileExists(atPath: script) else { throw PDFEditError.engine(.missing(file: script)) }
                guard let contents = try? String(contentsOfFile: script, encoding: .utf8) else {
                    throw PDFEditError.engine(.unreadable(file: script, reason: "not UTF-8 text"))
                }
                text = contents
            }
            let book = try passwords.book()
            let workspace = Workspace(sessionPath: options.session, passwords: book)
            let name = script == "-" ? "stdin" : script
            let lines = try ScriptParser.parse(text, name: name)
            var edits: [(edit: Edit, doc: String?)] = []
            for line in lines {
                do throws(PDFEditError) {
                    // A line's own --password/--password-for count for that line, with run's.
                    let lineBook = try line.command.options.passwords.book().adding(book)
                    let building = EditBuilding(
                        otherDocuments: [], importer: Workspace(sessionPath: options.session, passwords: lineBook).importer())
                    edits.append((try line.command.edit(building), line.command.options.doc))
                } catch {
                    throw PDFEditError.scriptLine(script: name, line: line.number, error: error)
                }
            }
            let summaries: [ChangeSummary]
            do throws(PDFEditError) {
                summaries = try workspace.applyAll(edits, label: "run \(name)")
            } catch {
                if case .edit(.batch(let index, let inner)) = error {
                    throw PDFEditError.scriptLine(script: name, line: lines[index].number, error: .edit(inner))
                }
                throw error
            }
            if options.output.json {
                Console.json(summaries)
            } else if !options.output.quiet {
                for summary in summaries { Console.out(summary.description) }
                Console.out("applied \(summaries.count) command\(summaries.count == 1 ? "" : "s") as one step")
            }
        }
    }
}

/// Splits a script into editing commands, parsed by the same ArgumentParser
/// definitions as the command line (one grammar, not two).
enum ScriptParser {
    struct Line {
        var number: Int
        var command: any EditCommand
    }

    /// Lines end with LF or CRLF.
    static func parse(_ text: String, name: String) throws(PDFEditError) -> [Line] {
        var lines: [Line] = []
        // "\r\n" is one Character in Swift: split on both line ends.
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated()
        {
            let number = offset + 1
            do throws(PDFEditError) {
                if let command = try parseLine(String(raw)) { lines.append(Line(number: number, command: command)) }
            } catch {
                throw PDFEditError.scriptLine(script: name, line: number, error: error)
            }
        }
        return lines
    }

    /// One line's editing command (nil for a blank or comment line), parsed as the
    /// command line is, so that a wrong line fails with the command line's message and code.
    private static func parseLine(_ line: String) throws(PDFEditError) -> (any EditCommand)? {
        let words = try shellWords(line)
        guard let verb = words.first else { return nil }
        let parsed: ParsableCommand
        do {
            parsed = try PDFEdit.parseCommand(words)
        } catch let error as PDFEditError {
            throw error
        } catch {
            throw PDFEditError.usage("help and --version are not allowed in a script")
        }
        guard let command = parsed as? any EditCommand else {
            throw PDFEditError.usage("\"\(verb)\" does not edit the session; not allowed in a script")
        }
        if command.isDirect || command.directInput != nil {
            throw PDFEditError.usage("direct mode (a file, -o, --in-place) is not allowed in a script")
        }
        if command.options.session != nil {
            throw PDFEditError.usage("--session is given to `run`, not to its lines")
        }
        if words.contains("--keep-going") {
            throw PDFEditError.usage("--keep-going is not allowed in a script (it is all or nothing)")
        }
        return command
    }

    /// Words of one line as a POSIX shell would split them: whitespace separates,
    /// '…' and "…" quote, backslash escapes, `#` at a word start begins a comment.
    static func shellWords(_ line: String) throws(PDFEditError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "\\":
                escaped = true
                inWord = true
            case "'", "\"":
                quote = character
                inWord = true
            case "#" where !inWord:
                return words
            case _ where character.isWhitespace:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw PDFEditError.usage("unterminated quote") }
        if escaped { throw PDFEditError.usage("line ends with a backslash") }
        if inWord { words.append(current) }
        return words
    }
}
