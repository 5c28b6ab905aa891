import Foundation
import Testing

/// `labels` and `meta` (issue 17): label ranges that move with their pages and
/// metadata written to Info and XMP alike, checked with qpdf and poppler's pdfinfo.
@Suite struct LabelsAndMetaTests {
    /// The output's /PageLabels ranges as qpdf reads them: "INDEX STYLE START PREFIX".
    func ranges(_ file: URL) throws -> [String] {
        let text = try run("qpdf", ["--json", "--json-key=pagelabels", file.path]).stdout
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (json?["pagelabels"] as? [[String: Any]] ?? []).map { entry in
            let label = entry["label"] as? [String: Any] ?? [:]
            let prefix = (label["/P"] as? String).map { $0.hasPrefix("u:") ? String($0.dropFirst(2)) : $0 } ?? "-"
            return "\(entry["index"] ?? "?") \(label["/S"] ?? "-") \(label["/St"] ?? 1) \(prefix)"
        }
    }

    /// The labels `list --json` shows, in order (nil: none).
    func listedLabels(in dir: URL) throws -> [String?] {
        let result = try pdfeditOK("list", "--json", in: dir)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (json?["items"] as? [[String: Any]] ?? []).map { $0["label"] as? String }
    }

    /// pdfinfo's line for `key` ("Title: …" → "…"), nil when it prints none.
    func info(_ file: URL, _ key: String) throws -> String? {
        let lines = try run("pdfinfo", [file.path]).stdout.split(separator: "\n")
        return lines.first { $0.hasPrefix(key + ":") }.map {
            String($0.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces)
        }
    }

    func xmp(_ file: URL) throws -> String { try run("pdfinfo", ["-meta", file.path]).stdout }

    /// A 42-page PDF made of alpha.pdf six times (qpdf, not pdfedit).
    func fortyTwoPages() throws -> URL {
        let dir = try scratchDirectory(with: "alpha.pdf")
        let alpha = dir.appendingPathComponent("alpha.pdf").path
        try run("qpdf", ["--empty", "--pages"] + Array(repeating: alpha, count: 6) + ["--", dir.appendingPathComponent("in.pdf").path])
        return dir
    }

