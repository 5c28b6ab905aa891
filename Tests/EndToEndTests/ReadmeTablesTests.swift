import Foundation
import Testing

/// The manual's tables of JSON output and of environment variables (docs/manual.md,
/// which took them over from the README) are what scripts are written against: they
/// must say what the code does, no key or variable more or less.
@Suite struct ReadmeTablesTests {
    static let manual = Paths.root.appendingPathComponent("docs/manual.md")

    /// The text of the section `## title` of a Markdown file, up to the next `## `
    /// ("" when the file or the section is missing, which the callers' checks report).
    static func section(_ title: String, of file: URL = manual) -> String {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard let start = text.range(of: "\n## \(title)\n") else { return "" }
        return String(text[start.upperBound...]).components(separatedBy: "\n## ").first ?? ""
    }

    // MARK: Environment variables

    @Test func environmentTableNamesEveryVariableTheCodeReads() throws {
        let table = Self.section("Environment variables")
        let pattern = try NSRegularExpression(pattern: #"^\| `([A-Z_]+)` \|"#, options: .anchorsMatchLines)
        let documented = Set(pattern.matches(in: table, range: NSRange(table.startIndex..., in: table)).compactMap {
            Range($0.range(at: 1), in: table).map { String(table[$0]) }
        })
        let read = try HelpAndManPageTests.variablesRead()
        #expect(documented.count > 10, "the table was not found: \(documented)")
        #expect(read.subtracting(documented).isEmpty, "read by the code but not in the manual: \(read.subtracting(documented).sorted())")
        #expect(documented.subtracting(read).isEmpty, "in the manual but not read by the code: \(documented.subtracting(read).sorted())")
    }

    // MARK: JSON shapes

    /// The documented keys of the table row whose first cell contains `marker`, with
    /// `<edit>` and `<export result>` expanded: (every key, the keys not marked `?`).
    static func documentedKeys(_ marker: String) -> (all: Set<String>, required: Set<String>) {
        let table = section("Machine-readable output")
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| ") }
        guard let row = rows.first(where: { $0.contains(marker) }) else { return ([], []) }
        // The shape is the last cell; `\|` separates alternative values inside it.
        var shape = String(row.dropLast().components(separatedBy: " | ").dropFirst().joined(separator: " | "))
        // Values such as "state": "ok"\|"changed" are not keys.
        shape = shape.replacingOccurrences(of: #":\s*"[^"]*"(\s*\\\|\s*"[^"]*")*"#, with: ":", options: .regularExpression)
        var all = Set<String>()
        var required = Set<String>()
        let key = try! NSRegularExpression(pattern: #""([A-Za-z]+)"(\?)?"#)
        for match in key.matches(in: shape, range: NSRange(shape.startIndex..., in: shape)) {
            guard let name = Range(match.range(at: 1), in: shape).map({ String(shape[$0]) }) else { continue }
            all.insert(name)
            if match.range(at: 2).location == NSNotFound { required.insert(name) }
        }
        for (reference, row) in [("<edit>", "edits ("), ("<export result>", "| `export` |")] where shape.contains(reference) {
            let expanded = documentedKeys(row)
            all.formUnion(expanded.all)
            required.formUnion(expanded.required)
        }
        return (all, required)
    }

    /// Every key of every object in a JSON value, at any depth.
    static func keys(of json: Any) -> Set<String> {
        if let object = json as? [String: Any] {
            return object.reduce(into: Set(object.keys)) { $0.formUnion(keys(of: $1.value)) }
        }
        if let array = json as? [Any] { return array.reduce(into: []) { $0.formUnion(keys(of: $1)) } }
        return []
    }

    static func check(_ marker: String, _ output: Run, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(output.status == 0, "\(marker): \(output.stderr)", sourceLocation: sourceLocation)
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
        let actual = keys(of: json)
        let documented = documentedKeys(marker)
        #expect(!documented.all.isEmpty, "no manual row for \(marker)", sourceLocation: sourceLocation)
        #expect(actual.subtracting(documented.all).isEmpty,
                "\(marker): printed but not in the manual: \(actual.subtracting(documented.all).sorted())",
                sourceLocation: sourceLocation)
        #expect(documented.required.subtracting(actual).isEmpty,
                "\(marker): in the manual (not optional) but not printed: \(documented.required.subtracting(actual).sorted())",
                sourceLocation: sourceLocation)
    }

    @Test func jsonTableMatchesWhatCommandsPrint() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.check("`open`, `docs`", pdfedit("open", "alpha.pdf", "beta.pdf", "--json", in: dir))
        try Self.check("edits (", pdfedit("move", "3..5", "--to", "1", "--json", in: dir))
        try Self.check("edits (", pdfedit("copy", "1", "--to", "1", "--into", "beta", "--json", in: dir))
        try Self.check("`undo`, `redo`", pdfedit("undo", "--json", in: dir))
        try Self.check("`history`", pdfedit("history", "--json", in: dir))
        try Self.check("`open`, `docs`", pdfedit("docs", "--json", in: dir))
        try Self.check("`status`", pdfedit("status", "--json", in: dir))
        try Self.check("`list`", pdfedit("list", "1..2", "--json", in: dir))
        try Self.check("`find`", pdfedit("find", "alpha", "--json", in: dir))
        try Self.check("| `export` |", pdfedit("export", "out.pdf", "--json", in: dir))
        try Self.check("`show`", pdfedit("show", "-o", "sheet.png", "1..3", "--json", in: dir))
        try Self.check("`thumbs`", pdfedit("thumbs", "thumbs", "1..2", "--json", in: dir))
        try Self.check("| `render` |", pdfedit("render", "1..2", "-o", "r/{n}.png", "--dpi", "10", "--json", in: dir))
        try "rotate 1 --by 90\n".write(to: dir.appendingPathComponent("steps.txt"), atomically: true, encoding: .utf8)
        try Self.check("| `run` |", pdfedit("run", "steps.txt", "--json", in: dir))
        try Self.check("direct-mode edits", pdfedit("rotate", "1", "--by", "90", "beta.pdf", "-o", "d.pdf", "--json", in: dir))
        // One file: its one JSON line is the whole output.
        try Self.check("| `apply` |", pdfedit("apply", "-e", "rotate 1 --by 90", "beta.pdf", "-o", "a/{name}", "--json", in: dir))
        try pdfeditOK("outline", "add", "Part", "1", in: dir)
        try pdfeditOK("outline", "add", "Section", "2", "--parent", "Part", in: dir)
        try Self.check("| `outline` |", pdfedit("outline", "--json", in: dir))
        try Self.check("| `meta` |", pdfedit("meta", "--json", in: dir))
    }

    /// `info --json`'s example in the manual shows every field (they are always present).
    @Test func infoExampleHasTheKeysInfoPrints() throws {
        let section = Self.section("Inspecting files")
        let example = section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "\n```").first ?? ""
        let documented = Self.keys(of: try JSONSerialization.jsonObject(with: Data(example.utf8)))
        let output = try pdfedit("info", Paths.fixture("alpha.pdf"), "--json")
        #expect(output.status == 0, "\(output.stderr)")
        let actual = Self.keys(of: try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)))
        #expect(documented == actual, "manual only: \(documented.subtracting(actual).sorted()); info only: \(actual.subtracting(documented).sorted())")
    }
}
