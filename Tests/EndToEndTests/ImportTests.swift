import Foundation
import Testing

/// insert, placeholder, fill and relink through the built binary.
@Suite struct ImportTests {
    func listing(_ dir: URL, _ extra: String...) throws -> [[String: Any]] {
        let result = try pdfedit(args: ["list", "--json"] + extra, in: dir)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["items"] as? [[String: Any]] ?? []
    }

    @Test("one bad file cancels the insert and every bad file is named; the code is the first one's")
    func allOrNothing() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf", "gamma.pdf", "notapdf.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let result = try pdfedit("insert", "beta.pdf", "missing.pdf", "gamma.pdf", "notapdf.pdf", "--at", "2", in: dir)
        #expect(result.status == 66)  // missing.pdf comes first
        #expect(result.stderrLines == [
            "pdfedit: missing.pdf: no such file",
            "pdfedit: notapdf.pdf: not a PDF or a supported image (JPEG, PNG)",
        ])
        #expect(try sessionBytes(dir) == before)
    }

    @Test("--keep-going inserts the good files in argument order and exits 3")
    func keepGoing() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf", "gamma.pdf", "notapdf.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let result = try pdfedit(
            "insert", "gamma.pdf", "notapdf.pdf", "beta.pdf", "--at", "2", "--keep-going", in: dir)
        #expect(result.status == 3)
        #expect(result.stderrLines == [
            "pdfedit: 1 of 3 items not imported",
            "pdfedit: notapdf.pdf: not a PDF or a supported image (JPEG, PNG)",
        ])
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 7 + 3 + 5)
        #expect(try pageText(out, 2).contains("GAMMA-P1"))
        #expect(try pageText(out, 5).contains("BETA-P1"))
        #expect(try pageText(out, 10).contains("ALPHA-P2"))
        // One undo step takes the whole insert back.
        try pdfeditOK("undo", in: dir)
        #expect(try listing(dir).count == 7)
    }

    @Test("files read in parallel land in argument order, a slow big one included")
    func parallelOrder() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A big file takes longer to read (and hash) than the small one after it.
        let big = dir.appendingPathComponent("big.pdf").path
        try run("python3", [Paths.root.appendingPathComponent("scripts/make-big-pdf.py").path, "3000", big])
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "big.pdf", "beta.pdf", "--at", "1", in: dir)
        let items = try listing(dir)
        #expect(items.count == 3000 + 5 + 7)
        #expect((items[0]["source"] as? String) == "big.pdf")
        #expect((items[2999]["sourcePage"] as? Int) == 3000)
        #expect((items[3000]["source"] as? String) == "beta.pdf")
        #expect((items[3005]["source"] as? String) == "alpha.pdf")
    }

    @Test func placeholderLifecycle() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "gamma.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("placeholder", "--at", "2", "--label", "signed form", "--size", "a5", in: dir)
        let items = try listing(dir)
        #expect(items[1]["kind"] as? String == "placeholder")
        #expect(items[1]["placeholderLabel"] as? String == "signed form")
        let refused = try pdfedit("export", "out.pdf", in: dir)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("still holds a placeholder at position 2; fill it or"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        try pdfeditOK("export", "blank.pdf", "--placeholders", "blank", in: dir)
        let blankInfo = try run("pdfinfo", ["-f", "2", "-l", "2", dir.appendingPathComponent("blank.pdf").path]).stdout
        #expect(blankInfo.contains("419.") && blankInfo.contains("595."))
        try pdfeditOK("fill", "2", "gamma.pdf", in: dir)
        #expect(try listing(dir).count == 7 + 3)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try pageText(out, 2).contains("GAMMA-P1") && pageText(out, 4).contains("GAMMA-P3"))
        #expect(try pageText(out, 5).contains("ALPHA-P2"))
        // Undo the fill: the placeholder is back; redo: filled again.
        try pdfeditOK("undo", in: dir)
        #expect(try listing(dir)[1]["kind"] as? String == "placeholder")
        try pdfeditOK("redo", in: dir)
        #expect(try listing(dir).count == 10)
        // Filling something that is not a placeholder is refused.
        #expect(try pdfedit("fill", "1", "gamma.pdf", in: dir).status == 64)
    }

    @Test func relinkAMovedSource() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("archive"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: dir.appendingPathComponent("alpha.pdf"), to: dir.appendingPathComponent("archive/alpha.pdf"))
        #expect(try pdfedit("export", "out.pdf", in: dir).status == 75)
        let status = try pdfedit("status", "--json", in: dir)
        #expect(status.stdout.contains("\"missing\""))
        let different = try pdfedit("relink", "alpha.pdf", "beta.pdf", in: dir)
        #expect(different.status == 64)
        #expect(different.stderr.contains("--force"))
        try pdfeditOK("relink", "alpha.pdf", "archive/alpha.pdf", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try qpdfCheck(out.path).status == 0)
        #expect(try pageTokens(out) == (1...7).map { "ALPHA-P\($0)" })
        try pdfeditOK("undo", in: dir)
        #expect(try pdfedit("export", "again.pdf", in: dir).status == 75)
    }

    @Test("insert every corpus file into a session: the right page count or a clean refusal",
          .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
          arguments: CorpusEntry.load())
    func insertCorpusFile(_ entry: CorpusEntry) throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        var arguments = ["insert", entry.path, "--at", "1"]
        if let password = entry.userPassword { arguments += ["--password", password] }
        let result = try pdfedit(args: arguments, in: dir)
        if let pages = entry.pages, !entry.features.contains("page-tree-loop") {
            #expect(result.status == 0, "\(result.stderr)")
            // Listing reads the source: an encrypted one needs its password there too (else 77).
            #expect(try listing(dir, "--no-text", "--password", entry.userPassword ?? "").count == 7 + pages)
            if entry.userPassword != nil { #expect(try pdfedit("list", in: dir).status == 77) }
            #expect(result.stderrLines.allSatisfy { $0.hasPrefix("pdfedit: warning: ") })
        } else {
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains(entry.file))
            #expect(try sessionBytes(dir) == before)
        }
    }
}
