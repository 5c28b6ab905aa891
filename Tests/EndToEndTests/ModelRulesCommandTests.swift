import Foundation
import Testing

/// Issue 40 through the binary: stamp texts once and bounded (27), `{field}`s
/// (32), metadata values (33), page sizes (34), capped lists and wordings (42, 43).
@Suite struct ModelRulesCommandTests {
    // MARK: Stamp texts (items 27, 32)

    @Test("a long watermark on 2,000 pages is stored once; a longer one and an unknown field are refused")
    func stampTexts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 2_000, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        let text = String(repeating: "DRAFT ", count: 166)  // 996 characters
        try pdfeditOK("watermark", "all", "--text", text, in: dir)
        let session = try Data(contentsOf: dir.appendingPathComponent(".pdfedit/session.json"))
        #expect(session.count < 700_000, "\(session.count) bytes")
        // Once in "texts", once in the history step's label (the command line).
        #expect(String(decoding: session, as: UTF8.self).components(separatedBy: text).count == 3)
        try pdfeditOK("move", "1", "--to", "last", in: dir)
        #expect(try pdfeditOK("list", "--no-text", "1", in: dir).stdout.contains("watermark \"DRAFT DRAFT"))

        let before = try sessionBytes(dir)
        let long = try pdfedit("watermark", "all", "--text", String(repeating: "x", count: 1_001), in: dir)
        #expect(long.status == 64 && long.stderr.contains("1001 characters; at most 1000"), "\(long.stderr)")
        let unknown = try pdfedit("number", "all", "--format", "Page {n} of {sheets}", in: dir)
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("unknown field \"{sheets}\""), "\(unknown.stderr)")
        #expect(try sessionBytes(dir) == before)
        // Direct mode too, naming the file.
        let direct = try pdfedit("number", "all", "--format", "{x}", "big.pdf", "-o", "out.pdf", in: dir)
        #expect(direct.status == 64 && direct.stderr.hasPrefix("pdfedit: big.pdf: unknown field"), "\(direct.stderr)")
    }

    // MARK: Metadata (item 33)

    @Test("meta and export --title refuse what XMP cannot hold; the packet stays well-formed")
    func metadataValues() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        for value in ["a\u{1}b", "x\u{FFFE}", "y\u{FFFF}", "z\u{1B}[31m"] {
            let meta = try pdfedit("meta", "--title", value, in: dir)
            #expect(meta.status == 64 && meta.stderr.contains("the title holds the character U+"), "\(meta.stderr)")
            let export = try pdfedit("export", "t.pdf", "--title", value, in: dir)
            #expect(export.status == 64 && export.stderr.contains("--title holds the character U+"), "\(export.stderr)")
            let direct = try pdfedit("meta", "--author", value, "alpha.pdf", "-o", "d.pdf", in: dir)
            #expect(direct.status == 64, "\(direct.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.pdf").path))
        try pdfeditOK("meta", "--title", "Tab\tand line\nfeed — ü", in: dir)
        try pdfeditOK("export", "ok.pdf", in: dir)
        let packet = try run("pdfinfo", ["-meta", dir.appendingPathComponent("ok.pdf").path]).stdout
        #expect(packet.contains("Tab\tand line\nfeed — ü"), "\(packet)")
        #expect(!packet.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\t" && $0 != "\n" })
    }

    // MARK: Page sizes (item 34)

    /// A PNG of `width` × `height` gray pixels whose pHYs says `dpi` (nil: none).
    static func png(width: Int, height: Int, dpi: Int?, at path: String) throws {
        let script = """
            import struct, sys, zlib
            w, h, dpi, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            raw = b"".join(b"\\0" + b"\\x80" * w for _ in range(h))
            body = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            if dpi != "none":
                ppm = round(int(dpi) / 0.0254)
                body += chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
            body += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
            open(out, "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + body)
            """
        let made = try run("python3", ["-c", script, "\(width)", "\(height)", dpi.map(String.init) ?? "none", path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// Page sizes as pdfinfo reports them, "W x H" in points.
    func sizes(_ file: URL) throws -> [String] {
        try run("pdfinfo", ["-f", "1", "-l", "99", file.path]).stdout.split(separator: "\n")
            .filter { $0.hasPrefix("Page") && $0.contains(" size:") }
            .map { line in
                let words = line.split(separator: " ")
                let index = words.firstIndex(of: "size:")!
                return "\(words[index + 1]) x \(words[index + 3])"
            }
    }

    @Test("tiny images make pages of at least 3 pt; a crop past 14,400 units is refused")
    func pageSizes() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.png(width: 1, height: 1, dpi: nil, at: dir.appendingPathComponent("dot.png").path)
        try Self.png(width: 60, height: 30, dpi: 65_535, at: dir.appendingPathComponent("fine.png").path)
        try pdfeditOK("open", "dot.png", "fine.png", in: dir)
        try pdfeditOK("export", "dot.pdf", "--doc", "dot", in: dir)
        try pdfeditOK("export", "fine.pdf", "--doc", "fine", in: dir)
        #expect(try sizes(dir.appendingPathComponent("dot.pdf")) == ["3 x 3"])
        #expect(try sizes(dir.appendingPathComponent("fine.pdf")) == ["6 x 3"])
        #expect(try qpdfCheck(dir.appendingPathComponent("fine.pdf").path).status == 0)

        let crop = try pdfedit("crop", "all", "--margins", "-10000in", "alpha.pdf", "-o", "c.pdf", in: dir)
        #expect(crop.status == 64, "\(crop.stderr)")
        #expect(crop.stderr.contains("at most 14400 units a side"), "\(crop.stderr)")
        let bleed = try pdfedit("crop", "all", "--margins", "-7000", "--box", "bleed", "alpha.pdf", "-o", "c.pdf", in: dir)
        #expect(bleed.status == 64, "\(bleed.stderr)")
        let thin = try pdfedit("crop", "1", "--rect", "0,0,2,700", "alpha.pdf", "-o", "c.pdf", in: dir)
        #expect(thin.status == 64 && thin.stderr.contains("at least 3 pt a side"), "\(thin.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("c.pdf").path))
        try pdfeditOK("crop", "all", "--margins", "0,-6894", "alpha.pdf", "-o", "c.pdf", in: dir)
        #expect(try sizes(dir.appendingPathComponent("c.pdf")).first == "14400 x 792")
    }

    // MARK: Lists and wordings (items 42, 43)

    @Test("one placeholder is named in the singular; relink and direct mode say what they mean")
    func wordings() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("placeholder", "--at", "3", in: dir)
        let one = try pdfedit("export", "o.pdf", in: dir)
        #expect(one.stderr.contains("still holds a placeholder at position 3; fill it or export"), "\(one.stderr)")
        try pdfeditOK("placeholder", "--at", "5", in: dir)
        let two = try pdfedit("export", "o.pdf", in: dir)
        #expect(two.stderr.contains("still holds placeholders at positions 3, 5; fill them or export"), "\(two.stderr)")

        // The source changed in place: relink says so, not "alpha.pdf differs from alpha.pdf".
        try FileManager.default.removeItem(at: dir.appendingPathComponent("alpha.pdf"))
        try FileManager.default.copyItem(at: dir.appendingPathComponent("beta.pdf"), to: dir.appendingPathComponent("alpha.pdf"))
        let relink = try pdfedit("relink", "alpha.pdf", "alpha.pdf", in: dir)
        #expect(relink.status == 64)
        #expect(relink.stderr == "pdfedit: alpha.pdf: changed since it was imported as source s1 (size or SHA-256); use --force to relink anyway\n", "\(relink.stderr)")
        let other = try pdfedit("relink", "s1", "beta.pdf", in: dir)
        #expect(other.stderr.contains("beta.pdf: its content differs from source s1 (alpha.pdf) as imported"), "\(other.stderr)")

        // Direct mode names the file a selection does not fit.
        let direct = try pdfedit("remove", "9", "beta.pdf", "-o", "r.pdf", in: dir)
        #expect(direct.status == 64)
        #expect(direct.stderr == "pdfedit: beta.pdf: \"9\" is out of range: the document has 5 pages\n", "\(direct.stderr)")
        let exportFrom = try pdfedit("export", "e.pdf", "9", "--from", "beta.pdf", in: dir)
        #expect(exportFrom.status == 64 && exportFrom.stderr.hasPrefix("pdfedit: beta.pdf: "), "\(exportFrom.stderr)")

        // history records the edit, not -q.
        try pdfeditOK("open", "beta.pdf", "--force", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", "-q", in: dir)
        #expect(try pdfeditOK("history", in: dir).stdout == "1  rotate 2 --by 90\n")
    }

    @Test("a warning naming 30 form fields names ten and counts the rest")
    func cappedFieldWarning() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let count = 30
        let widgets = (0..<count).map { "\(5 + $0) 0 R" }.joined(separator: " ")
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [\(widgets)] >> >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Annots [\(widgets)] >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>",
        ]
        for index in 0..<count {
            objects.append(
                "<< /Type /Annot /Subtype /Widget /FT /Tx /T (field\(index + 1)) /P 3 0 R "
                    + "/Rect [10 \(10 + 9 * index) 100 \(18 + 9 * index)] >>")
        }
        var text = "%PDF-1.7\n"
        for (index, object) in objects.enumerated() { text += "\(index + 1) 0 obj\n\(object)\nendobj\n" }
        text += "trailer\n<< /Root 1 0 R /Size \(objects.count + 1) >>\n%%EOF\n"
        try Data(text.utf8).write(to: dir.appendingPathComponent("raw.pdf"))
        _ = try run("qpdf", [dir.appendingPathComponent("raw.pdf").path, dir.appendingPathComponent("form.pdf").path])
        let made = try pdfedit("nup", "all", "--grid", "2x1", "form.pdf", "-o", "sheet.pdf", in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let names = (1...10).map { "field\($0)" }.joined(separator: ", ")
        #expect(made.stderr.contains("were left out: \(names) … and 20 more\n"), "\(made.stderr)")
        #expect(made.stderrLines.count == 1)
    }

    @Test("a split into many parts names ten, counts the rest and sums them up")
    func burstSummary() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 25, at: dir.appendingPathComponent("in.pdf").path)
        let result = try pdfeditOK("export", "--split", "parts", "--from", "in.pdf", in: dir)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 12, "\(lines)")
        #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("wrote parts/in-") })
        #expect(lines[10] == "… and 15 more")
        #expect(lines[11] == "wrote 25 files in parts (25 pages)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).count == 25)
        let json = try pdfeditOK("export", "--split", "again", "--from", "in.pdf", "--json", in: dir)
        #expect((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any])?.count == 25)
    }
}
