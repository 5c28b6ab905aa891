import Foundation
import Testing

/// `export --split` at selected items, at outline levels and by size (issue 19
/// item 5): parts checked with pdfinfo, pdftotext, stat, qpdf --json and --check.
@Suite struct SplitAtTests {
    static func files(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func firstLine(_ pdf: String, page: Int = 1) throws -> String {
        try pageText(pdf, page).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// A stack of letters with blank separator sheets (one of them dusty, two in a row, one first).
    static func stack(in dir: URL) throws {
        let letter = ScanPages.letter
        let pages: [(media: String, rotate: Int, content: String)] = [
            (ScanPages.a4, 0, ScanPages.white), (ScanPages.a4, 0, letter("Letter A page 1")),
            (ScanPages.a4, 0, letter("Letter A page 2")), (ScanPages.a4, 0, ScanPages.dust),
            (ScanPages.a4, 0, letter("Letter B page 1")), (ScanPages.a4, 0, ScanPages.white),
            (ScanPages.a4, 0, ScanPages.greyPaper), (ScanPages.a4, 0, letter("Letter C page 1")),
            (ScanPages.a4, 0, letter("Letter C page 2")), (ScanPages.a4, 0, letter("Letter C page 3")),
        ]
        try ScanPages.pdf(pages).write(to: dir.appendingPathComponent("stack.pdf"))
    }

    @Test("--at empty --drop splits a stack at its separator sheets; parts left empty are not written")
    func atEmptyDrop() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.stack(in: dir)
        try pdfeditOK("open", "stack.pdf", in: dir)
        let result = try pdfedit(
            "export", "--split", "letters", "--at", "empty", "--drop", "--name", "{n}-{first}-{last}-{id}-{srcpage}-{doc}-{src}",
            in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let letters = dir.appendingPathComponent("letters")
        #expect(
            try Self.files(letters) == [
                "1-2-3-p2-2-stack-stack.pdf", "2-5-5-p5-5-stack-stack.pdf", "3-8-10-p8-8-stack-stack.pdf",
            ])
        let expected = [("1-2-3-p2-2-stack-stack.pdf", 2, "Letter A page 1"), ("2-5-5-p5-5-stack-stack.pdf", 1, "Letter B page 1"),
            ("3-8-10-p8-8-stack-stack.pdf", 3, "Letter C page 1")]
        for (name, pages, text) in expected {
            let path = letters.appendingPathComponent(name).path
            #expect(try ScansTests.pageCount(path) == pages)
            #expect(try Self.firstLine(path) == text)
            #expect(try qpdfCheck(path).status == 0)
        }
        // Without --drop the separators start the parts.
        try pdfeditOK("export", "--split", "kept", "--at", "empty", "--name", "{n}-{first}-{last}", in: dir)
        #expect(try Self.files(dir.appendingPathComponent("kept")) == ["1-1-3.pdf", "2-4-5.pdf", "3-6-6.pdf", "4-7-10.pdf"])
        // With a selection: positions are the document's.
        try pdfeditOK("export", "--split", "sel", "5..10", "--at", "7", "--name", "{first}-{last}", in: dir)
        #expect(try Self.files(dir.appendingPathComponent("sel")) == ["5-6.pdf", "7-10.pdf"])
        // Direct mode.
        let direct = try pdfedit("export", "--split", "direct", "--at", "empty", "--drop", "--from", "stack.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try Self.files(dir.appendingPathComponent("direct")) == ["stack-1.pdf", "stack-2.pdf", "stack-3.pdf"])
        // Everything dropped: nothing to write.
        let none = try pdfedit("export", "--split", "none", "1", "--at", "1", "--drop", in: dir)
        #expect(none.status == 65)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("none").path))
    }

    @Test("--at, --every and --at-outlines exclude each other; --drop, --level, --max-size need their partners (64)")
    func conflicts() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let refused: [[String]] = [
            ["--at", "1", "--every", "2"], ["--at", "1", "--at-outlines"], ["--every", "2", "--at-outlines"],
            ["--at", "1", "--every", "2", "--at-outlines"], ["--drop"], ["--level", "2"], ["--at-outlines", "--level", "0"],
            ["--max-size", "lots"], ["--max-size", "0"], ["--at", "1,,2"],
        ]
        for extra in refused {
            let result = try pdfedit(args: ["export", "--split", "out"] + extra, in: dir)
            #expect(result.status == 64, "\(extra): \(result.stderr)")
        }
        #expect(try pdfedit("export", "all.pdf", "--at", "1", in: dir).status == 64)
        #expect(try pdfedit("export", "all.pdf", "--max-size", "1MB", in: dir).status == 64)
        let both = try pdfedit("export", "--split", "out", "--at", "1", "--every", "2", in: dir)
        #expect(both.stderr.contains("--every and --at"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// Where qpdf says a corpus file's bookmarks of levels 1…`levels` start: each
    /// entry at the first page of its subtree; sorted, distinct.
    static func outlineStarts(_ pdf: String, levels: Int) throws -> [Int] {
        let json = try run("qpdf", ["--json", "--json-key=outlines", pdf]).stdout
        let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        var starts: Set<Int> = []
        func pages(_ entry: [String: Any]) -> [Int] {
            let own = (entry["destpageposfrom1"] as? Int).map { [$0] } ?? []
            return own + ((entry["kids"] as? [[String: Any]]) ?? []).flatMap(pages)
        }
        func walk(_ entries: [[String: Any]], level: Int) {
            for entry in entries {
                if level < levels, let first = pages(entry).min() { starts.insert(first) }
                walk((entry["kids"] as? [[String: Any]]) ?? [], level: level + 1)
            }
        }
        walk((root?["outlines"] as? [[String: Any]]) ?? [], level: 0)
        return starts.sorted()
    }

    @Test(
        "--at-outlines --level 2 on a report with nested bookmarks: parts where qpdf says the entries start",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func outlineLevels() throws {
        let source = Paths.corpus("plumber-chelsea_pdta.pdf")
        try #require(FileManager.default.fileExists(atPath: source), "\(source) is missing from the corpus")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pageCount = try ScansTests.pageCount(source)
        for level in [1, 2] {
            let starts = try Self.outlineStarts(source, levels: level)
            #expect(starts.count > (level == 1 ? 4 : 20))
            let bounds = (starts.first == 1 ? [] : [1]) + starts + [pageCount + 1]
            let folder = "level\(level)"
            let result = try pdfedit(
                "export", "--split", folder, "--at-outlines", "--level", "\(level)", "--name", "{n}-{first}-{last}",
                "--from", source, in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            let width = String(bounds.count - 1).count
            let expected = zip(bounds, bounds.dropFirst()).enumerated().map { index, range in
                let number = String(index + 1)
                return String(repeating: "0", count: width - number.count) + number + "-\(range.0)-\(range.1 - 1).pdf"
            }
            #expect(try Self.files(dir.appendingPathComponent(folder)) == expected.sorted())
            for (name, range) in zip(expected, zip(bounds, bounds.dropFirst())) {
                let path = dir.appendingPathComponent("\(folder)/\(name)").path
                #expect(try ScansTests.pageCount(path) == range.1 - range.0)
                #expect(try pageText(path, 1) == pageText(source, range.0), "\(name)")
            }
        }
    }

    /// The size in bytes of a file, by stat.
    static func size(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    @Test("--max-size: each part at most SIZE and one more page would pass it (written to check); one item over it is an error")
    func maxSize() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 24 pages of text: sizes grow steadily.
        let pages = (1...24).map { (media: ScanPages.a4, rotate: 0, content: ScanPages.letter("Page \($0) of the report")) }
        try ScanPages.pdf(pages).write(to: dir.appendingPathComponent("report.pdf"))
        try pdfeditOK("open", "report.pdf", in: dir)
        let limit = 6000
        let result = try pdfedit("export", "--split", "parts", "--max-size", "6kB", "--name", "{n}-{first}-{last}", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let names = try Self.files(dir.appendingPathComponent("parts"))
        #expect(names.count >= 2)
        var next = 1
        for name in names {
            let bounds = name.dropLast(4).split(separator: "-").dropFirst().compactMap { Int($0) }
            #expect(bounds.first == next, "parts cover every page in order")
            let path = dir.appendingPathComponent("parts/\(name)").path
            #expect(try Self.size(path) <= limit, "\(name)")
            #expect(try Self.firstLine(path) == "Page \(bounds[0]) of the report")
            #expect(try qpdfCheck(path).status == 0)
            if bounds[1] < 24 {
                // The part with its next page, written the same way, is over the limit.
                let bigger = "bigger-\(bounds[0])"
                try pdfeditOK("export", "--split", bigger, "\(bounds[0])..\(bounds[1] + 1)", "--every", "1000", in: dir)
                let file = try Self.files(dir.appendingPathComponent(bigger))[0]
                #expect(try Self.size(dir.appendingPathComponent("\(bigger)/\(file)").path) > limit, "\(name) + 1 page")
            }
            next = bounds[1] + 1
        }
        #expect(next == 25)
        #expect(Reliability.temporaries(in: dir.appendingPathComponent("parts")).isEmpty)
        // With a grouping, each of its parts is cut further.
        try pdfeditOK("export", "--split", "groups", "--every", "6", "--max-size", "6kB", "--name", "{first}-{last}", in: dir)
        let grouped = try Self.files(dir.appendingPathComponent("groups"))
        #expect(grouped.allSatisfy { name in
            let b = name.dropLast(4).split(separator: "-").compactMap { Int($0) }
            return (b[0] - 1) / 6 == (b[1] - 1) / 6
        })
        // One page alone over the limit: an error naming it, nothing written.
        let tooSmall = try pdfedit("export", "--split", "tiny", "--max-size", "500B", in: dir)
        #expect(tooSmall.status == 65)
        #expect(tooSmall.stderr.contains("item @p1 (position 1) alone is"), "\(tooSmall.stderr)")
        #expect(try Self.files(dir.appendingPathComponent("tiny")).isEmpty)
        // Direct mode.
        let direct = try pdfedit("export", "--split", "direct", "--max-size", "6kB", "--from", "report.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try Self.files(dir.appendingPathComponent("direct")).count == names.count)
    }
}
