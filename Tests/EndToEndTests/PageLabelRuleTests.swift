import Foundation
import Testing

/// One function for the label a page will have (issue 40, item 29), and PDF text
/// strings decoded in one place (item 30): what `list`, `info`, `find` and a
/// stamp's `{label}` show is what export writes, read back with qpdf and pdftotext.
@Suite struct PageLabelRuleTests {
    /// A PDF of `pages` pages, each showing "Page N", whose /PageLabels are `nums` (PDF syntax).
    static func labelled(_ dir: URL, _ name: String, pages: Int, nums: String, version: String = "1.7") throws {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R /PageLabels << /Nums [\(nums)] >> >>",
            "<< /Type /Pages /Kids [" + (0..<pages).map { "\(4 + 2 * $0) 0 R" }.joined(separator: " ") + "] /Count \(pages) >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        for page in 1...pages {
            let content = "BT /F1 20 Tf 50 100 Td (Page \(page)) Tj ET"
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 3 0 R >> >> "
                    + "/Contents \(5 + 2 * (page - 1)) 0 R >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var text = "%PDF-\(version)\n"
        for (index, object) in objects.enumerated() { text += "\(index + 1) 0 obj\n\(object)\nendobj\n" }
        text += "trailer\n<< /Root 1 0 R /Size \(objects.count + 1) >>\n%%EOF\n"
        let raw = dir.appendingPathComponent("raw-\(name)")
        try Data(text.utf8).write(to: raw)
        let fixed = try run("qpdf", [raw.path, dir.appendingPathComponent(name).path])
        #expect(fixed.status == 0 || fixed.status == 3, "\(fixed.stderr)")
    }

    /// Every page's label as the output's /PageLabels say (read by qpdf; decimal and
    /// prefix-only styles, which these tests write), nil for none.
    static func writtenLabels(_ file: URL) throws -> [String?] {
        let pages = try #require(try qpdfPageCount(file.path))
        let text = try run("qpdf", ["--json", "--json-key=pagelabels", file.path]).stdout
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let ranges = (json?["pagelabels"] as? [[String: Any]] ?? []).map { entry in
            (index: entry["index"] as? Int ?? 0, label: entry["label"] as? [String: Any] ?? [:])
        }
        guard !ranges.isEmpty else { return Array(repeating: nil, count: pages) }
        return (0..<pages).map { page in
            guard let range = ranges.last(where: { $0.index <= page }) else { return nil }
            var prefix = range.label["/P"] as? String ?? ""
            if prefix.hasPrefix("u:") { prefix.removeFirst(2) }
            // qpdf shows a PDFDocEncoding string with bytes past ASCII as hex; those
            // these tests write (é, Ü) are the same in PDFDocEncoding and Latin-1.
            if prefix.hasPrefix("b:") {
                let hex = Array(prefix.dropFirst(2).utf8)
                let bytes = stride(from: 0, to: hex.count - 1, by: 2).compactMap {
                    UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16)
                }
                prefix = String(bytes.map { Character(UnicodeScalar($0)) })
            }
            let number = (range.label["/St"] as? Int ?? 1) + page - range.index
            return range.label["/S"] as? String == "/D" ? prefix + String(number) : prefix
        }
    }

    func listed(_ dir: URL) throws -> [String?] {
        let result = try pdfeditOK("list", "--json", "--no-text", in: dir)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (json?["items"] as? [[String: Any]] ?? []).map { $0["label"] as? String }
    }

    @Test("list shows, {label} stamps and export writes the same labels, blanks and unlabelled files included")
    func shownIsWritten() throws {
        let dir = try scratchDirectory(with: "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.labelled(dir, "lab.pdf", pages: 3, nums: "0 << /S /D /P (PPP) >>")
        try pdfeditOK("open", "lab.pdf", in: dir)
        try pdfeditOK("blank", "--at", "last", "--size", "300x300", in: dir)
        try pdfeditOK("insert", "beta.pdf", in: dir)
        try pdfeditOK("blank", "--at", "1", "--size", "300x300", in: dir)
        let expected: [String?] = ["1", "PPP1", "PPP2", "PPP3", "PPP4", "1", "2", "3", "4", "5"]
        #expect(try listed(dir) == expected)
        try pdfeditOK("number", "all", "--format", "[{label}]", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try Self.writtenLabels(out) == expected)
        for (index, label) in expected.enumerated() {
            #expect(try pageText(out.path, index + 1).contains("[\(label!)]"), "page \(index + 1)")
        }
        #expect(try qpdfCheck(out.path).status == 0)
        // A part of a split keeps the document's labels, as its stamps do.
        try pdfeditOK("export", "--split", "parts", "--every", "4", in: dir)
        #expect(try Self.writtenLabels(dir.appendingPathComponent("parts/lab-2.pdf")) == ["PPP4", "1", "2", "3"])
        // Without a labelled source, nothing is shown and nothing written.
        try pdfeditOK("open", "beta.pdf", "--force", in: dir)
        try pdfeditOK("blank", "--at", "last", in: dir)
        #expect(try listed(dir) == Array(repeating: nil, count: 6))
        try pdfeditOK("export", "plain.pdf", in: dir)
        #expect(try Self.writtenLabels(dir.appendingPathComponent("plain.pdf")) == Array(repeating: nil, count: 6))
    }

    @Test("a PDF 2.0 prefix in UTF-8 with its mark is shown, found and stamped as text, not as \"ï»¿\"")
    func utf8Prefixes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.labelled(
            dir, "u8.pdf", pages: 2, nums: "0 << /S /D /P <EFBBBF5072C3A9> >> 1 << /S /D /P <FEFF00DC002D> >>",
            version: "2.0")
        let info = try pdfeditOK("info", "u8.pdf", "--json", in: dir).stdout
        let pages = try #require(
            (try JSONSerialization.jsonObject(with: Data(info.utf8)) as? [String: Any])?["pages"] as? [[String: Any]])
        #expect(pages.map { $0["label"] as? String } == ["Pré1", "Ü-1"])
        try pdfeditOK("open", "u8.pdf", in: dir)
        #expect(try listed(dir) == ["Pré1", "Ü-1"])
        let found = try pdfeditOK("find", "Page 2", "--json", in: dir).stdout
        #expect(found.contains("\"label\" : \"Ü-1\""), "\(found)")
        try pdfeditOK("number", "all", "--format", "<{label}>", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try pageText(out.path, 1).contains("<Pré1>"))
        #expect(try pageText(out.path, 2).contains("<Ü-1>"))
        #expect(try Self.writtenLabels(out) == ["Pré1", "Ü-1"])
        let direct = try pdfeditOK("number", "all", "--format", "{label}", "u8.pdf", "-o", "direct.pdf", in: dir)
        #expect(direct.status == 0)
        #expect(try pageText(dir.appendingPathComponent("direct.pdf").path, 1).contains("Pré1"))
    }
}