    @Test("DESIGN's example: labels 1:r 5:D 40:A/1/App- gives i ii iii iv 1 2 … App-A App-B App-C")
    func designExample() throws {
        let dir = try fortyTwoPages()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "in.pdf", in: dir)
        let set = try pdfeditOK("labels", "1:r", "5:D", "40:A/1/App-", in: dir)
        #expect(set.stdout == "set 3 page label ranges starting at 1, 5, 40\n")
        let listed = try listedLabels(in: dir)
        #expect(Array(listed[0..<6]) == ["i", "ii", "iii", "iv", "1", "2"])
        #expect(listed[38] == "35")
        #expect(Array(listed[39...]) == ["App-A", "App-B", "App-C"])
        try pdfeditOK("export", "out.pdf", in: dir)
        let output = dir.appendingPathComponent("out.pdf")
        #expect(try ranges(output) == ["0 /r 1 -", "4 /D 1 -", "39 /A 1 App-"])
        // --labels still applies on top.
        try pdfeditOK("export", "renumbered.pdf", "--labels", "renumber", in: dir)
        #expect(try ranges(dir.appendingPathComponent("renumbered.pdf")) == ["0 /D 1 -"])
        try pdfeditOK("export", "none.pdf", "--labels", "none", in: dir)
        #expect(try ranges(dir.appendingPathComponent("none.pdf")) == [])
        // A part of the document keeps the labels its pages have in it.
        try pdfeditOK("export", "part.pdf", "4..6", in: dir)
        #expect(try ranges(dir.appendingPathComponent("part.pdf")) == ["0 /r 4 -", "1 /D 1 -"])
        // So does each part of a split.
        try pdfeditOK("export", "--split", "parts", "--every", "20", "--name", "part{n}", in: dir)
        #expect(try ranges(dir.appendingPathComponent("parts/part1.pdf")) == ["0 /r 1 -", "4 /D 1 -"])
        #expect(try ranges(dir.appendingPathComponent("parts/part2.pdf")) == ["0 /D 17 -", "19 /A 1 App-"])
        #expect(try ranges(dir.appendingPathComponent("parts/part3.pdf")) == ["0 /A 2 App-"])
    }

    @Test("a range moves with its first page; removing that page moves the start to the next; undo and redo")
    func rangesFollowEdits() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("labels", "1:r", "4:D/10", "6:-//Back", in: dir)
        try pdfeditOK("move", "4", "--to", "1", in: dir)
        // p4 p1 p2 p3 p5 p6 p7: D starts at p4 (now first), r at p1; p5 continues r.
        #expect(try listedLabels(in: dir) == ["10", "i", "ii", "iii", "iv", "Back", "Back"])
        try pdfeditOK("export", "moved.pdf", in: dir)
        let moved = dir.appendingPathComponent("moved.pdf")
        #expect(try ranges(moved) == ["0 /D 10 -", "1 /r 1 -", "5 - 1 Back"])
        #expect(try pageTokens(moved) == ["ALPHA-P4", "ALPHA-P1", "ALPHA-P2", "ALPHA-P3", "ALPHA-P5", "ALPHA-P6", "ALPHA-P7"])

        try pdfeditOK("remove", "6", in: dir)  // p6 started "Back": p7 starts it now
        #expect(try listedLabels(in: dir) == ["10", "i", "ii", "iii", "iv", "Back"])
        try pdfeditOK("export", "removed.pdf", in: dir)
        #expect(try ranges(dir.appendingPathComponent("removed.pdf")) == ["0 /D 10 -", "1 /r 1 -", "5 - 1 Back"])

        try pdfeditOK("undo", "2", in: dir)
        #expect(try listedLabels(in: dir) == ["i", "ii", "iii", "10", "11", "Back", "Back"])
        try pdfeditOK("redo", in: dir)
        #expect(try listedLabels(in: dir) == ["10", "i", "ii", "iii", "iv", "Back", "Back"])
        let history = try pdfeditOK("history", in: dir).stdout
        #expect(history.contains("1  labels 1:r 4:D/10 6:-//Back\n"))

        try pdfeditOK("labels", "--clear", in: dir)
        #expect(try listedLabels(in: dir) == Array(repeating: nil, count: 7))
        try pdfeditOK("export", "cleared.pdf", in: dir)
        #expect(try ranges(dir.appendingPathComponent("cleared.pdf")) == [])
    }

    @Test("labels and meta in direct mode, in a run script (one step) and refused where they do not edit")
    func directModeAndScripts() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let direct = try pdfedit("labels", "1:r", "5:D", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try ranges(dir.appendingPathComponent("out.pdf")) == ["0 /r 1 -", "4 /D 1 -"])
        // features.pdf has labels of its own: --clear writes none.
        try pdfeditOK("labels", "--clear", "features.pdf", "-o", "cleared.pdf", in: dir)
        #expect(try ranges(dir.appendingPathComponent("cleared.pdf")) == [])

        try pdfeditOK("meta", "--title", "Direct title", "alpha.pdf", "--in-place", in: dir)
        let alpha = dir.appendingPathComponent("alpha.pdf")
        #expect(try info(alpha, "Title") == "Direct title")
        #expect(try xmp(alpha).contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Direct title</rdf:li></rdf:Alt></dc:title>"))

        try pdfeditOK("open", "alpha.pdf", in: dir)
        let script = "labels 1:R/3\nmeta --author \"Ann Lee\"\n"
        try pdfeditOK("run", "-", in: dir, stdin: script)
        #expect(try listedLabels(in: dir).prefix(2) == ["III", "IV"])
        // And the export writes both, read back by qpdf and pdfinfo.
        try pdfeditOK("export", "scripted.pdf", in: dir)
        let scripted = dir.appendingPathComponent("scripted.pdf")
        #expect(try ranges(scripted) == ["0 /R 3 -"])
        #expect(try info(scripted, "Author") == "Ann Lee")
        #expect(try pdfeditOK("history", in: dir).stdout.split(separator: "\n").count == 1)
        let before = try sessionBytes(dir)
        let shown = try pdfedit("run", "-", in: dir, stdin: "labels --clear\nmeta\n")
        #expect(shown.status == 64)
        #expect(shown.stderr.contains("does not edit"), "\(shown.stderr)")
        #expect(try sessionBytes(dir) == before)
        let bad = try pdfedit("labels", "2:x", in: dir)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown style \"x\" (use D, r, R, a, A or -)"), "\(bad.stderr)")
        let twice = try pdfedit("labels", "2:D", "@p2:r", in: dir)
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("two page label ranges start at position 2"), "\(twice.stderr)")
    }

    @Test("meta shows the document information export writes, also behind a blank cover")
    func metaBehindABlankCover() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("blank", "--at", "1", in: dir)
        let shown = try pdfeditOK("meta", "--json", in: dir).stdout
        let json = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
        try pdfeditOK("export", "out.pdf", in: dir)
        let info = try run("pdfinfo", [dir.appendingPathComponent("out.pdf").path]).stdout
        let creator = info.split(separator: "\n").first { $0.hasPrefix("Creator:") }.map {
            $0.dropFirst("Creator:".count).trimmingCharacters(in: .whitespaces)
        }
        #expect(creator == "Fixtures/make-fixtures.py", "\(info)")
        #expect(json?["creator"] as? String == creator)
    }

    @Test("meta sets Info and XMP alike (Unicode, & escaped), an empty value removes from both, undo restores")
    func metadataInInfoAndXMP() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK(
            "meta", "--title", "Rapport été ✓ 報告", "--author", "Ann Lee", "--subject", "Q&A", "--keywords", "one, two",
            in: dir)
        let shown = try pdfeditOK("meta", "--json", in: dir).stdout
        let json = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
        #expect(json?["title"] as? String == "Rapport été ✓ 報告")
        #expect(json?["author"] as? String == "Ann Lee")
        #expect(json?["subject"] as? String == "Q&A")
        #expect(json?["keywords"] as? String == "one, two")
        #expect(json?.keys.sorted() == [
            "author", "creationDate", "creator", "document", "keywords", "modificationDate", "producer", "subject",
            "title",
        ])
        try pdfeditOK("export", "out.pdf", in: dir)
        let output = dir.appendingPathComponent("out.pdf")
        #expect(try info(output, "Title") == "Rapport été ✓ 報告")
        #expect(try info(output, "Author") == "Ann Lee")
        #expect(try info(output, "Subject") == "Q&A")
        #expect(try info(output, "Keywords") == "one, two")
        #expect(try info(output, "Producer") == "pdfedit")
        let packet = try xmp(output)
        #expect(packet.contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Rapport été ✓ 報告</rdf:li></rdf:Alt></dc:title>"))
        #expect(packet.contains("<dc:creator><rdf:Seq><rdf:li>Ann Lee</rdf:li></rdf:Seq></dc:creator>"))
        #expect(packet.contains("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Q&amp;A</rdf:li></rdf:Alt></dc:description>"))
        #expect(packet.contains("<pdf:Keywords>one, two</pdf:Keywords>"))
        #expect(packet.contains("<pdf:Producer>pdfedit</pdf:Producer>"))
        #expect(packet.contains("<xmp:ModifyDate>"))

        try pdfeditOK("meta", "--author", "", "--keywords", "", in: dir)
        try pdfeditOK("export", "removed.pdf", in: dir)
        let removed = dir.appendingPathComponent("removed.pdf")
        #expect(try info(removed, "Author") == nil)
        #expect(try info(removed, "Keywords") == nil)
        #expect(try info(removed, "Title") == "Rapport été ✓ 報告")
        #expect(!(try xmp(removed)).contains("dc:creator"))
        #expect(!(try xmp(removed)).contains("Keywords"))

        try pdfeditOK("undo", "2", in: dir)
        let plain = try pdfeditOK("meta", "--json", in: dir).stdout
        let original = try JSONSerialization.jsonObject(with: Data(plain.utf8)) as? [String: Any]
        // Back to the source's own values, as pdfinfo reads them.
        let source = dir.appendingPathComponent("alpha.pdf")
        #expect(original?["title"] as? String == (try info(source, "Title")))
        #expect(original?["author"] as? String == (try info(source, "Author")))
        #expect(original?["title"] as? String == "pdfedit fixture: alpha")
    }

    @Test(
        "a PDF/A file keeps its claim after meta --title, and its XMP agrees with Info",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent"))
    func pdfaKeepsItsClaim() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Paths.corpus("pdfbox-PDFA3A.pdf")
        let output = dir.appendingPathComponent("out.pdf")
        let before = try run("pdfinfo", ["-meta", input]).stdout
        #expect(before.contains("<pdfaid:part>3</pdfaid:part>"))
        try pdfeditOK("meta", "--title", "Neuer Titel", "--author", "Ann", input, "-o", output.path, in: dir)
        let packet = try xmp(output)
        #expect(packet.contains("<pdfaid:part>3</pdfaid:part>"))
        #expect(packet.contains("<pdfaid:conformance>A</pdfaid:conformance>"))
        #expect(packet.contains("<rdf:li xml:lang=\"x-default\">Neuer Titel</rdf:li>"))
        #expect(packet.contains("<dc:creator><rdf:Seq><rdf:li>Ann</rdf:li></rdf:Seq></dc:creator>"))
        #expect(packet.components(separatedBy: "<dc:creator>").count == 2, "one dc:creator")
        #expect(try info(output, "Title") == "Neuer Titel")
        #expect(try info(output, "Author") == "Ann")
    }
}
