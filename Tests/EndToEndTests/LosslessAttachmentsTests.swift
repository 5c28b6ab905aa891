import Foundation
import Testing

/// Embedded files, associated files (/AF), portfolios, output intents and XMP of
/// an export: kept from every source of its pages, names made unique, the XMP
/// updated and a PDF/A or PDF/UA claim removed exactly when the output no
/// longer meets it. Checked with pdfdetach, qpdf --json and pdfinfo -meta.
@Suite struct LosslessAttachmentsTests {
    /// The modification times the fixtures are given: the date an output's metadata gets.
    static let dateA = Date(timeIntervalSince1970: 1_714_979_289) // 2024-05-06T07:08:09Z
    static let dateB = Date(timeIntervalSince1970: 1_717_000_000) // 2024-05-29T16:26:40Z

    /// A scratch directory with the named fixtures, a.pdf dated dateA, the others dateB.
    func scratch(_ names: String...) throws -> URL {
        let dir = try temporaryDirectory()
        for name in names {
            let path = try AttachmentFixtures.write(name, in: dir)
            try FileManager.default.setAttributes(
                [.modificationDate: name == "a.pdf" ? Self.dateA : Self.dateB], ofItemAtPath: path)
        }
        return dir
    }

    /// `pdfdetach -list`: the file names of the embedded files, in its order.
    func attachmentNames(_ file: URL) throws -> [String] {
        let listed = try run("pdfdetach", ["-list", file.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        return listed.stdout.split(separator: "\n").dropFirst().map { line in
            String(line[line.index(after: line.firstIndex(of: ":")!)...].dropFirst())
        }
    }

    /// The bytes of every embedded file (`pdfdetach -save N`), in list order.
    func attachmentContents(_ file: URL) throws -> [Data] {
        let count = try attachmentNames(file).count
        guard count > 0 else { return [] }
        let saved = file.deletingLastPathComponent().appendingPathComponent("saved-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: saved) }
        return try (1...count).map { n in
            let result = try run("pdfdetach", ["-save", "\(n)", "-o", saved.path, file.path])
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: saved)
        }
    }

    /// The bytes of the fixtures' embedded files named (keys of AttachmentFixtures.contents).
    func bytes(_ keys: String...) -> [Data] { keys.map { Data(AttachmentFixtures.contents[$0]!.utf8) } }

    /// `pdfinfo -meta`: the XMP packet, checked to be well-formed XML by python3's xml.etree.
    func xmp(_ file: URL) throws -> String {
        let packet = try run("pdfinfo", ["-meta", file.path]).stdout
        let parsed = try run(
            "python3", ["-c", "import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())"],
            stdin: packet)
        #expect(parsed.status == 0, "XMP of \(file.lastPathComponent) is not well-formed: \(parsed.stderr)\n\(packet)")
        return packet
    }

    @Test("reverse all keeps embedded files byte for byte, /AF of catalog and page, output intents and the PDF/A claim; XMP and Info updated alike")
    func reverseKeepsEverything() throws {
        let dir = try scratch("a.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfeditOK("reverse", "all", "a.pdf", "-o", "out.pdf", in: dir)
        #expect(result.stderr.isEmpty, "nothing is dropped: \(result.stderr)")
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try qpdfCheck(out.path).status == 0)
        #expect(try attachmentNames(out) == ["a.txt", "shared.txt"])
        #expect(try attachmentContents(out) == bytes("a.txt", "shared.txt@a"))
        #expect(try pageText(out.path, 1).contains("Page A2"))

        let json = try ObjectsJSON(out)
        let catalog = json.catalog
        let tree = json.dictionary(json.dictionary(catalog["/Names"])?["/EmbeddedFiles"])
        #expect(json.array(tree?["/Names"]).compactMap { $0 as? String }.filter { $0.hasPrefix("u:") } == ["u:a.txt", "u:shared.txt"])
        // Catalog /AF: the same file specification object as a.txt in the name tree.
        let associated = json.array(catalog["/AF"])
        #expect(associated.count == 1)
        #expect(associated.first as? String == json.array(tree?["/Names"])[1] as? String)
        // The page that was page 2 (now 1) keeps its /AF.
        let firstPage = json.dictionary(json.pages.first)
        let pageFiles = json.array(firstPage?["/AF"]).map { json.dictionary($0)?["/UF"] as? String }
        #expect(pageFiles == ["u:page2.txt"])
        let intents = json.array(catalog["/OutputIntents"])
        #expect(intents.count == 1)
        #expect(json.dictionary(intents.first)?["/OutputConditionIdentifier"] as? String == "u:sRGB")

        let packet = try xmp(out)
        #expect(packet.contains("<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>"))
        #expect(packet.contains("<pdf:Producer>pdfedit</pdf:Producer>"))
        #expect(packet.components(separatedBy: "Producer").count == 3, "one pdf:Producer (open and close tag)")
        #expect(packet.contains("<xmp:ModifyDate>2024-05-06T07:08:09Z</xmp:ModifyDate>"))
        #expect(packet.contains("<xmp:MetadataDate>2024-05-06T07:08:09Z</xmp:MetadataDate>"))
        #expect(!packet.contains("2020-01-01T00:00:00Z\"") && !packet.contains("Old Producer"), "old values replaced")
        // The rest of the packet is kept.
        #expect(packet.contains("<rdf:li>Jane Fixture</rdf:li>"))
        #expect(packet.contains("xmp:CreatorTool=\"Fixture Maker\""))
        #expect(packet.contains("<xmp:CreateDate>2020-01-01T00:00:00Z</xmp:CreateDate>"))
        #expect(packet.hasPrefix("<?xpacket begin=") && packet.contains("<?xpacket end=\"w\"?>"))
        // Info agrees with the XMP.
        let info = json.dictionary(json.trailer["/Info"])
        #expect(info?["/Producer"] as? String == "u:pdfedit")
        #expect(info?["/ModDate"] as? String == "u:D:20240506070809Z")
        #expect(info?["/Title"] as? String == "u:Fixture A")
    }

    @Test("an output rearranged in place (only XMP in its catalog) gets the same XMP and Info update as a copy")
    func inPlaceRearrangementUpdatesMetadata() throws {
        let dir = try scratch("plain.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfeditOK("reverse", "all", "plain.pdf", "-o", "out.pdf", in: dir)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try pageText(out.path, 1).contains("Plain 2"))
        let packet = try xmp(out)
        #expect(packet.contains("<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>"))
        #expect(packet.contains("<pdf:Producer>pdfedit</pdf:Producer>") && !packet.contains("Old Producer"))
        #expect(packet.contains("<xmp:ModifyDate>2024-05-29T16:26:40Z</xmp:ModifyDate>"))
        #expect(packet.contains("<rdf:li>Jane Fixture</rdf:li>"))
        let info = try ObjectsJSON(out).dictionary(ObjectsJSON(out).trailer["/Info"])
        #expect(info?["/Producer"] as? String == "u:pdfedit")
        #expect(info?["/ModDate"] as? String == "u:D:20240529162640Z")
    }

    @Test("move and --in-place keep the attachments byte for byte")
    func moveAndInPlaceKeepAttachments() throws {
        let dir = try scratch("a.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = bytes("a.txt", "shared.txt@a")
        try pdfeditOK("move", "1", "--to", "2", "a.pdf", "-o", "moved.pdf", in: dir)
        let moved = dir.appendingPathComponent("moved.pdf")
        #expect(try attachmentContents(moved) == expected)
        #expect(try pageText(moved.path, 1).contains("Page A2"))

        let edited = try pdfeditOK("rotate", "1", "--by", "90", "a.pdf", "--in-place", in: dir)
        #expect(edited.stderr.isEmpty, "\(edited.stderr)")
        let inPlace = dir.appendingPathComponent("a.pdf")
        #expect(try attachmentNames(inPlace) == ["a.txt", "shared.txt"])
        #expect(try attachmentContents(inPlace) == expected)
        #expect(try ObjectsJSON(inPlace).array(ObjectsJSON(inPlace).catalog["/OutputIntents"]).count == 1)
        #expect(try xmp(inPlace).contains("<pdfaid:part>2</pdfaid:part>"))
    }

    @Test("a session export of two sources merges their attachments, renames the colliding one, and drops the PDF/A claim b.pdf does not make")
    func sessionMergesAndRenames() throws {
        let dir = try scratch("a.pdf", "b.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "a.pdf", in: dir)
        try pdfeditOK("insert", "b.pdf", "--at", "2", in: dir)
        let result = try pdfeditOK("export", "out.pdf", in: dir)
        #expect(result.stderr == "pdfedit: warning: a.pdf: dropped document-level data that cannot follow pages: PDF/A-2B claim (a.pdf)\n")
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try qpdfCheck(out.path).status == 0)
        // The name tree's entries, then the file attachment annotation's file.
        #expect(try attachmentNames(out) == ["a.txt", "shared.txt", "shared.txt (2)", "annot.txt"])
        #expect(try attachmentContents(out) == bytes("a.txt", "shared.txt@a", "shared.txt@b", "annot.txt"))
        let json = try ObjectsJSON(out)
        let tree = json.dictionary(json.dictionary(json.catalog["/Names"])?["/EmbeddedFiles"])
        let keys = json.array(tree?["/Names"]).compactMap { $0 as? String }.filter { $0.hasPrefix("u:") }
        #expect(keys == ["u:a.txt", "u:shared.txt", "u:shared.txt (2)"], "sorted, unique")
        // The file attachment annotation travelled with page B1 (now page 2).
        let annotations = json.array(json.dictionary(json.pages[1])?["/Annots"]).map { json.dictionary($0) }
        #expect(annotations.map { $0?["/Subtype"] as? String } == ["/FileAttachment"])
        #expect(json.dictionary(annotations.first??["/FS"])?["/UF"] as? String == "u:annot.txt")
        #expect(try pageText(out.path, 2).contains("Page B1"))

        let packet = try xmp(out)
        #expect(!packet.contains("pdfaid:part") && !packet.contains("pdfaid:conformance"))
        #expect(packet.contains("<rdf:li>Jane Fixture</rdf:li>"), "a.pdf (first page's source) gives the XMP")
        // The newest of the two sources' dates.
        #expect(packet.contains("<xmp:ModifyDate>2024-05-29T16:26:40Z</xmp:ModifyDate>"))
        #expect(json.dictionary(json.trailer["/Info"])?["/ModDate"] as? String == "u:D:20240529162640Z")
        #expect(json.array(json.catalog["/OutputIntents"]).count == 1, "a.pdf's output intent")

        // b.pdf first: its attachments keep their names, a.pdf's collide; no XMP, no intents.
        try pdfeditOK("open", "b.pdf", "--force", in: dir)
        try pdfeditOK("insert", "a.pdf", "--at", "2", in: dir)
        let second = try pdfeditOK("export", "second.pdf", in: dir)
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        let other = dir.appendingPathComponent("second.pdf")
        #expect(try attachmentNames(other) == ["a.txt", "shared.txt", "shared.txt (2)", "annot.txt"])
        #expect(try Array(attachmentContents(other)[1...2]) == bytes("shared.txt@b", "shared.txt@a"))
        let secondJSON = try ObjectsJSON(other)
        #expect(secondJSON.catalog["/Metadata"] == nil && secondJSON.catalog["/OutputIntents"] == nil)
        #expect(secondJSON.array(secondJSON.catalog["/AF"]).count == 1, "a.pdf's /AF merged")
    }

    @Test("a PDF/A claim survives pages of a source with the same claim and no output intent, not of one with another intent")
    func claimNeedsTheSameOutputIntents() throws {
        let dir = try scratch("a.pdf", "plain.pdf", "cmyk.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "a.pdf", in: dir)
        try pdfeditOK("insert", "plain.pdf", "--at", "2", in: dir)
        let same = try pdfeditOK("export", "same.pdf", in: dir)
        #expect(same.stderr.isEmpty, "\(same.stderr)")
        #expect(try xmp(dir.appendingPathComponent("same.pdf")).contains("<pdfaid:part>2</pdfaid:part>"))
        try pdfeditOK("open", "a.pdf", "--force", in: dir)
        try pdfeditOK("insert", "cmyk.pdf", "--at", "2", in: dir)
        let other = try pdfeditOK("export", "other.pdf", in: dir)
        #expect(other.stderr == "pdfedit: warning: a.pdf: dropped document-level data that cannot follow pages: PDF/A-2B claim (a.pdf)\n")
        let out = dir.appendingPathComponent("other.pdf")
        #expect(!(try xmp(out)).contains("pdfaid:part"))
        let json = try ObjectsJSON(out)
        let intent = json.dictionary(json.array(json.catalog["/OutputIntents"]).first)
        #expect(intent?["/OutputConditionIdentifier"] as? String == "u:sRGB", "the first source's intent stays")
        #expect(try pageText(out.path, 2).contains("Print 1"))
    }

    @Test("each split part keeps the attachments of the sources of its pages")
    func splitPartsKeepAttachments() throws {
        let dir = try scratch("a.pdf", "b.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "a.pdf", in: dir)
        try pdfeditOK("insert", "b.pdf", "--at", "2", in: dir)
        try pdfeditOK("export", "--split", "parts", in: dir)
        let parts = dir.appendingPathComponent("parts")
        #expect(try attachmentContents(parts.appendingPathComponent("a-1.pdf")) == bytes("a.txt", "shared.txt@a"))
        #expect(try attachmentContents(parts.appendingPathComponent("a-2.pdf")) == bytes("shared.txt@b", "annot.txt"))
        #expect(try attachmentContents(parts.appendingPathComponent("a-3.pdf")) == bytes("a.txt", "shared.txt@a"))
        // Parts of a.pdf alone keep its claim; the part of b.pdf has no XMP.
        #expect(try xmp(parts.appendingPathComponent("a-1.pdf")).contains("<pdfaid:part>2</pdfaid:part>"))
        #expect(try ObjectsJSON(parts.appendingPathComponent("a-2.pdf")).catalog["/Metadata"] == nil)
    }

    @Test("dropping JavaScript removes the PDF/A and PDF/UA claims with the warning; export --title sets dc:title")
    func droppedPartRemovesClaims() throws {
        let dir = try scratch("claims.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "claims.pdf", in: dir)
        try pdfeditOK("reverse", "all", in: dir)
        let result = try pdfeditOK("export", "out.pdf", "--title", "A & B", in: dir)
        #expect(result.stderr == "pdfedit: warning: claims.pdf: dropped document-level data that cannot follow pages: "
            + "JavaScript (claims.pdf), PDF/A-2B claim (claims.pdf), PDF/UA-1 claim (claims.pdf)\n")
        let out = dir.appendingPathComponent("out.pdf")
        let packet = try xmp(out)
        #expect(!packet.contains("pdfaid:part") && !packet.contains("pdfaid:conformance"))
        #expect(!packet.contains("pdfuaid:part"))
        #expect(packet.contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">A &amp; B</rdf:li></rdf:Alt></dc:title>"))
        #expect(packet.contains("<rdf:li>Jane Fixture</rdf:li>"))
        #expect(try attachmentContents(out) == bytes("data.csv"))
        let json = try ObjectsJSON(out)
        #expect(json.array(json.catalog["/OutputIntents"]).count == 1, "output intents stay without the claim")
        #expect(json.dictionary(json.catalog["/Names"])?["/JavaScript"] == nil)
        let info = try run("pdfinfo", [out.path]).stdout
        #expect(info.contains("Title:           A & B"))
        #expect(info.contains("Producer:        pdfedit"))
    }

    @Test("two portfolios: the first's /Collection is kept, the second's dropped with the warning, all files merged")
    func firstPortfolioKept() throws {
        let dir = try scratch("folio1.pdf", "folio2.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "folio1.pdf", in: dir)
        try pdfeditOK("insert", "folio2.pdf", "--at", "2", in: dir)
        let result = try pdfeditOK("export", "out.pdf", in: dir)
        #expect(result.stderr == "pdfedit: warning: folio2.pdf: dropped document-level data that cannot follow pages: portfolio (folio2.pdf)\n")
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try attachmentNames(out) == ["one.txt", "two.txt"])
        let json = try ObjectsJSON(out)
        #expect(json.dictionary(json.catalog["/Collection"])?["/View"] as? String == "/D")
        // One source: its portfolio, no warning.
        let single = try pdfeditOK("rotate", "1", "--by", "90", "folio2.pdf", "-o", "single.pdf", in: dir)
        #expect(single.stderr.isEmpty, "\(single.stderr)")
        let singleJSON = try ObjectsJSON(dir.appendingPathComponent("single.pdf"))
        #expect(singleJSON.dictionary(singleJSON.catalog["/Collection"])?["/View"] as? String == "/T")
    }

    @Test(
        "corpus files with embedded files, /AF or output intents keep their counts through reverse all",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"),
        arguments: [
            "pdfbox-testPDFPackage.pdf", "pdfjs-bug2009627.pdf", "ocrmypdf-tagged.pdf", "pdfbox-PDFA3A.pdf",
            "pdfa-PDF_2.0_with_page_level_output_intent.pdf",
        ])
    func corpusCountsKept(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = URL(fileURLWithPath: Paths.corpus(name))
        let out = dir.appendingPathComponent("out.pdf")
        try pdfeditOK("reverse", "all", source.path, "-o", out.path)
        #expect(try attachmentContents(out) == attachmentContents(source))
        let before = try ObjectsJSON(source)
        let after = try ObjectsJSON(out)
        #expect(after.array(after.catalog["/OutputIntents"]).count == before.array(before.catalog["/OutputIntents"]).count)
        #expect(after.array(after.catalog["/AF"]).count == before.array(before.catalog["/AF"]).count)
        #expect((after.catalog["/Collection"] == nil) == (before.catalog["/Collection"] == nil))
        _ = try xmp(out)
    }
}

/// The objects of a PDF as `qpdf --json` shows them (version 2: "obj:N G R").
struct ObjectsJSON {
    var objects: [String: Any]

    init(_ file: URL) throws {
        let result = try run("qpdf", ["--json", "--json-key=qpdf", file.path])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        objects = (json?["qpdf"] as? [Any])?.last as? [String: Any] ?? [:]
        if objects.isEmpty { Issue.record("qpdf --json of \(file.path): \(result.stderr)") }
    }

    /// A value with references followed.
    func resolve(_ value: Any?) -> Any? {
        var current = value
        for _ in 0..<32 {
            guard let reference = current as? String, reference.hasSuffix(" R"),
                let object = objects["obj:\(reference)"] as? [String: Any]
            else { break }
            current = object["value"] ?? (object["stream"] as? [String: Any])?["dict"]
        }
        return current
    }

    func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }
    func array(_ value: Any?) -> [Any] { resolve(value) as? [Any] ?? [] }

    var trailer: [String: Any] { dictionary(objects["trailer"].flatMap { ($0 as? [String: Any])?["value"] }) ?? [:] }
    var catalog: [String: Any] { dictionary(trailer["/Root"]) ?? [:] }

    /// The page objects, in page order (references).
    var pages: [Any] {
        var found: [Any] = []
        func walk(_ node: Any?, depth: Int) {
            guard depth < 64, let dict = dictionary(node) else { return }
            if dict["/Type"] as? String == "/Pages" {
                array(dict["/Kids"]).forEach { walk($0, depth: depth + 1) }
            } else if let node {
                found.append(node)
            }
        }
        walk(catalog["/Pages"], depth: 0)
        return found
    }
}
