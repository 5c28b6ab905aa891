import Foundation
import Testing

/// What an export keeps, seen through the binary: bookmarks as split points,
/// labels, title and the dropped-data warning.
@Suite struct FidelityEndToEndTests {
    @Test("--at-outlines: one part per top-level bookmark, pages before the first one as \"front\"")
    func splitAtOutlines() throws {
        let dir = try scratchDirectory(with: "features.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("insert", "alpha.pdf", "--at", "1", in: dir)
        let result = try pdfedit("export", "--split", "ch", "--at-outlines", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let parts = dir.appendingPathComponent("ch")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).sorted()
            == ["1-front.pdf", "2-Chapter 1.pdf", "3-Chapter 2.pdf", "4-Appendix.pdf"])
        #expect(try pageTokens(parts.appendingPathComponent("2-Chapter 1.pdf")) == ["FEAT-P1", "FEAT-P2", "FEAT-P3"])
        #expect(try pageTokens(parts.appendingPathComponent("3-Chapter 2.pdf")) == ["FEAT-P4", "FEAT-P5"])
        #expect(try qpdfPageCount(parts.appendingPathComponent("1-front.pdf").path) == 7)
        // Each part keeps the outline entries of its own pages.
        let json = try run("qpdf", ["--json", "--json-key=outlines", parts.appendingPathComponent("3-Chapter 2.pdf").path]).stdout
        #expect(json.contains("Chapter 2") && json.contains("Section 2.1") && !json.contains("Appendix"))
        let named = try pdfedit("export", "--split", "named", "--at-outlines", "--name", "{n}_{title}_{first}-{last}", in: dir)
        #expect(named.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("named/3_Chapter 2_11-12.pdf").path))
    }

    @Test func labelsTitleAndDroppedData() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("move", "3", "--to", "1", in: dir)
        try pdfeditOK("export", "keep.pdf", "--title", "Reordered", in: dir)
        let keep = try pdfedit("info", "--json", "keep.pdf", in: dir)
        let object = try JSONSerialization.jsonObject(with: Data(keep.stdout.utf8)) as? [String: Any]
        let labels = (object?["pages"] as? [[String: Any]])?.map { $0["label"] as? String ?? "-" }
        #expect(labels == ["1", "i", "ii", "2", "3", "4"])
        #expect(object?["title"] as? String == "Reordered")
        try pdfeditOK("export", "renumber.pdf", "--labels", "renumber", in: dir)
        let renumbered = try run("qpdf", ["--json", "--json-key=pagelabels", dir.appendingPathComponent("renumber.pdf").path]).stdout
        #expect(renumbered.contains("\"/S\": \"/D\"") && !renumbered.contains("\"/r\""))
        try pdfeditOK("export", "none.pdf", "--labels", "none", in: dir)
        let none = try run("qpdf", ["--json", "--json-key=pagelabels", dir.appendingPathComponent("none.pdf").path]).stdout
        #expect(none.contains("\"pagelabels\": []"))
        #expect(try pdfedit("export", "bad.pdf", "--labels", "roman", in: dir).status == 64)
        // The form survives the reorder: both fields, each on its page.
        let form = try run("qpdf", ["--json", "--json-key=acroform", dir.appendingPathComponent("keep.pdf").path]).stdout
        #expect(form.contains("\"name\"") && form.contains("\"agree\""))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func droppedDocumentDataIsOneWarningLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("export", "x.pdf", "--from", Paths.corpus("pdfbox-testPDFPackage.pdf"), in: dir)
        #expect(result.status == 0)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("pdfedit: warning: ") && result.stderr.contains("JavaScript"))
    }

    @Test("a damaged source that qpdf recovers gives one warning line per command, naming the file as given",
          .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func recoveredDamageIsOneLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Paths.corpus("pdfjs-issue7229.pdf")), to: dir.appendingPathComponent("d.pdf"))
        for arguments in [["open", "d.pdf"], ["export", "out.pdf"], ["export", "o2.pdf", "--from", "d.pdf"],
                          ["move", "1", "--to", "2", "d.pdf", "-o", "o3.pdf"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines == ["pdfedit: warning: d.pdf: damaged, recovered (file is damaged)"], "\(arguments)")
        }
    }
}
