import Foundation
import Testing

/// `optimize` (and `--compress`) of every page of a file in its order writes
/// the file's own document whole (WholeFile.cpp) instead of copying its pages
/// into a new one: it must be the document copying writes (`PDFEDIT_NO_IN_PLACE`
/// forces copying), as independent tools read it, no larger than qpdf's own
/// rewrite, and whatever copying drops or cannot read sends the file to copying.
@Suite struct WholeFileExportTests {
    /// The run's stderr without `PDFEDIT_TIMING`'s lines, and whether they say
    /// the output was written whole (the bridge's "whole-file" phase).
    static func withoutTiming(_ stderr: String) -> (stderr: String, whole: Bool) {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        return (
            lines.filter { !$0.hasPrefix("pdfedit: time ") }.joined(separator: "\n"),
            lines.contains { $0.hasPrefix("pdfedit: time whole-file ") }
        )
    }

    /// `arguments` (writing to OUT) run both ways in `dir`: the default and
    /// copying. Their outputs, stderr (timing removed) and whether each was
    /// written whole.
    static func bothWays(_ arguments: [String], in dir: URL, environment: [String: String] = [:]) throws
        -> (whole: String, copied: String, wholeRun: (stderr: String, whole: Bool), copiedRun: (stderr: String, whole: Bool))
    {
        let whole = dir.appendingPathComponent("whole.pdf").path
        let copied = dir.appendingPathComponent("copied.pdf").path
        var timed = environment
        timed["PDFEDIT_TIMING"] = "1"
        let a = try pdfedit(args: arguments.map { $0 == "OUT" ? whole : $0 } + ["--force"], in: dir, environment: timed)
        timed["PDFEDIT_NO_IN_PLACE"] = "1"
        let b = try pdfedit(args: arguments.map { $0 == "OUT" ? copied : $0 } + ["--force"], in: dir, environment: timed)
        #expect(a.status == 0 && b.status == 0, "\(arguments): \(a.stderr) \(b.stderr)")
        return (whole, copied, withoutTiming(a.stderr), withoutTiming(b.stderr))
    }

    /// Link annotations on the pages, per `qpdf --json`.
    static func linkCount(_ file: String) throws -> Int {
        let result = try run("qpdf", ["--json=2", "--json-key=qpdf", "--json-key=pages", file])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let objects = try #require((json["qpdf"] as? [Any])?[1] as? [String: Any])
        func resolve(_ value: Any?) -> Any? {
            guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
            return (objects["obj:\(reference)"] as? [String: Any])?["value"]
        }
        var links = 0
        for page in json["pages"] as? [[String: Any]] ?? [] {
            let dict = resolve(page["object"]) as? [String: Any]
            for annot in resolve(dict?["/Annots"]) as? [Any] ?? [] {
                if (resolve(annot) as? [String: Any])?["/Subtype"] as? String == "/Link" { links += 1 }
            }
        }
        return links
    }

    /// The two outputs show the same document: qpdf --check clean, the same
    /// page count (pdfinfo), text on every page (pdftotext), links and
    /// bookmarks (qpdf --json).
    static func sameDocument(_ whole: String, _ copied: String, _ label: String) throws {
        #expect(try qpdfCheck(whole).status == 0, "\(label)")
        let info = { (file: String) in
            try run("pdfinfo", [file]).stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") }.map(String.init)
        }
        #expect(try info(whole) == info(copied), "\(label)")
        let pages = try #require(try qpdfPageCount(whole))
        for page in 1...pages {
            #expect(try pageText(whole, page) == pageText(copied, page), "\(label) page \(page)")
        }
        #expect(try linkCount(whole) == linkCount(copied), "\(label)")
        let parts = try DocumentParts(whole, password: nil)
        let copiedParts = try DocumentParts(copied, password: nil)
        #expect(parts.outlineEntries == copiedParts.outlineEntries, "\(label)")
        #expect(parts.fields == copiedParts.fields, "\(label)")
        #expect(parts.hasPageLabels == copiedParts.hasPageLabels, "\(label)")
        #expect(parts.language == copiedParts.language, "\(label)")
    }

