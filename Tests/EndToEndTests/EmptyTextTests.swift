import Foundation
import Testing

/// Issue 40 item 6: a page with extractable text is never `empty` unless
/// `--ink-only` (b); a page holding what the renderer skipped is marked in
/// `show` (a). Pages are generated with known text and ink, and the outputs
/// are read back with pdfinfo and pdftotext.
@Suite struct EmptyTextTests {
    /// 1 a heading (ink and text), 2 a sentence in text render mode 3 (invisible:
    /// text, no ink, as an OCR layer), 3 a sentence in white (text, no ink),
    /// 4 a small sentence and a page number (text, about 0.04 % ink, as on a
    /// pdfTeX page), 5 nothing at all.
    static let pages: [(media: String, rotate: Int, content: String)] = [
        (ScanPages.a4, 0, "BT /F1 24 Tf 72 760 Td (Chapter One: the visible heading) Tj ET"),
        (ScanPages.a4, 0, "BT /F1 12 Tf 3 Tr 72 700 Td (Hidden layer sentence of page two) Tj ET"),
        (ScanPages.a4, 0, "1 g BT /F1 12 Tf 72 700 Td (White sentence of page three) Tj ET"),
        (ScanPages.a4, 0, "BT /F1 6 Tf 72 420 Td (Left blank on purpose.) Tj 230 -380 Td (4) Tj ET"),
        (ScanPages.a4, 0, ScanPages.white),
    ]

    static func text(_ pdf: URL) throws -> String {
        let result = try run("pdftotext", [pdf.path, "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("remove empty keeps pages with text, invisible or white; --ink-only removes those without ink")
    func textIsNotEmpty() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("pages.pdf")
        try ScanPages.pdf(Self.pages).write(to: source)
        // The pages are what they claim, as poppler's own tools read them.
        let sourceText = try Self.text(source)
        for words in ["Hidden layer sentence", "White sentence", "Left blank on purpose"] {
            #expect(sourceText.contains(words), "\(sourceText)")
        }
        // Page 2 and 3 draw no ink: pdftoppm renders them white.
        for page in [2, 3] {
            let picture = try CropCommandTests.Grey.render(source.path, page: page)
            #expect(picture.pixels.allSatisfy { $0 > 250 }, "page \(page) has ink")
        }

        // Direct mode: only the page without text goes.
        let kept = try pdfedit("remove", "empty", "pages.pdf", "-o", "kept.pdf", in: dir)
        #expect(kept.status == 0, "\(kept.stderr)")
        let keptFile = dir.appendingPathComponent("kept.pdf")
        #expect(try ScansTests.pageCount(keptFile.path) == 4)
        let keptText = try Self.text(keptFile)
        for words in ["visible heading", "Hidden layer sentence", "White sentence", "Left blank on purpose"] {
            #expect(keptText.contains(words), "\(words) lost: \(keptText)")
        }

        // --ink-only: the invisible and the white sentence go with the blank page.
        let inked = try pdfedit("remove", "empty", "--ink-only", "pages.pdf", "-o", "ink.pdf", in: dir)
        #expect(inked.status == 0, "\(inked.stderr)")
        let inkFile = dir.appendingPathComponent("ink.pdf")
        let inkText = try Self.text(inkFile)
        #expect(inkText.contains("visible heading"), "\(inkText)")
        #expect(!inkText.contains("Hidden layer sentence") && !inkText.contains("White sentence"), "\(inkText)")
        // The small sentence is under the share that forgives dust: by ink alone it is empty too.
        #expect(try ScansTests.pageCount(inkFile.path) == 1, "\(inkText)")
        #expect(try qpdfCheck(inkFile.path).status == 0)
    }

    @Test("in a session: list, a script line and a split take --ink-only the same way")
    func sessionAndScripts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try ScanPages.pdf(Self.pages).write(to: dir.appendingPathComponent("pages.pdf"))
        try pdfeditOK("open", "pages.pdf", in: dir)
        #expect(try ScansTests.listed("empty", in: dir) == [5])
        #expect(try ScansTests.listed("empty", in: dir, inkOnly: true) == [2, 3, 4, 5])
        // A script line carries its own flag; the step is one undo step.
        try "remove empty --ink-only\n".write(to: dir.appendingPathComponent("clean.txt"), atomically: true, encoding: .utf8)
        try pdfeditOK("run", "clean.txt", in: dir)
        #expect(try ScansTests.listed("all", in: dir) == [1])
        try pdfeditOK("undo", in: dir)
        // A split at empty pages keeps the text pages as pages, not as cuts.
        let split = try pdfedit("export", "--split", "parts", "--at", "empty", "--drop", "--name", "{n}", in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path)
        #expect(parts == ["1.pdf"], "\(parts)")
        #expect(try ScansTests.pageCount(dir.appendingPathComponent("parts/1.pdf").path) == 4)
    }

    @Test("show marks a page holding what the renderer skipped, in its summary, its JSON and its caption")
    func showMarksSkippedContent() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 40,000 x 8 image (over cairo's 32,767 a side) drawn through a form.
        let packed = try HostileFilesTests.flate(Data(repeating: 0, count: 40_000 / 8 * 8))
        let more: [Int: String] = [
            10: "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /I 11 0 R >> >> /Length 26 >>\nstream\n200 0 0 100 0 50 cm /I Do\nendstream",
            11: "<< /Type /XObject /Subtype /Image /Width 40000 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Length \(packed.unicodeScalars.count) >>\nstream\n\(packed)\nendstream",
        ]
        let wide = try HostileFilesTests.write(
            HostileFilesTests.onePage("/MediaBox [0 0 200 200] /Resources << /XObject << /F 10 0 R >> >>", contents: "/F Do", more: more),
            "wide.pdf", in: dir)
        try ScanPages.pdf([Self.pages[0]]).write(to: dir.appendingPathComponent("plain.pdf"))
        try pdfeditOK("open", "plain.pdf", in: dir)
        try pdfeditOK("insert", wide, in: dir)
        for round in 0..<2 {  // the second time from the caches: still marked
            let json = try pdfedit("show", "-o", "sheet.png", "--force", "--json", in: dir)
            #expect(json.status == 0, "\(json.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let items = ((report?["sheets"] as? [[String: Any]])?.first?["items"] as? [[String: Any]]) ?? []
            #expect(items.count == 2)
            #expect(items.first?["incomplete"] == nil, "round \(round): \(json.stdout)")
            #expect(items.last?["incomplete"] as? Bool == true, "round \(round): \(json.stdout)")
            let human = try pdfedit("show", "-o", "sheet.png", "--force", in: dir)
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("incomplete: position 2 (@p2) holds content the renderer skipped"), "\(human.stdout)")
            #expect(!human.stdout.contains("position 1 "), "\(human.stdout)")
        }
    }
}
