#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// The text of a `run` script: one editing command per line, as on the command
/// line without `pdfedit`; `#` starts a comment. What a line's words mean is the
/// caller's (the CLI parses them with its own command-line parser: one grammar).
package enum ScriptText {
    /// The script at `path`, or stdin for "-"; with the name messages give it.
    ///
    /// Read up to `limits.scriptBytes` (`PDFEDIT_MAX_SCRIPT_BYTES`): a script
    /// past it (`run - < /dev/zero`) is refused (65) after reading one byte more,
    /// never read whole. A file may be a pipe (`run <(make-script)`); it is noted
    /// as read (`ReadFiles`), so that no output of the command replaces it.
    package static func read(_ path: String, limits: Limits = ProcessLimits.current) throws(PDFEditError)
        -> (name: String, text: String)
    {
        let name = path == "-" ? "stdin" : path
        let descriptor: Int32
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            switch valueOrErrno({ open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) }) {
            case .success(let opened): descriptor = opened
            case .failure(let failure):
                throw PDFEditError.engine(EngineError.opening(path, errno: failure.rawValue))
            }
            ReadFiles.note(descriptor: descriptor, path: path, as: "the script")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let bytes: [UInt8]
        switch FileHead.readToEnd(descriptor, limit: limits.scriptBytes) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(let limit)):
            throw PDFEditError.engine(
                .overLimit(file: name, page: nil, what: "a script of more than \(limit) bytes (PDFEDIT_MAX_SCRIPT_BYTES)"))
        case .failure(.readError(let code)):
            throw PDFEditError.engine(.unreadable(file: name, reason: Errno(rawValue: code).description))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PDFEditError.engine(.unreadable(file: name, reason: "not UTF-8 text"))
        }
        return (name, text)
    }

    /// Each line's words given to `parse`, line after line (lines end with LF or
    /// CRLF); blank and comment lines are skipped, as are lines `parse` returns
    /// nil for. A line that fails fails the script, named `NAME:LINE`; so does a
    /// line longer than `limits.scriptLineBytes` (`PDFEDIT_MAX_LINE_BYTES`, 65),
    /// before its words are split.
    package static func parse<Command>(
        _ text: String, name: String, limits: Limits = ProcessLimits.current,
        _ parse: (_ words: [String]) throws(PDFEditError) -> Command?
    ) throws(PDFEditError) -> [(number: Int, command: Command)] {
        var commands: [(number: Int, command: Command)] = []
        // "\r\n" is one Character in Swift: split on both line ends.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            if line.utf8.count > limits.scriptLineBytes {
                throw PDFEditError.engine(
                    .overLimit(
                        file: "\(name):\(number)", page: nil,
                        what: "a line of \(line.utf8.count) bytes, more than \(limits.scriptLineBytes) (PDFEDIT_MAX_LINE_BYTES)"))
            }
            let command = try atLine(number, of: name) { () throws(PDFEditError) -> Command? in
                let words = try Self.words(String(line))
                return words.isEmpty ? nil : try parse(words)
            }
            if let command { commands.append((number, command)) }
        }
        return commands
    }

    /// Runs `body` for line `number` of the script: its failure is the line's.
    package static func atLine<T>(
        _ number: Int, of name: String, _ body: () throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        do throws(PDFEditError) {
            return try body()
        } catch {
            throw PDFEditError.scriptLine(script: name, line: number, error: error)
        }
    }

    /// One argument as a script line writes it (and `history` records it):
    /// as it is, or in double quotes with its own quotes escaped when it holds
    /// a space or a quote (or is empty), so that `words` gives it back.
    package static func quotedWord(_ argument: String) -> String {
        argument.contains(where: { $0 == " " || $0 == "\"" }) || argument.isEmpty
            ? "\"" + argument.replacing("\"", with: "\\\"") + "\"" : argument
    }

    /// Words of one line as a POSIX shell would split them: whitespace separates,
    /// '…' and "…" quote, backslash escapes (inside "…" too, not inside '…'), `#`
    /// at a word start begins a comment.
    package static func words(_ line: String) throws(PDFEditError) -> [String] {
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

/// One line of a `run` script as the model's edit.
package struct ScriptStep: Sendable {
    /// The line's number in the script, for messages.
    package var line: Int
    /// The edit the line asks for.
    package var edit: Edit
    /// The line's `--doc` (nil: the current document when the line runs).
    package var doc: String?

    /// A step of line `line`: `edit` on document `doc` (nil: the current one).
    package init(line: Int, edit: Edit, doc: String?) {
        self.line = line
        self.edit = edit
        self.doc = doc
    }
}

extension PageEditor {
    /// `run SCRIPT`: the steps as one all-or-nothing undo step, labelled
    /// "run NAME". A step the model refuses fails the script, named by its line.
    package mutating func run(_ steps: [ScriptStep], script name: String) throws(PDFEditError) -> [ChangeSummary] {
        let access = access
        var working = session
        do throws(PDFEditError) {
            let summaries = try access.surfacingLookupFailure { () throws(PDFEditError) -> [ChangeSummary] in
                try access.apply(steps.map { ($0.edit, $0.doc) }, to: &working, label: "run \(name)", batch: true)
            }
            session = working
            return summaries
        } catch {
            if case .edit(.batch(let index, let inner)) = error {
                throw PDFEditError.scriptLine(script: name, line: steps[index].line, error: .edit(inner))
            }
            throw error
        }
    }
}
