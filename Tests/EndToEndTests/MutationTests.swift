import Foundation
import Testing

/// Damaged PDFs — truncated at several points, bytes flipped, the xref broken, the
/// page tree or object numbers garbled — fed to `info`, `insert` and a direct-mode
/// `move 1 --to last f.pdf -o out.pdf`. Each command gives a clean result or a
/// clean error: exit 0 or 65, never a signal (exit ≥ 128) nor a trap, stderr made
/// of `pdfedit:` lines with exactly one error line on failure; a failed command
/// writes nothing and leaves the session byte-identical; a successful direct edit
/// writes a PDF with the page count `info` gave that `qpdf --check` finds no worse
/// than the input (exit 2 only when the input's is 2: damage carried over).
///
/// Deterministic: the structural mutations are fixed and the random ones come
/// from a seeded generator (`PDFEDIT_TEST_SEED` replays another seed). `make test`
/// runs a few random mutants per file; PDFEDIT_LONG_TESTS=1 runs many more and
/// adds corpus files.
@Suite struct MutationTests {
    static let seed = Reliability.seed(0x5EED_0008)

    static func sources() -> [String] {
        var files = ["alpha.pdf", "features.pdf", "rotated.pdf", "sizes.pdf"].map(Paths.fixture)
        if Paths.corpusAvailable {
            // An xref stream with object streams (the fixtures have classic xref tables).
            files.append(Paths.corpus("pdfjs-labelled_pages.pdf"))
            if Reliability.longTests {
                files += [
                    "sample-pdflatex-outline.pdf", "qpdf-to-rotate.pdf", "pdfjs-basicapi.pdf",
                    "pdflib-with_update_sections.pdf", "pdfjs-issue8088.pdf", "pdfjs-sizes.pdf",
                ].map(Paths.corpus)
            }
        }
        return files
    }

    /// One damaged file: what was done to it (for messages) and its bytes.
    struct Mutant {
        var name: String
        var bytes: Data
    }