    static func size(_ file: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
    }

    /// Corpus files: a pdfTeX book with named destinations and bookmarks, a
    /// tagged scan, a form, a tagged report, a many-page paper: written whole,
    /// the same document as copying writes, at most qpdf's size.
    @Test(
        .enabled(if: Paths.corpusAvailable),
        arguments: [
            "sample-pdflatex-outline.pdf", "ocrmypdf-tagged.pdf", "plumber-pdffill-demo.pdf", "pdfjs-TAMReview.pdf",
            "pdfjs-tracemonkey.pdf",
        ])
    func corpusFileWrittenWhole(file: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (whole, copied, wholeRun, copiedRun) = try Self.bothWays(["optimize", Paths.corpus(file), "-o", "OUT"], in: dir)
        #expect(wholeRun.whole, "\(file): \(wholeRun.stderr)")
        #expect(!copiedRun.whole)
        #expect(wholeRun.stderr == copiedRun.stderr, "\(file)")
        try Self.sameDocument(whole, copied, file)
        let qpdf = dir.appendingPathComponent("qpdf.pdf").path
        let rewritten = try run(
            "qpdf", ["--object-streams=generate", "--recompress-flate", "--compression-level=9", Paths.corpus(file), qpdf])
        #expect(rewritten.status == 0 || rewritten.status == 3)
        let (wholeSize, qpdfSize) = (try Self.size(whole), try Self.size(qpdf))
        #expect(wholeSize <= qpdfSize, "\(file): \(wholeSize) > qpdf's \(qpdfSize)")
        // Named destinations left out, as copying leaves them (links made explicit).
        let json = try run("qpdf", ["--show-object=trailer", whole]).stdout
        #expect(!json.contains("/Dests"))
    }

    /// A tagged file keeps its whole structure tree (every element, its
    /// parent tree and /StructParents), as copying rebuilds it.
    @Test func taggedFileKeepsItsTree() throws {
        let dir = try LosslessStructureTests.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (whole, copied, wholeRun, _) = try Self.bothWays(["optimize", "tagged.pdf", "-o", "OUT"], in: dir)
        #expect(wholeRun.whole && !wholeRun.stderr.contains("structure tree"), "\(wholeRun.stderr)")
        try Self.sameDocument(whole, copied, "tagged.pdf")
        let kept = try TaggedStructure(whole)
        let rebuilt = try TaggedStructure(copied)
        #expect(kept.hasTree && kept.elements == rebuilt.elements && kept.elements > 0)
        #expect(kept.elementTypes == rebuilt.elementTypes)
        #expect(kept.pages.count == 4)
    }

    /// A tree deeper than the limit copying reads to (PDFEDIT_MAX_DEPTH): the
    /// file is copied and its tree dropped with copying's warning, not kept
    /// silently.
    @Test func aTreeTooDeepIsDroppedAsCopyingDropsIt() throws {
        let chain = (0..<40).map { "<< /S /Div /K \($0 == 39 ? "<< /Type /MCR /Pg 6 0 R /MCID 0 >>" : "\($0 + 41) 0 R") >>" }
        let dir = try LosslessStructureTests.fixtures(
            sect: "/K 40 0 R", extra: Dictionary(uniqueKeysWithValues: chain.enumerated().map { ($0.offset + 40, $0.element) }))
        defer { try? FileManager.default.removeItem(at: dir) }
        let (whole, copied, wholeRun, copiedRun) = try Self.bothWays(
            ["optimize", "tagged.pdf", "-o", "OUT"], in: dir, environment: ["PDFEDIT_MAX_DEPTH": "20"])
        #expect(!wholeRun.whole, "copied: the tree cannot be read")
        let warning = "dropped document-level data that cannot follow pages: structure tree (tagged.pdf)"
        #expect(wholeRun.stderr.contains(warning), "\(wholeRun.stderr)")
        #expect(wholeRun.stderr == copiedRun.stderr)
        #expect(try !TaggedStructure(whole).hasTree)
        try Self.sameDocument(whole, copied, "deep")
        // Within the default limit the same file is written whole, every element kept.
        let (kept, _, keptRun, _) = try Self.bothWays(["optimize", "tagged.pdf", "-o", "OUT"], in: dir)
        #expect(keptRun.whole && !keptRun.stderr.contains("structure tree"), "\(keptRun.stderr)")
        #expect(try TaggedStructure(kept).elements == 50)
    }

