import Foundation
import Testing

/// `pdfedit diff`: pairs of corpus files made by our own edits, with known
/// answers (moved, removed, inserted, rotated, changed in place where the
/// stamp is), the exit status as diff(1)'s, the JSON schema, the sheet, and
/// the session forms `--history` and `--sources`.
@Suite(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
struct DiffCommandTests {
    /// 3 pages of three sizes, a few words each.
    static let sizes = "pdfjs-sizes.pdf"
    /// 4 pages of text (pdflatex, with links between them).
    static let latex = "sample-pdflatex-outline.pdf"

    /// A 200 × 60 pt black box: the stamp, centred on the page it is stamped on.
    static func writeBox(_ url: URL) throws {
        let content = "0 0 0 rg 0 0 200 60 re f"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 60] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        try TestPDF.bytes(objects, header: "%PDF-1.4\n").write(to: url)
    }

    /// A folder holding `a.pdf` (a copy of a corpus file) and `box.pdf`.
    private func folder(_ corpusFile: String) throws -> URL {
        let dir = try temporaryDirectory()
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Paths.corpus(corpusFile)), to: dir.appendingPathComponent("a.pdf"))
        try Self.writeBox(dir.appendingPathComponent("box.pdf"))
        return dir
    }

    private func diff(_ arguments: String..., in dir: URL) throws -> Run {
        try pdfedit(args: ["diff"] + arguments, in: dir)
    }

    @Test func eachEditInItsOwnWords() throws {
        let dir = try folder(Self.sizes)
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("move", "3", "--to", "1", "a.pdf", "-o", "moved.pdf", in: dir)
        try pdfeditOK("remove", "2", "a.pdf", "-o", "removed.pdf", in: dir)
        try pdfeditOK("blank", "--at", "2", "a.pdf", "-o", "blank.pdf", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", "a.pdf", "-o", "rotated.pdf", in: dir)
        try pdfeditOK("stamp", "1", "box.pdf", "a.pdf", "-o", "stamped.pdf", in: dir)
        let expected = [
            "moved.pdf": "3 -> 1  moved\na.pdf (3 pages) and moved.pdf (3 pages) differ: 1 moved\n",
            "removed.pdf": "2 -> -  removed\na.pdf (3 pages) and removed.pdf (2 pages) differ: 1 removed\n",
            "blank.pdf": "- -> 2  inserted\na.pdf (3 pages) and blank.pdf (4 pages) differ: 1 inserted\n",
            "rotated.pdf": "2 -> 2  rotated 90\na.pdf (3 pages) and rotated.pdf (3 pages) differ: 1 rotated\n",
            // The box is 200 x 60 pt at the centre of a 612 x 792 pt page: x 206-406, y 366-426 from the top,
            // found in cells of 16 pt.
            "stamped.pdf": "1 -> 1  changed at 192,352-416,432\na.pdf (3 pages) and stamped.pdf (3 pages) differ: 1 changed\n",
        ]
        for (file, report) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try diff("a.pdf", file, in: dir)
            #expect(result.status == 1, "\(file): \(result.stderr)")
            #expect(result.stdout == report, "\(file)")
            #expect(result.stderr == "")
        }
        // pdfinfo agrees on where the stamp went: page 1 is 612 x 792.
        let info = try run("pdfinfo", ["-f", "1", "-l", "1", dir.appendingPathComponent("stamped.pdf").path]).stdout
        #expect(info.contains("612 x 792 pts"))
    }

    @Test func severalEditsAtOnceOnRenumberedPages() throws {
        let dir = try folder(Self.latex)
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("move", "4", "--to", "1", "a.pdf", "-o", "b1.pdf", in: dir)
        try pdfeditOK("rotate", "3", "--by", "180", "b1.pdf", "-o", "b2.pdf", in: dir)
        try pdfeditOK("blank", "--at", "5", "b2.pdf", "-o", "b3.pdf", in: dir)
        try pdfeditOK("stamp", "2", "box.pdf", "b3.pdf", "-o", "b.pdf", in: dir)
        let result = try diff("a.pdf", "b.pdf", in: dir)
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                4 -> 1  moved
                1 -> 2  changed at 192,384-400,464
                2 -> 3  rotated 180
                - -> 5  inserted
                a.pdf (4 pages) and b.pdf (5 pages) differ: 1 moved, 1 inserted, 1 rotated, 1 changed

                """)
        // Page 2 of b.pdf is page 1 of a.pdf with the box over its text, which stays.
        #expect(try pageText(dir.appendingPathComponent("b.pdf").path, 2) == (try pageText(Paths.corpus(Self.latex), 1)))
    }

    /// An export rewrites the links of the pages it copies (pdflatex's named
    /// destinations become page references): what a click does changes, what
    /// the page draws does not. Such a page is the same page to `diff` (paired by
    /// its fingerprint, not drawn: a long book diffed after one inserted page
    /// would otherwise draw every page with links) and to `dup`.
    @Test func pagesWhoseLinksWereRewrittenAreTheSame() throws {
        let dir = try folder(Self.latex)
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("blank", "--at", "2", "a.pdf", "-o", "b.pdf", in: dir)
        let result = try diff("a.pdf", "b.pdf", in: dir)
        #expect(result.status == 1)
        #expect(result.stdout == "- -> 2  inserted\na.pdf (4 pages) and b.pdf (5 pages) differ: 1 inserted\n")
        // In one document: a.pdf's 4 pages, then b.pdf's 5 (a blank at 2). `dup`
        // wants the links equal too, so b.pdf's page 1, whose links the export
        // rewrote, is not a later copy (`remove dup` never drops a page whose
        // links lead elsewhere); its other pages are.
        try pdfeditOK("open", "a.pdf", in: dir)
        try pdfeditOK("insert", "b.pdf", in: dir)
        let listed = try pdfeditOK("list", "dup", "--json", "--no-text", in: dir).stdout
        let object = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any]
        let positions = (object?["items"] as? [[String: Any]] ?? []).compactMap { $0["position"] as? Int }
        #expect(positions == [7, 8, 9])
    }

    @Test func exitStatusAsDiffs() throws {
        let dir = try folder(Self.sizes)
        defer { try? FileManager.default.removeItem(at: dir) }
        // qpdf rewrites every object: the pages still draw the same.
        try #require(try run("qpdf", [dir.appendingPathComponent("a.pdf").path, dir.appendingPathComponent("copy.pdf").path]).status == 0)
        let same = try diff("a.pdf", "copy.pdf", in: dir)
        #expect(same.status == 0)
        #expect(same.stdout == "a.pdf (3 pages) and copy.pdf (3 pages) are the same\n")
        #expect(try diff("a.pdf", "a.pdf", "-q", in: dir).stdout == "")

        let one = try diff("a.pdf", in: dir)
        #expect(one.status == 64)
        #expect(one.stderr.hasPrefix("pdfedit: diff compares two files, not 1"))
        #expect(try diff("a.pdf", "copy.pdf", "--history", "0..1", in: dir).status == 64)
        #expect(try diff(in: dir).status == 64)

        let missing = try diff("a.pdf", "nothing.pdf", in: dir)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nothing.pdf"))

        try Data("this is not a PDF\n".utf8).write(to: dir.appendingPathComponent("text.pdf"))
        let bad = try diff("text.pdf", "a.pdf", in: dir)
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("pdfedit: text.pdf"))
    }

    @Test func jsonSchema() throws {
        let dir = try folder(Self.sizes)
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "2", "a.pdf", "-o", "r.pdf", in: dir)
        try pdfeditOK("stamp", "1", "box.pdf", "r.pdf", "-o", "b.pdf", in: dir)
        let result = try diff("a.pdf", "b.pdf", "--json", in: dir)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["schema", "left", "right", "same", "counts", "pages"])
        #expect(json["schema"] as? Int == 1)
        #expect(json["same"] as? Bool == false)
        #expect((json["left"] as? [String: Any])?["name"] as? String == "a.pdf")
        #expect((json["right"] as? [String: Any])?["pages"] as? Int == 2)
        let counts = try #require(json["counts"] as? [String: Int])
        #expect(counts == ["same": 1, "moved": 0, "removed": 1, "inserted": 0, "rotated": 0, "changed": 1])
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(pages.count == 3)
        #expect(pages[0]["left"] as? Int == 1 && pages[0]["right"] as? Int == 1)
        #expect(pages[0]["status"] as? [String] == ["changed"])
        #expect(pages[0]["textChanged"] as? Bool == false)
        let region = try #require((pages[0]["regions"] as? [[String: Double]])?.first)
        #expect(region == ["x0": 192, "y0": 352, "x1": 416, "y1": 432])
        #expect(pages[1]["left"] as? Int == 2 && pages[1]["right"] == nil)
        #expect(pages[1]["status"] as? [String] == ["removed"])
        #expect(pages[2]["status"] as? [String] == ["same"])
    }

    @Test func sheetShowsTheChangedPagesSideBySide() throws {
        let dir = try folder(Self.sizes)
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("stamp", "1", "box.pdf", "a.pdf", "-o", "b.pdf", in: dir)
        let result = try diff("a.pdf", "b.pdf", "--sheet", "changes.png", in: dir)
        #expect(result.status == 1)
        let png = dir.appendingPathComponent("changes.png").path
        // Two 300 px cells side by side (show's layout: 30 px gaps, a 53 px header, 67 px captions).
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]).convert("RGB")
            red = sum(1 for p in im.getdata() if p[0] > 200 and p[1] < 60 and p[2] < 60)
            print(im.size[0], im.size[1], red)
            """
        let measured = try run("python3", ["-c", script, png]).stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(measured.count == 3)
        #expect(measured.first ?? 0 >= 690)
        #expect(measured.dropFirst().first == 480)
        #expect(measured.last ?? 0 > 200, "outline pixels")
        // Not replaced without --force; replaced with it.
        let again = try diff("a.pdf", "b.pdf", "--sheet", "changes.png", in: dir)
        #expect(again.status == 73)
        #expect(try diff("a.pdf", "b.pdf", "--sheet", "changes.png", "--force", in: dir).status == 1)
        #expect(try diff("a.pdf", "b.pdf", "--sheet", "a.pdf", "--force", in: dir).status == 73)
    }

    @Test func historyAndSourcesOfASession() throws {
        let dir = try folder(Self.latex)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.moveItem(
            at: dir.appendingPathComponent("a.pdf"), to: dir.appendingPathComponent("report.pdf"))
        try pdfeditOK("open", "report.pdf", in: dir)
        try pdfeditOK("move", "4", "--to", "1", in: dir)
        try pdfeditOK("rotate", "3", "--by", "90", in: dir)
        try pdfeditOK("stamp", "2", "box.pdf", in: dir)
        try pdfeditOK("remove", "4", in: dir)
        let whole = try diff("--history", "0..4", in: dir)
        #expect(whole.status == 1)
        #expect(
            whole.stdout == """
                4 -> 1  moved
                1 -> 2  changed at 192,384-400,464
                2 -> 3  rotated 90
                3 -> -  removed
                step 0 (4 pages) and step 4 (3 pages) differ: 1 moved, 1 removed, 1 rotated, 1 changed

                """)
        #expect(
            try diff("--history", "1..2", in: dir).stdout
                == "3 -> 3  rotated 90\nstep 1 (4 pages) and step 2 (4 pages) differ: 1 rotated\n")
        // N alone: against now; an undone step is a state too.
        try pdfeditOK("undo", in: dir)
        #expect(try diff("--history", "3", in: dir).stdout == "step 3 (4 pages) and step 3 (4 pages) are the same\n")
        #expect(try diff("--history", "3..4", in: dir).stdout.hasPrefix("4 -> -  removed\n"))
        #expect(try diff("--history", "0..5", in: dir).status == 64)
        #expect(try diff("--history", "0..1", "--doc", "nope", in: dir).status == 64)

        let sources = try diff("--sources", in: dir)
        #expect(sources.status == 1)
        #expect(
            sources.stdout == """
                report.pdf:4 -> 1  moved
                report.pdf:1 -> 2  changed at 192,384-400,464
                report.pdf:2 -> 3  rotated 90
                sources (4 pages) and report (4 pages) differ: 1 moved, 1 rotated, 1 changed

                """)
        // The session itself is left as it was.
        #expect(try pdfeditOK("history", in: dir).stdout.contains("remove 4   (undone)"))
    }
}
