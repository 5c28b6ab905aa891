import PDFEditKit
import Testing

/// `ScriptText`: how a `run` script's lines become words (as a POSIX shell splits
/// them) and how a bad line is named.
@Suite struct ScriptWordsTests {
    static func words(_ line: String) throws -> [String] {
        try ScriptText.words(line)
    }

    static func usageMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as PDFEditError {
            guard case .usage(let message) = error else { return "not a usage error: \(error)" }
            return message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: [
        ("move 3..5 --to 1", ["move", "3..5", "--to", "1"]),
        ("  rotate\teven   --by 90  ", ["rotate", "even", "--by", "90"]),
        ("", []),
        ("   ", []),
        ("find \"Annual report\"", ["find", "Annual report"]),
        ("find 'it''s'", ["find", "its"]),
        ("find 'a \"b\" c'", ["find", "a \"b\" c"]),
        ("find \"a 'b' c\"", ["find", "a 'b' c"]),
        ("find \"say \\\"hi\\\"\"", ["find", "say \"hi\""]),
        ("find 'back\\slash'", ["find", "back\\slash"]),
        ("find a\\ b", ["find", "a b"]),
        ("find \\#1", ["find", "#1"]),
        ("find ''", ["find", ""]),
        ("find x\"y z\"w", ["find", "xy zw"]),
    ])
    func splitsLikeAShell(_ line: String, _ expected: [String]) throws {
        #expect(try Self.words(line) == expected)
    }

    @Test(arguments: [
        ("# a comment", [String]()),
        ("move 1 --to 2 # put it second", ["move", "1", "--to", "2"]),
        ("move 1 --to 2#3", ["move", "1", "--to", "2#3"]),
        ("find '#x'", ["find", "#x"]),
        ("find \"a # b\"", ["find", "a # b"]),
    ])
    func hashStartsACommentOnlyAtAWordStart(_ line: String, _ expected: [String]) throws {
        #expect(try Self.words(line) == expected)
    }

    @Test(arguments: [
        ("find \"open", "unterminated quote"),
        ("find 'open", "unterminated quote"),
        ("find \"escaped\\\"", "unterminated quote"),
        ("move 1 --to 2 \\", "line ends with a backslash"),
    ])
    func refusesUnfinishedLines(_ line: String, _ message: String) {
        #expect(Self.usageMessage { _ = try Self.words(line) } == message)
    }

    @Test func linesAreNumberedAndBlankOrCommentLinesSkipped() throws {
        let text = "# fix\nmove 7 --to 1\r\n\n   \nremove 12,14 # blanks\nrotate even --by 90"
        let lines = try ScriptText.parse(text, name: "fix.txt") { words throws(PDFEditError) in words }
        #expect(lines.map(\.number) == [2, 5, 6])
        #expect(lines.map(\.command) == [["move", "7", "--to", "1"], ["remove", "12,14"], ["rotate", "even", "--by", "90"]])
    }

    @Test func aBadLineIsNamedByScriptAndLine() {
        let text = "move 1 --to 2\nfind \"open\nremove 3"
        do {
            _ = try ScriptText.parse(text, name: "stdin") { words throws(PDFEditError) in words }
            Issue.record("parsed")
        } catch {
            #expect(error.exitCode == 64)
            #expect(error.lines == ["stdin:2: unterminated quote"])
        }
    }

    @Test func theCallersRefusalIsNamedByItsLineAndStopsTheParse() {
        var seen: [[String]] = []
        do {
            _ = try ScriptText.parse("move 1 --to 2\n\nexport out.pdf\nfind \"x", name: "fix.txt") {
                words throws(PDFEditError) in
                seen.append(words)
                if words.first == "export" { throw PDFEditError.usage("\"export\" does not edit the session") }
                return words
            }
            Issue.record("parsed")
        } catch {
            #expect(error.lines == ["fix.txt:3: \"export\" does not edit the session"])
        }
        // Lines are parsed in order: line 4's unterminated quote is never reached.
        #expect(seen == [["move", "1", "--to", "2"], ["export", "out.pdf"]])
    }

    @Test func aLineThatNeedsNothingMayBeSkippedByTheCaller() throws {
        let lines = try ScriptText.parse("use a\nmove 1 --to 2", name: "s") { words throws(PDFEditError) in
            words.first == "use" ? nil : words
        }
        #expect(lines.map(\.number) == [2])
    }
}

/// `Warning`: the facts of a warning, and the one line the CLI prints for it.
@Suite struct WarningTests {
    @Test func linesAreTheOnesUsersKnow() {
        #expect(
            Warning.recoveredDamage(file: "scan.pdf", detail: "(offset 12): xref not found").description
                == "scan.pdf: damaged, recovered ((offset 12): xref not found)")
        #expect(
            Warning.exportNotice(file: "output", message: "dropped a broken link").description
                == "output: dropped a broken link")
    }

    @Test func aDamagedFileGivesOneWarningWithItsFirstMessage() {
        #expect(Warning.damage(of: "a.pdf", messages: []) == [])
        #expect(
            Warning.damage(of: "a.pdf", messages: ["first", "second"])
                == [.recoveredDamage(file: "a.pdf", detail: "first")])
    }
}
