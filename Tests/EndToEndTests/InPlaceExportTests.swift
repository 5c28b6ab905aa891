import Foundation
import Testing

/// An export of most of one file's pages is written by rearranging that file in
/// place rather than by copying every page (twice as fast and half the memory at
/// 20,000 pages). It must write the same document as copying: the same objects,
/// in the same order, as `qpdf --qdf` lays them out (only byte offsets and the
/// /ID, which hashes the bytes, may differ). `PDFEDIT_NO_IN_PLACE` forces copying;
/// `PDFEDIT_NO_APPEND` keeps the edits that keep every page from being written as
/// an appended update instead (see AppendedExportTests).
@Suite struct InPlaceExportTests {
    /// The file as qpdf's QDF form without what depends on byte positions.
    func normalized(_ file: URL, in dir: URL) throws -> LaidOutPDF {
        let qdf = dir.appendingPathComponent("normalized-\(UUID().uuidString).pdf")
        let result = try run("qpdf", ["--qdf", "--object-streams=disable", file.path, qdf.path])
        #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
        defer { try? FileManager.default.removeItem(at: qdf) }
        return try LaidOutPDF(qdf: qdf)
    }

    /// The run's stderr without `PDFEDIT_TIMING`'s lines, and whether they say
    /// the output was rearranged in place (the bridge's "in-place" phase).
    static func withoutTiming(_ stderr: String) -> (stderr: String, inPlace: Bool) {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        let timing = lines.filter { $0.hasPrefix("pdfedit: time ") }
        return (
            lines.filter { !$0.hasPrefix("pdfedit: time ") }.joined(separator: "\n"),
            timing.contains { $0.hasPrefix("pdfedit: time in-place ") }
        )
    }

    /// The file written both ways; `inPlace` says the fast run really took the
    /// in-place path (the file may refuse it: then both runs copy).
    func bothWays(_ arguments: [String], file: String, in dir: URL) throws
        -> (inPlace: LaidOutPDF, copied: LaidOutPDF, tookInPlace: Bool)
    {
        let fast = dir.appendingPathComponent("fast.pdf")
        let slow = dir.appendingPathComponent("slow.pdf")
        // Appending an update (AppendedExportTests) would take the whole-document edits.
        let a = try pdfedit(
            args: arguments + [file, "-o", fast.path, "--force"], in: dir,
            environment: ["PDFEDIT_NO_APPEND": "1", "PDFEDIT_TIMING": "1"])
        let b = try pdfedit(
            args: arguments + [file, "-o", slow.path, "--force"], in: dir,
            environment: ["PDFEDIT_NO_IN_PLACE": "1", "PDFEDIT_TIMING": "1"])
        #expect(a.status == 0 && b.status == 0, "\(arguments) \(file): \(a.stderr) \(b.stderr)")
        let (fastErrors, tookInPlace) = Self.withoutTiming(a.stderr)
        let (slowErrors, slowInPlace) = Self.withoutTiming(b.stderr)
        #expect(fastErrors == slowErrors, "\(arguments) \(file)")
        #expect(!slowInPlace, "PDFEDIT_NO_IN_PLACE copies")
        return (try normalized(fast, in: dir), try normalized(slow, in: dir), tookInPlace)
    }

    static let edits: [[String]] = [
        ["reverse", "all"], ["rotate", "even", "--by", "90"], ["move", "1", "--to", "last"], ["duplicate", "1..2"],
        ["remove", "1"],
    ]

    /// The fixtures whose catalog and pages the in-place rewrite takes, and two it
    /// must refuse (features.pdf: a form, bookmarks, annotations; tagged.pdf: a
    /// structure tree), which are copied whatever the environment says.
    @Test(arguments: [
        ("alpha.pdf", true), ("beta.pdf", true), ("gamma.pdf", true), ("rotated.pdf", true), ("sizes.pdf", true),
        ("features.pdf", false), ("tagged.pdf", false),
    ])
    func sameDocumentAsCopying(fixture: String, rearranged: Bool) throws {
        let dir = try scratchDirectory(with: fixture)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = try #require(try qpdfPageCount(dir.appendingPathComponent(fixture).path))
        for edit in Self.edits {
            if edit == ["remove", "1"] && pages < 2 { continue }
            let (inPlace, copied, tookInPlace) = try bothWays(edit, file: fixture, in: dir)
            #expect(tookInPlace == rearranged, "\(fixture) \(edit): in place \(tookInPlace)")
            #expect(inPlace == copied, "\(fixture) \(edit): \(inPlace.firstDifference(from: copied))")
        }
    }

