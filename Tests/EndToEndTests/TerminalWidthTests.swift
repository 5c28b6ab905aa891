import Foundation
import Testing

/// `COLUMNS` is read once, range-checked (`TerminalWidth`): a value outside 1…10,000
/// is as if unset, for the help ArgumentParser lays out and for the progress
/// bar (issue 40, item 16: `COLUMNS=-9223372036854775808 pdfedit --help` trapped).
@Suite struct TerminalWidthTests {
    static let unusable = ["-9223372036854775808", "-9223372036854775807", "0", "-1", "wide", "99999999999999999999"]

    @Test("help is printed whatever COLUMNS holds", arguments: unusable)
    func help(_ columns: String) throws {
        for arguments in [["--help"], ["move", "--help"], ["help", "export"]] {
            let result = try pdfedit(args: arguments, environment: ["COLUMNS": columns, "LINES": columns])
            #expect(result.status == 0, "\(arguments) COLUMNS=\(columns): \(result.status) \(result.stderr)")
            #expect(result.stdout.contains("USAGE:"), "\(arguments)")
        }
        // A usage error still says where to read more, on one line.
        let wrong = try pdfedit(args: ["move"], environment: ["COLUMNS": columns])
        #expect(wrong.status == 64 && wrong.stderrLines.count == 1, "\(wrong.stderr)")
    }

    @Test("an unusable COLUMNS lays help out as an unset one does")
    func unusableIsUnset() throws {
        let unset = try pdfedit(args: ["move", "--help"], environment: ["COLUMNS": "80"])
        let wrong = try pdfedit(args: ["move", "--help"], environment: ["COLUMNS": "-9223372036854775808"])
        // Without a terminal (a pipe here) the width is ArgumentParser's default, 80.
        #expect(wrong.stdout == unset.stdout)
    }

    @Test("the progress bar on a 0×0 terminal with COLUMNS=-2^63 draws at the default width")
    func progressBarOnAnEmptyTerminal() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let result = try run(
            "script",
            ["-qec", "stty cols 0 rows 0; COLUMNS=-9223372036854775808 \(Paths.binary) list", "/dev/null"], in: dir)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("alpha: 7 pages"), "\(result.stdout)")
        #expect(result.stdout.contains("ALPHA-P7"), "\(result.stdout)")
    }
}
