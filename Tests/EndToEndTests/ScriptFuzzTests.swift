import Foundation
import Testing

/// Fuzzing of the script parser through the binary: `pdfedit run -` on generated
/// scripts (plausible editing lines, refused lines, quoting, comments, odd bytes,
/// and random damage to all of them). A script is split into lines and words by
/// the kit (`ScriptText`) and each line's words are parsed with ArgumentParser by
/// the executable (`Sources/pdfedit/Editing/ScriptCommands.swift`), which cannot be
/// linked into a libFuzzer harness; this drives the real thing instead.
///
/// Each script is all or nothing: it exits 0, 64, 65 or 66, never with a signal;
/// stderr is one `pdfedit:` line on failure (naming `stdin:LINE` for a bad line);
/// a failed script leaves the session byte-identical; a successful one is one undo
/// step that gives the documents back exactly.
///
/// `make test` runs 40 seeded scripts; PDFEDIT_LONG_TESTS=1 runs 200;
/// PDFEDIT_SCRIPT_FUZZ_SECONDS=N (scripts/fuzz.sh scripts N) runs for N seconds.
@Suite struct ScriptFuzzTests {
    static let seed = Reliability.seed(0x5C21_7008)

    @Test("generated and damaged scripts are applied completely or refused cleanly")
    func generatedScripts() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf", "gamma.pdf", "logo.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        var generator = SeededGenerator(seed: Self.seed)
        let environment = ProcessInfo.processInfo.environment
        let deadline = environment["PDFEDIT_SCRIPT_FUZZ_SECONDS"].flatMap(Double.init).map { Date().addingTimeInterval($0) }
        let runs = deadline == nil ? Reliability.count(short: 40, long: 200) : Int.max
        var outcomes: [Int32: Int] = [:]
        var executed = 0
        while executed < runs, deadline.map({ Date() < $0 }) ?? true {
            let script = Self.script(using: &generator)
            executed += 1
            let context = "script \(executed) (seed \(Self.seed)):\n\(script)"
            let before = try sessionBytes(dir)
            let documentsBefore = try Reliability.documents(in: dir)
            let stepsBefore = try Reliability.history(in: dir).done
            let result = try pdfedit("run", "-", in: dir, stdin: script)
            outcomes[result.status, default: 0] += 1
            #expect([0, 64, 65, 66].contains(result.status), "exit \(result.status): \(result.stderr)\n\(context)")
            if let problem = Reliability.stderrProblem(result) { Issue.record("\(problem)\n\(context)") }
            if result.status != 0 {
                #expect(try sessionBytes(dir) == before, "a failed script changed the session\n\(context)")
                continue
            }
            guard try sessionBytes(dir) != before else { continue }  // nothing but comments
            // Only `use` lines: the current document changed, no undo step was made (as on the command line).
            guard try Reliability.history(in: dir).done != stepsBefore else { continue }
            let undo = try pdfedit("undo", in: dir)
            #expect(undo.status == 0, "\(undo.stderr)\n\(context)")
            #expect(try Reliability.documents(in: dir) == documentsBefore, "undo does not give the documents back\n\(context)")
            // Keep the session small: a script that made it grow stays undone.
            if try Self.pageTotal(in: dir) < 60 {
                try pdfeditOK("redo", in: dir)
            }
        }
        print("ScriptFuzzTests: \(executed) scripts (seed \(Self.seed)), exit codes \(outcomes.sorted { $0.key < $1.key })")
    }

    static func pageTotal(in dir: URL) throws -> Int {
        let docs = try pdfedit("docs", "--json", in: dir)
        let object = try JSONSerialization.jsonObject(with: Data(docs.stdout.utf8)) as? [String: Any]
        return (object?["documents"] as? [[String: Any]])?.compactMap { $0["pageCount"] as? Int }.reduce(0, +) ?? 0
    }

    // MARK: Generating scripts

    static func script(using generator: inout SeededGenerator) -> String {
        var lines = (0..<Int.random(in: 1...4, using: &generator)).map { _ in line(using: &generator) }
        if Int.random(in: 0..<5, using: &generator) == 0 {
            // Damage: characters removed, repeated or replaced anywhere in the text.
            var characters = Array(lines.joined(separator: "\n"))
            for _ in 0..<Int.random(in: 1...4, using: &generator) where !characters.isEmpty {
                let index = Int.random(in: 0..<characters.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: characters.remove(at: index)
                case 1: characters.insert(characters[index], at: index)
                default: characters[index] = pick(oddCharacters, using: &generator)
                }
            }
            lines = [String(characters)]
        }
        return lines.joined(separator: "\n") + (Bool.random(using: &generator) ? "\n" : "")
    }

    static let oddCharacters: [Character] = [
        "\"", "'", "\\", "#", " ", "\t", "\r", ",", "-", ".", "@", "\u{0}", "\u{7}", "\u{1b}", "é", "ß", "\u{2028}",
        "\u{301}", "🙂", "\u{feff}", "9", "0",
    ]

    static func pick<T>(_ values: [T], using generator: inout SeededGenerator) -> T {
        values[Int.random(in: 0..<values.count, using: &generator)]
    }

    static func selection(using generator: inout SeededGenerator) -> String {
        if Int.random(in: 0..<4, using: &generator) > 0 {
            return pick(["1", "2", "last", "odd", "1..2", "2,last", "all", "@p1", "..2"], using: &generator)
        }
        let tokens = [
            "1", "2", "3", "7", "9", "0", "last", "last-1", "last-9", "odd", "even", "all", "1..3", "2..", "..2",
            "3-5", "5..3", "@p1", "@p3", "@p99", "text:ALPHA-P2", "text:nothing", "1,,2", "", " 2 ", "x",
            "99999999999999999999",
        ]
        let count = Int.random(in: 1...3, using: &generator)
        return (0..<count).map { _ in pick(tokens, using: &generator) }.joined(separator: ",")
    }

    static func position(using generator: inout SeededGenerator) -> String {
        if Int.random(in: 0..<4, using: &generator) > 0 { return pick(["1", "2", "last"], using: &generator) }
        return pick(["1", "2", "last", "last-1", "0", "8", "@p2", "x", "-1", "9999999999999999999999"], using: &generator)
    }

    static func quoted(_ text: String, using generator: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: "'\(text)'"
        case 1: "\"\(text)\""
        case 2: text.replacingOccurrences(of: " ", with: "\\ ")
        default: text
        }
    }

    static func line(using generator: inout SeededGenerator) -> String {
        let sel = quoted(selection(using: &generator), using: &generator)
        let pos = position(using: &generator)
        if Int.random(in: 0..<3, using: &generator) > 0 {
            // Lines that usually apply.
            return pick(
                [
                    "move \(sel) --to \(pos)", "rotate \(sel) --by 90", "duplicate \(sel)", "reverse",
                    "copy \(sel) --to \(pos) --into beta", "blank --at \(pos) --size a5", "remove \(sel) --doc beta",
                    "insert gamma.pdf --at \(pos)", "# \(sel)", "", "move \(sel) --to last # comment",
                ], using: &generator)
        }
        let doc = pick(["", " --doc beta", " --doc alpha", " --doc nope", " --doc ''"], using: &generator)
        let choices: [String] = [
            "move \(sel) --to \(pos)\(doc)",
            "move \(sel) --before \(pos)",
            "move \(sel) --after \(pos) --into beta",
            "copy \(sel) --to \(pos) --into \(pick(["alpha", "beta", "gamma"], using: &generator))",
            "duplicate \(sel)",
            "remove \(sel)\(doc)",
            "rotate \(sel) --by \(pick(["90", "180", "270", "-90", "45", "0", "x"], using: &generator))",
            "reverse \(sel)",
            "reverse",
            "blank --at \(pos) --count \(pick(["1", "2", "0", "-1"], using: &generator)) --size \(pick(["a4", "a5l", "letter", "100x200", "1x1", "like:1", "like:@p99", "huge"], using: &generator))",
            "placeholder --at \(pos) --label \(quoted("the cover", using: &generator))",
            "fill \(pos) gamma.pdf",
            "insert \(pick(["gamma.pdf", "logo.png", "missing.pdf", "alpha.pdf beta.pdf"], using: &generator)) --at \(pos)",
            "new \(pick(["gamma", "alpha", "x y", "''", "a/b"], using: &generator))",
            "use \(pick(["alpha", "beta", "gamma", "zzz"], using: &generator))",
            "rename \(pick(["gamma", "beta"], using: &generator)) \(pick(["delta", "alpha", "''"], using: &generator))",
            "close \(pick(["gamma", "beta", "delta"], using: &generator))",
            "interleave \(pick(["beta", "alpha", "gamma"], using: &generator))\(pick(["", " --reverse"], using: &generator))",
            "undo", "redo", "export out.pdf", "open alpha.pdf", "run -", "info alpha.pdf", "history",
            "move 1 --to 2 alpha.pdf -o out.pdf", "insert gamma.pdf --keep-going", "move 1 --to 2 --session x.json",
            "# a comment", "   ", "", "move 1 --to 2 # trailing comment", "'move' 1 --to 2", "move \"1 --to 2",
            "move 1 --to 2\\", "\\# not a comment", "frobnicate 1", "--help", "move --help",
        ]
        return pick(choices, using: &generator)
    }
}