    @Test func titleAndLabelOptionsToo() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for options in [["--title", "Réordonné"], ["--labels", "renumber"], ["--labels", "none"]] {
            let fast = dir.appendingPathComponent("fast.pdf")
            let slow = dir.appendingPathComponent("slow.pdf")
            let rearranged = try pdfedit(
                args: ["export", fast.path, "2..6", "--from", "alpha.pdf", "--force"] + options, in: dir,
                environment: ["PDFEDIT_TIMING": "1"])
            #expect(rearranged.status == 0)
            #expect(Self.withoutTiming(rearranged.stderr).inPlace, "\(options): written in place")
            #expect(
                try pdfedit(
                    args: ["export", slow.path, "2..6", "--from", "alpha.pdf", "--force"] + options, in: dir,
                    environment: ["PDFEDIT_NO_IN_PLACE": "1"]
                ).status == 0)
            let (a, b) = (try normalized(fast, in: dir), try normalized(slow, in: dir))
            #expect(a == b, "\(options): \(a.firstDifference(from: b))")
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func sameDocumentAsCopyingForTheCorpus() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.corpus.path).filter { $0.hasSuffix(".pdf") }
        var rearranged: [String] = []
        var refused: [String] = []
        for name in names.sorted() {
            let file = dir.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
            let fast = dir.appendingPathComponent("fast.pdf")
            let slow = dir.appendingPathComponent("slow.pdf")
            let a = try pdfedit(
                "reverse", "all", name, "-o", fast.path, "--force", in: dir,
                environment: ["PDFEDIT_NO_APPEND": "1", "PDFEDIT_TIMING": "1"])
            let b = try pdfedit(
                "reverse", "all", name, "-o", slow.path, "--force", in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])
            #expect(a.status == b.status, "\(name)")
            // Files refused by both ways (damaged beyond use, a password) say so alike.
            guard a.status == 0 && b.status == 0 else {
                refused.append(name)
                continue
            }
            if Self.withoutTiming(a.stderr).inPlace { rearranged.append(name) }
            let (c, d) = (try normalized(fast, in: dir), try normalized(slow, in: dir))
            #expect(c == d, "\(name): \(c.firstDifference(from: d))")
            // The same pages, reversed, by poppler.
            let count = try #require(try qpdfPageCount(file.path))
            #expect(try pageText(fast.path, 1) == pageText(file.path, count), "\(name): first page is the last")
        }
        // Most of the corpus is written in place; only damaged or encrypted files fail.
        #expect(rearranged.count >= 5, "rearranged in place: \(rearranged)")
        #expect(refused.count <= 6, "refused: \(refused)")
    }

    @Test("a file qpdf repaired at open (a page listed twice) is rearranged in place with every page whole")
    func repairedFileKeepsItsPages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // qpdf gives the second use of page 11 a copy of its own, numbered past the
        // file's table: where the rearranged tree's first new object went too.
        let twice = dir.appendingPathComponent("twice.pdf")
        try UnparsedPageListTests.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 11 0 R 11 0 R 12 0 R] /Count 4 /MediaBox [0 0 300 200] >>",
            pages: [10: (UnparsedPageListTests.plain(2), 1), 11: (UnparsedPageListTests.plain(2), 2),
                    12: (UnparsedPageListTests.plain(2), 3)], to: twice.path)
        let (inPlace, copied, tookInPlace) = try bothWays(["move", "4", "--to", "1"], file: twice.path, in: dir)
        #expect(tookInPlace, "rearranged in place")
        #expect(inPlace == copied, "\(inPlace.firstDifference(from: copied))")
        let fast = dir.appendingPathComponent("fast.pdf").path
        let check = try qpdfCheck(fast)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(try pageTokens(fast) == ["TREE-P3", "TREE-P1", "TREE-P2", "TREE-P2"])
    }
}