    @Test("damaged PDFs get a clean result or a clean 65, never a crash", arguments: sources())
    func damagedInputs(_ source: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        var generator = SeededGenerator(seed: Self.seed ^ UInt64(truncatingIfNeeded: (source as NSString).lastPathComponent.hashValueStable))
        let mutants = Self.structuralMutants(of: original)
            + (0..<Reliability.count(short: 4, long: 50)).map { Self.randomMutant(of: original, number: $0, using: &generator) }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("gamma.pdf"), toPath: dir.appendingPathComponent("gamma.pdf").path)
        try pdfeditOK("open", "gamma.pdf", in: dir)
        // A mutant that fails is kept here, to be replayed by hand.
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("pdfedit-mutants")
        for (index, mutant) in mutants.enumerated() {
            let file = dir.appendingPathComponent("m\(index).pdf")
            try mutant.bytes.write(to: file)
            let keptFile = kept.appendingPathComponent("\(Self.seed)-\(index)-\((source as NSString).lastPathComponent)")
            let context = "\((source as NSString).lastPathComponent) \(mutant.name) (seed \(Self.seed), kept as \(keptFile.path))"
            if !(try check(file, in: dir, context: context)) {
                try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
                try? FileManager.default.removeItem(at: keptFile)
                try? FileManager.default.copyItem(at: file, to: keptFile)
            }
            try? FileManager.default.removeItem(at: file)
        }
        print("MutationTests: \((source as NSString).lastPathComponent): \(mutants.count) mutants, 4 commands each (seed \(Self.seed))")
    }

    /// Runs the three commands on one mutant; false when something was wrong.
    func check(_ file: URL, in dir: URL, context: String) throws -> Bool {
        var problems: [String] = []
        let input = try Data(contentsOf: file)
        func examine(_ result: Run, _ what: String) {
            if result.status >= 128 || result.status == 1 || !(result.status == 0 || result.status == 65) {
                problems.append("\(what): exit \(result.status)")
            }
            if let problem = Reliability.stderrProblem(result) { problems.append("\(what): \(problem)") }
        }
        let info = try pdfedit("info", file.path, "--json", "--no-text", in: dir)
        examine(info, "info --no-text")
        let infoPages = (try? JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])?["pageCount"] as? Int
        if info.status == 0 && infoPages == nil { problems.append("info --json: no pageCount") }

        let withText = try pdfedit("info", file.path, in: dir)
        examine(withText, "info")

        let out = dir.appendingPathComponent("out.pdf")
        try? FileManager.default.removeItem(at: out)
        let moved = try pdfedit("move", "1", "--to", "last", file.path, "-o", out.path, in: dir)
        examine(moved, "direct move")
        if moved.status == 0 {
            // Damage qpdf recovers from but carries over (a content stream that no
            // longer inflates) may fail `--check` in the output as in the input; an
            // output may never be worse than its input.
            let check = try qpdfCheck(out.path)
            if check.status == 2, try qpdfCheck(file.path).status != 2 {
                problems.append("direct move: qpdf --check fails on the output only: \(check.stdout.suffix(300))")
            }
            let pages = try qpdfPageCount(out.path)
            if let infoPages, pages != infoPages { problems.append("direct move: \(pages ?? -1) pages out, info said \(infoPages)") }
        } else if FileManager.default.fileExists(atPath: out.path) {
            problems.append("direct move failed but wrote out.pdf")
        }

        let before = try sessionBytes(dir)
        let inserted = try pdfedit("insert", file.path, in: dir)
        examine(inserted, "insert")
        if inserted.status == 0 {
            if try pdfedit("undo", in: dir).status != 0 { problems.append("insert: undo failed") }
        } else if try sessionBytes(dir) != before {
            problems.append("insert failed but changed the session")
        }
        if !Reliability.temporaries(in: dir).isEmpty { problems.append("temporary files left: \(Reliability.temporaries(in: dir))") }
        if try Data(contentsOf: file) != input { problems.append("the damaged input itself was modified") }
        for problem in problems { Issue.record("\(context): \(problem)") }
        return problems.isEmpty
    }

    // MARK: Mutations

    /// The same damage every run: truncations at the places that matter, a broken
    /// xref (keyword, offsets, startxref), garbled page-tree keys and object numbers.
    static func structuralMutants(of data: Data) -> [Mutant] {
        var mutants: [Mutant] = []
        let count = data.count
        for fraction in [0.05, 0.3, 0.5, 0.8, 0.95] {
            mutants.append(Mutant(name: "truncated at \(Int(fraction * 100))%", bytes: data.prefix(Int(Double(count) * fraction))))
        }
        mutants.append(Mutant(name: "last byte cut", bytes: data.prefix(count - 1)))
        if let startxref = data.lastRange(of: "startxref") {
            mutants.append(Mutant(name: "truncated before startxref", bytes: data.prefix(startxref.lowerBound)))
            var wrongOffset = data
            wrongOffset.replaceSubrange(startxref.upperBound..<min(count, startxref.upperBound + 4), with: Data("\n12".utf8))
            mutants.append(Mutant(name: "startxref points elsewhere", bytes: wrongOffset))
        }
        if let xref = data.lastRange(of: "\nxref") {
            var keyword = data
            keyword.replaceSubrange(xref, with: Data("\nxreF".utf8))
            mutants.append(Mutant(name: "xref keyword broken", bytes: keyword))
            mutants.append(Mutant(name: "truncated inside the xref", bytes: data.prefix(xref.upperBound + 40)))
        }
        // One byte more near the start: every offset of the xref is off by one.
        var shifted = data
        shifted.insert(0x20, at: min(count, 15))
        mutants.append(Mutant(name: "every offset shifted", bytes: shifted))
        let edits: [(String, String, String)] = [
            ("/Count claims billions", "/Count ", "/Count 4000000000"),
            ("/Count negative", "/Count ", "/Count -7"),
            ("/Kids to a missing object", "/Kids [", "/Kids [999999 0 R "),
            ("/Kids not an array", "/Kids [", "/Kids 3 0 R ["),
            ("/Type /Pages becomes /Page", "/Type /Pages", "/Type /Page "),
            ("/Parent object number huge", "/Parent ", "/Parent 99999999999 "),
            ("/Root missing", "/Root", "/Rxxx"),
            ("/Length huge", "/Length ", "/Length 999999999"),
            ("/Contents object number huge", "/Contents ", "/Contents 2147483647 "),
        ]
        for (name, find, replacement) in edits {
            guard let range = data.range(of: Data(find.utf8)) else { continue }
            var edited = data
            edited.replaceSubrange(range, with: Data(replacement.utf8))
            mutants.append(Mutant(name: name, bytes: edited))
        }
        // Anything pointed at the page tree: qpdf 11.3 copies a /Pages node as an
        // uninitialised handle, which crashed the export (SIGSEGV) before copy_foreign.
        let text = String(decoding: data, as: UTF8.self)
        if let pages = text.firstMatch(of: /\/Pages (\d+) 0 R/)?.1 {
            for key in ["/Helv", "/F1", "/Info", "/Metadata", "/P", "/A", "/Dest", "/AcroForm"] {
                guard let match = text.firstMatch(of: try! Regex("\(key) (\\d+) 0 R")),
                    let range = data.range(of: Data(String(text[match.range]).utf8))
                else { continue }
                var edited = data
                edited.replaceSubrange(range, with: Data("\(key) \(pages) 0 R".utf8))
                mutants.append(Mutant(name: "\(key) points at the page tree", bytes: edited))
            }
        }
        return mutants
    }

    /// Random damage from the seeded generator: flipped bytes, a removed or repeated
    /// chunk, or garbled digits (object numbers, offsets, lengths).
    static func randomMutant(of data: Data, number: Int, using generator: inout SeededGenerator) -> Mutant {
        var bytes = [UInt8](data)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            let flips = Int.random(in: 1...24, using: &generator)
            for _ in 0..<flips { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            return Mutant(name: "random \(number): \(flips) bytes flipped", bytes: Data(bytes))
        case 1:
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let end = min(bytes.count, start + Int.random(in: 1...2_000, using: &generator))
            bytes.removeSubrange(start..<end)
            return Mutant(name: "random \(number): bytes \(start)..<\(end) removed", bytes: Data(bytes))
        case 2:
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let end = min(bytes.count, start + Int.random(in: 1...2_000, using: &generator))
            bytes.insert(contentsOf: bytes[start..<end], at: start)
            return Mutant(name: "random \(number): bytes \(start)..<\(end) repeated", bytes: Data(bytes))
        default:
            let digits = bytes.indices.filter { (0x30...0x39).contains(bytes[$0]) }
            var changed = 0
            for _ in 0..<Int.random(in: 1...12, using: &generator) where !digits.isEmpty {
                bytes[digits[Int.random(in: 0..<digits.count, using: &generator)]] = UInt8.random(in: 0x30...0x39, using: &generator)
                changed += 1
            }
            return Mutant(name: "random \(number): \(changed) digits changed", bytes: Data(bytes))
        }
    }
}

extension Data {
    func lastRange(of text: String) -> Range<Int>? {
        range(of: Data(text.utf8), options: .backwards)
    }
}

extension String {
    /// A hash that is the same on every run (String.hashValue is seeded per process).
    var hashValueStable: UInt64 {
        utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
