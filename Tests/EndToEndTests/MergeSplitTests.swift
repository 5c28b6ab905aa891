import Foundation
import Testing

/// Issue 46: `merge` and `split`, the two words new users look for first, as
/// thin commands over `insert` in direct mode and `export --split`.
@Suite struct MergeSplitTests {
    @Test("merge joins files in order, keeps their parts, and refuses what it cannot do")
    func merge() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf", "logo.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let merged = try pdfedit("merge", "alpha.pdf", "beta.pdf", "logo.png", "-o", "all.pdf", in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == "wrote all.pdf (13 pages from 3 files)\n", "\(merged.stdout)")
        let out = dir.appendingPathComponent("all.pdf").path
        #expect(try run("qpdf", ["--check", out]).status == 0)
        #expect(try qpdfPageCount(out) == 13)
        #expect(try run("pdftotext", ["-f", "8", "-l", "8", out, "-"]).stdout.contains("BETA-P1"))
        #expect(try run("pdftotext", ["-f", "7", "-l", "7", out, "-"]).stdout.contains("ALPHA-P7"))
        // The same as insert --at last in direct mode, byte for byte — a second
        // later too: the output is dated by the image file, not by the page PDF
        // made of it at import (which once made the two differ across a second).
        Thread.sleep(forTimeInterval: 1.1)
        try pdfeditOK("insert", "beta.pdf", "logo.png", "--at", "last", "alpha.pdf", "-o", "insert.pdf", in: dir)
        let viaInsert = try Data(contentsOf: dir.appendingPathComponent("insert.pdf"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == viaInsert)

        // An existing output is kept without --force; the inputs are never touched.
        let again = try pdfedit("merge", "alpha.pdf", "beta.pdf", "-o", "all.pdf", in: dir)
        #expect(again.status == 73)
        #expect(try qpdfPageCount(out) == 13)
        #expect(try pdfedit("merge", "alpha.pdf", "-o", "one.pdf", in: dir).status == 64)
        let noOutput = try pdfedit("merge", "alpha.pdf", "beta.pdf", in: dir)
        #expect(noOutput.status == 64 && noOutput.stderr.contains("give -o OUT"), "\(noOutput.stderr)")
        let missing = try pdfedit("merge", "alpha.pdf", "nope.pdf", "-o", "x.pdf", in: dir)
        #expect(missing.status == 66 && missing.stderr.contains("nope.pdf"), "\(missing.stderr)")

        // --in-place adds the others to the first file.
        try pdfeditOK("merge", "alpha.pdf", "beta.pdf", "--in-place", in: dir)
        #expect(try qpdfPageCount(dir.appendingPathComponent("alpha.pdf").path) == 12)
    }

    @Test("split writes the parts -o names, by page, every K, at pages, at bookmarks")
    func split() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let each = try pdfedit("split", "alpha.pdf", "-o", "pages/page-{n}.pdf", in: dir)
        #expect(each.status == 0, "\(each.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pages").path).sorted()
        #expect(pages.count == 7 && pages.first == "page-1.pdf", "\(pages)")
        #expect(try run("pdftotext", [dir.appendingPathComponent("pages/page-3.pdf").path, "-"]).stdout.contains("ALPHA-P3"))

        try pdfeditOK("split", "alpha.pdf", "-o", "threes/part-{n}.pdf", "--every", "3", in: dir)
        let counts = try (1...3).map { try qpdfPageCount(dir.appendingPathComponent("threes/part-\($0).pdf").path) }
        #expect(counts == [3, 3, 1])

        try pdfeditOK("split", "alpha.pdf", "-o", "at/{first}-{last}.pdf", "--at", "text:ALPHA-P4", in: dir)
        #expect(try qpdfPageCount(dir.appendingPathComponent("at/1-3.pdf").path) == 3)
        #expect(try qpdfPageCount(dir.appendingPathComponent("at/4-7.pdf").path) == 4)

        // The same parts as export --split, byte for byte.
        try pdfeditOK("export", "--split", "exported", "--every", "3", "--name", "part-{n}.pdf", "--from", "alpha.pdf", in: dir)
        let exported = try Data(contentsOf: dir.appendingPathComponent("exported/part-2.pdf"))
        #expect(try Data(contentsOf: dir.appendingPathComponent("threes/part-2.pdf")) == exported)

        // A template without a field would write every part to one name.
        let bare = try pdfedit("split", "alpha.pdf", "-o", "parts", in: dir)
        #expect(bare.status == 64 && bare.stderr.contains("-o 'parts/part-{n}.pdf'"), "\(bare.stderr)")
        let both = try pdfedit("split", "alpha.pdf", "-o", "x/{n}.pdf", "--every", "2", "--at", "3", in: dir)
        #expect(both.status == 64 && both.stderr.contains("--every and --at"), "\(both.stderr)")
    }

    @Test(
        "split at bookmarks of a corpus book",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func splitAtBookmarks() throws {
        let book = Paths.corpus("sample-pdflatex-outline.pdf")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let parts = try pdfedit("split", book, "-o", "chapters/{n}-{title}.pdf", "--outline", "1", in: dir)
        #expect(parts.status == 0, "\(parts.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("chapters").path)
        #expect(names.count >= 2, "\(names)")
        for name in names {
            #expect(try run("qpdf", ["--check", dir.appendingPathComponent("chapters/\(name)").path]).status == 0)
        }
    }
}
