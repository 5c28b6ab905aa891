import Foundation
import Testing

/// `relink --rebase` on a regenerated source that gained and lost pages, and
/// `history --script` writing ids as selections another file understands.
@Suite(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
struct RebaseAndReplayTests {
    /// 4 pages of text (pdflatex).
    static let latex = "sample-pdflatex-outline.pdf"

    private func folder() throws -> URL {
        let dir = try temporaryDirectory()
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Paths.corpus(Self.latex)), to: dir.appendingPathComponent("report.pdf"))
        try DiffCommandTests.writeBox(dir.appendingPathComponent("box.pdf"))
        return dir
    }

    private func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace).sorted() }

    private func listed(_ dir: URL) throws -> [[String: Any]] {
        let list = try pdfeditOK("list", "--json", in: dir).stdout
        let json = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: Any])
        return try #require(json["items"] as? [[String: Any]])
    }

    /// The new version: a cover (blank) first, old page 2 gone: [blank, 1, 3, 4].
    private func regenerate(_ dir: URL, to name: String) throws {
        try pdfeditOK("blank", "--at", "1", "report.pdf", "-o", "tmp.pdf", in: dir)
        try pdfeditOK("remove", "3", "tmp.pdf", "-o", name, in: dir)
    }

    @Test func rebaseMapsPagesByContentAndReportsWhatIsGone() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "report.pdf", in: dir)
        try pdfeditOK("move", "4", "--to", "1", in: dir)  // p4 p1 p2 p3
        try pdfeditOK("stamp", "2", "box.pdf", in: dir)  // on p1
        try pdfeditOK("rotate", "4", "--by", "90", in: dir)  // p3
        try regenerate(dir, to: "report-v2.pdf")

        let result = try pdfedit("relink", "--rebase", "report.pdf", "report-v2.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "pdfedit: warning: report-v2.pdf: page 2 of the old version is not in it: report position 3 (@p2) is now a placeholder\n")
        #expect(result.stdout.contains("1 renumbered, 1 not found (now placeholders)"))

        let items = try listed(dir)
        #expect(items.map { $0["id"] as? String } == ["p4", "p1", "p2", "p3"])
        #expect(items.map { $0["kind"] as? String } == ["page", "page", "placeholder", "page"])
        #expect(items.map { $0["sourcePage"] as? Int } == [4, 2, nil, 3])
        #expect(items[3]["rotation"] as? Int == 90)
        #expect((items[1]["stamps"] as? [Any])?.count == 1)

        // Export names the placeholder; with --placeholders blank the pages are the new version's.
        let refused = try pdfedit("export", "out.pdf", in: dir)
        #expect(refused.status == 65)
        try pdfeditOK("export", "out.pdf", "--placeholders", "blank", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let v2 = dir.appendingPathComponent("report-v2.pdf").path
        #expect(try pageText(out, 1) == (try pageText(v2, 4)))
        #expect(try pageText(out, 2) == (try pageText(v2, 2)))
        // Turned 90°: the same words, which pdftotext reads in another order.
        #expect(try words(pageText(out, 4)) == words(pageText(v2, 3)))
        #expect(try run("qpdf", ["--check", out]).status == 0)
        // One undo step brings the old version back.
        try pdfeditOK("undo", in: dir)
        #expect(try listed(dir).map { $0["sourcePage"] as? Int } == [4, 1, 2, 3])
    }

    @Test func rebaseInPlaceUsesWhatTheSessionReadOfTheOldPages() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "report.pdf", in: dir)
        try pdfeditOK("remove", "1", in: dir)  // p2 p3 p4
        try pdfeditOK("list", in: dir)  // reads (and caches) every page's text
        try regenerate(dir, to: "report-v2.pdf")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("report.pdf"))
        try FileManager.default.moveItem(
            at: dir.appendingPathComponent("report-v2.pdf"), to: dir.appendingPathComponent("report.pdf"))
        #expect(try pdfedit("list", in: dir).status == 75)

        let result = try pdfedit("relink", "--rebase", "report.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("page 2 of the old version is not in it: report position 1 (@p2) is now a placeholder"))
        #expect(try listed(dir).map { $0["sourcePage"] as? Int } == [nil, 3, 4])
    }

    @Test func rebaseRefusals() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "report.pdf", in: dir)
        #expect(try pdfedit("relink", "--rebase", "nope.pdf", "report.pdf", in: dir).status == 64)
        #expect(try pdfedit("relink", "--rebase", "report.pdf", "missing.pdf", in: dir).status == 66)
        #expect(try pdfedit("relink", "report.pdf", in: dir).status == 64)
        #expect(try pdfedit("relink", "--rebase", "--force", "report.pdf", "x.pdf", in: dir).status == 64)
    }

    @Test func historyScriptWritesIdsAsSelectionsAndReplays() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "report.pdf", in: dir)
        try pdfeditOK("remove", "@p2", in: dir)
        try pdfeditOK("move", "@p4", "--before", "@p3", in: dir)
        let result = try pdfeditOK("history", "--script", in: dir)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[1].hasPrefix("# step 1: @p2 written as text:\""))
        // One script word: quoted as history records a word holding spaces and quotes.
        #expect(lines[2].hasPrefix("remove \"text:\\\""))
        // A position (--before @p3) takes no text: it stays an id, under the warning.
        #expect(lines[3] == "# warning: step 2 names items by id, which name nothing in another file")
        #expect(lines[4].hasPrefix("move \"text:\\\"") && lines[4].hasSuffix("\" --before @p3"))
        #expect(result.stderr == "pdfedit: 1 step names items by id: see the warnings in the script\n")

        // Replayed on the file with its pages in another order, the text finds the same page.
        try Data(lines[0...2].joined(separator: "\n").utf8).write(to: dir.appendingPathComponent("fix.txt"))
        try pdfeditOK("move", "2", "--to", "4", "report.pdf", "-o", "shuffled.pdf", in: dir)
        try pdfeditOK("apply", "fix.txt", "shuffled.pdf", "-o", "out/{name}", in: dir)
        let out = dir.appendingPathComponent("out/shuffled.pdf").path
        #expect(try qpdfPageCount(out) == 3)
        let original = Paths.corpus(Self.latex)
        for (page, source) in [(1, 1), (2, 3), (3, 4)] {
            #expect(try pageText(out, page) == (try pageText(original, source)))
        }
    }
}
