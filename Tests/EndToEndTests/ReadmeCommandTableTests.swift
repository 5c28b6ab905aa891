import Foundation
import Testing

/// The README's table of commands is where a new user learns what pdfedit can do:
/// it must list every command the binary has, once, and nothing it does not have.
/// The commands come from `pdfedit --help` (the `CommandGroup`s of PDFEdit.swift),
/// so a command added without a row, or a row left behind by a removed or renamed
/// command, fails here.
@Suite struct ReadmeCommandTableTests {
    static let readme = Paths.root.appendingPathComponent("README.md")

    /// The first cell of each row of the README's `## Commands` table: the one
    /// command it names, in backticks (a row naming two commands, or none, gives
    /// its whole cell, which then matches no command).
    static func documentedCommands() -> [String] {
        let table = ReadmeTablesTests.section("Commands", of: readme)
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| command |") }
        return rows.compactMap { row in
            let cell = row.dropFirst(2).components(separatedBy: " | ").first ?? ""
            guard cell.hasPrefix("`"), cell.hasSuffix("`"), cell.count > 2 else { return cell }
            return String(cell.dropFirst().dropLast())
        }
    }

    @Test func everyCommandHasExactlyOneRowAndEveryRowIsACommand() throws {
        let commands = try HelpAndManPageTests.subcommands()
        #expect(commands.count > 40 && commands.contains("apply") && commands.contains("meta"), "\(commands)")
        let rows = Self.documentedCommands()
        let counts = Dictionary(rows.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(Set(commands).subtracting(rows).isEmpty,
                "commands without a row in README.md's Commands table: \(Set(commands).subtracting(rows).sorted())")
        #expect(Set(rows).subtracting(commands).isEmpty,
                "rows of README.md's Commands table that name no command: \(Set(rows).subtracting(commands).sorted())")
        #expect(counts.filter { $0.value > 1 }.isEmpty,
                "commands with more than one row: \(counts.filter { $0.value > 1 }.keys.sorted())")
    }

    /// The manual is the reference: each command is at least named there, in
    /// backticks, so a user who finds it in the README's table can read on.
    @Test func everyCommandIsNamedInTheManual() throws {
        let manual = try String(contentsOf: ReadmeTablesTests.manual, encoding: .utf8)
        let missing = try HelpAndManPageTests.subcommands().filter {
            !manual.contains("`\($0)`") && !manual.contains("`\($0) ")
        }
        #expect(missing.isEmpty, "commands docs/manual.md never names: \(missing)")
    }
}
