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

    func bothWays(_ arguments: [String], file: String, in dir: URL) throws -> (inPlace: LaidOutPDF, copied: LaidOutPDF) {
        let fast = dir.appendingPathComponent("fast.pdf")
        let slow = dir.appendingPathComponent("slow.pdf")
        // Appending an update (AppendedExportTests) would take the whole-document edits.
        let a = try pdfedit(
            args: arguments + [file, "-o", fast.path, "--force"], in: dir, environment: ["PDFEDIT_NO_APPEND": "1"])
        let b = try pdfedit(
            args: arguments + [file, "-o", slow.path, "--force"], in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])
        #expect(a.status == 0 && b.status == 0, "\(arguments) \(file): \(a.stderr) \(b.stderr)")
        #expect(a.stderr == b.stderr, "\(arguments) \(file)")
        return (try normalized(fast, in: dir), try normalized(slow, in: dir))
    }

    static let edits: [[String]] = [
        ["reverse", "all"], ["rotate", "even", "--by", "90"], ["move", "1", "--to", "last"], ["duplicate", "1..2"],
        ["remove", "1"],
    ]

    @Test(arguments: ["alpha.pdf", "beta.pdf", "gamma.pdf", "rotated.pdf", "sizes.pdf", "features.pdf", "tagged.pdf"])
    func sameDocumentAsCopying(fixture: String) throws {
        let dir = try scratchDirectory(with: fixture)
        defer { try? FileManager.default.removeItem(at: dir) }
        for edit in Self.edits {
            let pages = try qpdfPageCount(dir.appendingPathComponent(fixture).path) ?? 0
            if edit == ["remove", "1"] && pages < 2 { continue }
            let (inPlace, copied) = try bothWays(edit, file: fixture, in: dir)
            #expect(inPlace == copied, "\(fixture) \(edit): \(inPlace.firstDifference(from: copied))")
        }
    }

    @Test func titleAndLabelOptionsToo() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for options in [["--title", "Réordonné"], ["--labels", "renumber"], ["--labels", "none"]] {
            let fast = dir.appendingPathComponent("fast.pdf")
            let slow = dir.appendingPathComponent("slow.pdf")
            #expect(try pdfedit(args: ["export", fast.path, "2..6", "--from", "alpha.pdf", "--force"] + options, in: dir)
                .status == 0)
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
        for name in names.sorted() {
            let file = dir.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
            let fast = dir.appendingPathComponent("fast.pdf")
            let slow = dir.appendingPathComponent("slow.pdf")
            let a = try pdfedit(
                "reverse", "all", name, "-o", fast.path, "--force", in: dir, environment: ["PDFEDIT_NO_APPEND": "1"])
            let b = try pdfedit(
                "reverse", "all", name, "-o", slow.path, "--force", in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])
            #expect(a.status == b.status, "\(name)")
            guard a.status == 0 && b.status == 0 else { continue }
            let (c, d) = (try normalized(fast, in: dir), try normalized(slow, in: dir))
            #expect(c == d, "\(name): \(c.firstDifference(from: d))")
        }
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
        let (inPlace, copied) = try bothWays(["move", "4", "--to", "1"], file: twice.path, in: dir)
        #expect(inPlace == copied, "\(inPlace.firstDifference(from: copied))")
        let fast = dir.appendingPathComponent("fast.pdf").path
        let check = try qpdfCheck(fast)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(try pageTokens(fast) == ["TREE-P3", "TREE-P1", "TREE-P2", "TREE-P2"])
    }
}