    /// A file holding JavaScript is copied, which drops it with its warning
    /// (an output keeps nothing copying removes); a plain file is written whole.
    @Test func javaScriptIsDroppedAsCopyingDropsIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
        let content = "BT /F1 12 Tf 20 100 Td (scripted page) Tj ET"
        let objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R /Names << /JavaScript 6 0 R >> /OpenAction 7 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: page,
            4: "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            5: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            6: "<< /Names [(hello) 7 0 R] >>",
            7: "<< /S /JavaScript /JS (app.alert\\('hello'\\);) >>",
        ]
        try LimitsTests.writePDF(objects, to: dir.appendingPathComponent("script.pdf").path)
        let (whole, copied, wholeRun, copiedRun) = try Self.bothWays(["optimize", "script.pdf", "-o", "OUT"], in: dir)
        #expect(!wholeRun.whole)
        #expect(wholeRun.stderr.contains("JavaScript (script.pdf)"), "\(wholeRun.stderr)")
        #expect(wholeRun.stderr == copiedRun.stderr)
        let decoded = try run("qpdf", ["--qdf", "--object-streams=disable", whole, "-"]).stdout
        #expect(!decoded.contains("/JavaScript") && !decoded.contains("app.alert"))
        try Self.sameDocument(whole, copied, "script.pdf")
    }

    /// In a session: `optimize` sets how the document's exports are written;
    /// an export of every page then writes it whole, the same document.
    @Test(.enabled(if: Paths.corpusAvailable)) func sessionExportAfterOptimize() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = dir.appendingPathComponent("s/session.json").path
        try pdfeditOK("open", Paths.corpus("sample-pdflatex-outline.pdf"), "--session", session, in: dir)
        try pdfeditOK("optimize", "--session", session, in: dir)
        let (whole, copied, wholeRun, copiedRun) = try Self.bothWays(["export", "OUT", "--session", session], in: dir)
        #expect(wholeRun.whole, "\(wholeRun.stderr)")
        #expect(!copiedRun.whole)
        try Self.sameDocument(whole, copied, "session")
    }

    /// `--compress` on a direct-mode edit that keeps every page in order, and
    /// `apply` of `optimize` to a file: written whole, the same document.
    @Test(.enabled(if: Paths.corpusAvailable)) func compressFlagAndApply() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = Paths.corpus("sample-pdflatex-outline.pdf")
        let (whole, copied, wholeRun, _) = try Self.bothWays(
            ["meta", "--title", "Whole", file, "-o", "OUT", "--compress"], in: dir)
        #expect(wholeRun.whole, "\(wholeRun.stderr)")
        try Self.sameDocument(whole, copied, "meta --compress")
        #expect(try run("pdfinfo", [whole]).stdout.contains("Whole"))
        let applied = try pdfedit(
            args: ["apply", "-e", "optimize", file, "-o", "whole-{name}"], in: dir, environment: ["PDFEDIT_TIMING": "1"])
        let copiedApply = try pdfedit(
            args: ["apply", "-e", "optimize", file, "-o", "copied-{name}"], in: dir,
            environment: ["PDFEDIT_TIMING": "1", "PDFEDIT_NO_IN_PLACE": "1"])
        #expect(applied.status == 0 && copiedApply.status == 0, "\(applied.stderr) \(copiedApply.stderr)")
        #expect(Self.withoutTiming(applied.stderr).whole && !Self.withoutTiming(copiedApply.stderr).whole)
        try Self.sameDocument(
            dir.appendingPathComponent("whole-sample-pdflatex-outline.pdf").path,
            dir.appendingPathComponent("copied-sample-pdflatex-outline.pdf").path, "apply")
    }
}
