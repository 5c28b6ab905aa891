import Foundation
import Testing

/// Generated pages whose ink is known: text (Helvetica), specks of dust, scan-grey paper.
enum ScanPages {
    static let a4 = "[0 0 595 842]"

    /// A PDF whose pages have these MediaBoxes, /Rotate values and content streams,
    /// with Helvetica as /F1 on every page.
    static func pdf(_ pages: [(media: String, rotate: Int, content: String)]) -> Data {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        ]
        var kids: [String] = []
        for page in pages {
            let number = objects.count + 1
            kids.append("\(number) 0 R")
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox \(page.media) /Rotate \(page.rotate) /Contents \(number + 1) 0 R "
                    + "/Resources << /Font << /F1 3 0 R >> >> >>")
            objects.append("<< /Length \(page.content.utf8.count) >>\nstream\n\(page.content)\nendstream")
        }
        objects[1] = "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(pages.count) >>"
        return TestPDF.bytes(objects, header: "%PDF-1.4\n")
    }

    /// A few lines of 11 pt text headed by `title`.
    static func letter(_ title: String) -> String {
        var lines = ["BT /F1 18 Tf 72 760 Td (\(title)) Tj ET"]
        for line in 0..<4 {
            lines.append("BT /F1 11 Tf 72 \(720 - line * 16) Td (The quick brown fox jumps over the lazy dog, line \(line + 1).) Tj ET")
        }
        return lines.joined(separator: "\n")
    }

    /// White paper with two specks of dust, each about 3 pt (1.5 pixels at 36 dpi).
    static let dust = "0 g 100 100 3 3 re f 400 600 3 3 re f"
    /// Scan-grey paper (luminance 229, lighter than the threshold) with one speck.
    static let greyPaper = "0.9 g 0 0 595 842 re f 0 g 300 400 3 3 re f"
    /// A separator sheet: nothing at all.
    static let white = ""

    /// One line of 11 pt text: "a little text".
    static let littleText = "BT /F1 11 Tf 72 760 Td (Please sign and return the enclosed form by Friday.) Tj ET"
}

/// The `empty` token (issue 19 item 3) on generated pages with known ink and on
/// real scans; `pad` and `blank --after-each` (item 4) checked with pdfinfo and pdftotext.
@Suite struct ScansTests {
    static func listed(_ selection: String, in dir: URL, inkOnly: Bool = false) throws -> [Int] {
        let result = try pdfedit(args: ["list", selection, "--json"] + (inkOnly ? ["--ink-only"] : []), in: dir)
        guard result.status == 0 else { return [] }
        return try decode(ListJSON.self, result).items.map(\.position)
    }

    /// pdfinfo's "Page N size" lines: [width, height] per page.
    static func sizes(_ pdf: String, pages: Int) throws -> [[Double]] {
        let result = try run("pdfinfo", ["-f", "1", "-l", "\(pages)", pdf])
        return result.stdout.split(separator: "\n").filter { $0.hasPrefix("Page") && $0.contains(" size:") }.map { line in
            let words = line.split(separator: ":")[1].split(separator: " ")
            return [Double(words[0]) ?? 0, Double(words[2]) ?? 0]
        }
    }

    static func pageCount(_ pdf: String) throws -> Int {
        let line = try run("pdfinfo", [pdf]).stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    @Test("empty: white, dust and grey paper are empty at 0.1 %; dust is not at 0.001 %; a little text never is")
    func generatedPages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages: [(media: String, rotate: Int, content: String)] = [
            (ScanPages.a4, 0, ScanPages.letter("Letter one")), (ScanPages.a4, 0, ScanPages.white),
            (ScanPages.a4, 0, ScanPages.dust), (ScanPages.a4, 90, ScanPages.greyPaper),
            (ScanPages.a4, 0, ScanPages.littleText),
        ]
        try ScanPages.pdf(pages).write(to: dir.appendingPathComponent("pages.pdf"))
        try pdfeditOK("open", "pages.pdf", in: dir)
        try pdfeditOK("blank", "--at", "last", in: dir)
        try pdfeditOK("placeholder", "--at", "1", in: dir)
        // 1 placeholder, 2 letter, 3 white, 4 dust, 5 grey paper (turned), 6 little text, 7 blank.
        #expect(try Self.listed("empty", in: dir) == [3, 4, 5, 7])
        #expect(try Self.listed("empty:0.001%", in: dir) == [3, 7])
        // A looser share does not take the one line of text (about 0.2 % of the
        // page): a page with text is never empty (issue 40 item 6b)…
        #expect(try Self.listed("empty:0.5%", in: dir) == [3, 4, 5, 7])
        #expect(try Self.listed("empty,1..2", in: dir) == [1, 2, 3, 4, 5, 7])
        // …and the pages with text were not even rendered: their text decided.
        let cache = dir.appendingPathComponent(".pdfedit/cache/pages")
        let records = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(records.count == 1)
        func shares() throws -> [String: Double]? {
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.appendingPathComponent(records[0])))
            return (record as? [String: Any])?["darkShares"] as? [String: Double]
        }
        #expect(try shares()?.keys.sorted() == ["2", "3", "4"])
        // Judged by ink only, it is taken at that share.
        #expect(try Self.listed("empty:0.5%", in: dir, inkOnly: true) == [3, 4, 5, 6, 7])
        // Rendered once: the shares are in the session's cache, by the source's SHA-256.
        let rendered = try shares()
        #expect(rendered?.keys.sorted() == ["1", "2", "3", "4", "5"])
        #expect((rendered?["5"] ?? 0) > 0.001, "a little text: \(rendered?["5"] ?? 0)")
        #expect(rendered?["2"] == 0)

        let removed = try pdfedit("remove", "empty", in: dir)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try Self.listed("all", in: dir) == [1, 2, 3])
        let bad = try pdfedit("list", "empty:5", in: dir)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("\"empty:5\" is not a selection token"))
        try pdfeditOK("undo", in: dir)
        #expect(try Self.listed("all", in: dir).count == 7)
    }

    @Test("empty counts what the item shows: its crop box, on turned pages too; a stamp is ink")
    func cropsAndStamps() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Ink only in the square [0 0 100 100] of the user space.
        let square = "0 g 0 0 100 100 re f"
        try ScanPages.pdf([(ScanPages.a4, 0, square), (ScanPages.a4, 90, square), (ScanPages.a4, 0, ScanPages.white)])
            .write(to: dir.appendingPathComponent("corner.pdf"))
        try FileManager.default.copyItem(atPath: Paths.fixture("stamp.pdf"), toPath: dir.appendingPathComponent("stamp.pdf").path)
        try pdfeditOK("open", "corner.pdf", in: dir)
        try pdfeditOK("duplicate", "1,2", in: dir)
        // 1 square, 2 its copy, 3 turned square, 4 its copy, 5 white.
        #expect(try Self.listed("empty", in: dir) == [5])
        try pdfeditOK("crop", "1,3", "--rect", "200,200,595,842", in: dir)
        try pdfeditOK("crop", "4", "--rect", "0,0,300,300", in: dir)
        // Cropped away from the ink: empty; the uncropped copies and a crop around the ink: not.
        #expect(try Self.listed("empty", in: dir) == [1, 3, 5])
        // A stamp puts ink on the page as exported.
        try pdfeditOK("stamp", "5", "stamp.pdf", in: dir)
        #expect(try Self.listed("empty", in: dir) == [1, 3])
        try pdfeditOK("unstamp", "5", in: dir)
        #expect(try Self.listed("empty", in: dir) == [1, 3, 5])
        // Independently: poppler's rendering of the exported cropped page 1 is white.
        try pdfeditOK("export", "out.pdf", "1", in: dir)
        let picture = try CropCommandTests.Grey.render(dir.appendingPathComponent("out.pdf").path, page: 1)
        #expect(picture.pixels.allSatisfy { $0 > 200 })
    }

    @Test("empty on image items: a scanned sheet of paper is, a picture is not; cropping to the paper makes it so")
    func images() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 400x500 grey images (paper at 240) with Python's zlib; ink.png has a black 200x100 block.
        let script = """
            import zlib, struct, sys
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            def png(path, ink):
                rows = b''.join(b'\\x00' + bytes(0 if ink and 100 < x < 300 and 100 < y < 200 else 240 for x in range(400)) for y in range(500))
                ihdr = struct.pack('>IIBBBBB', 400, 500, 8, 0, 0, 0, 0)
                open(sys.argv[1] + '/' + path, 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
            png('paper.png', False)
            png('ink.png', True)
            """
        let made = try run("python3", ["-c", script, dir.path])
        #expect(made.status == 0, "\(made.stderr)")
        try pdfeditOK("open", "paper.png", in: dir)
        try pdfeditOK("insert", "ink.png", "ink.png", in: dir)
        #expect(try Self.listed("empty", in: dir) == [1])
        // Item 3 cropped to the lower part of the picture, below the ink (image pages are [0 0 400 500]).
        try pdfeditOK("crop", "3", "--rect", "0,0,400,250", in: dir)
        #expect(try Self.listed("empty", in: dir) == [1, 3])
        // The image's temporary page is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
            $0.hasPrefix(".pdfedit-empty-")
        }.isEmpty)
    }

    @Test(
        "empty on real scans: none of their pages is, the separator sheets between them are",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func corpusScans() throws {
        let names = ["ocrmypdf-skew.pdf", "ocrmypdf-ccitt.pdf", "pdfjs-issue7229.pdf"].filter {
            FileManager.default.fileExists(atPath: Paths.corpus($0))
        }
        guard !names.isEmpty else { return }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try ScanPages.pdf([(ScanPages.a4, 0, ScanPages.dust)]).write(to: dir.appendingPathComponent("sheet.pdf"))
        try pdfeditOK(args: ["open"] + names.map(Paths.corpus), in: dir)
        let document = (names[0] as NSString).deletingPathExtension
        for name in names.dropFirst() {
            try pdfeditOK("insert", Paths.corpus(name), "--doc", document, in: dir)
        }
        let scanned = try Self.listed("all", in: dir).count
        // A dusty separator sheet after every scanned page.
        for position in stride(from: scanned, through: 1, by: -1) {
            try pdfeditOK("insert", "sheet.pdf", "--after", "\(position)", in: dir)
        }
        #expect(try Self.listed("empty", in: dir) == Array(stride(from: 2, through: 2 * scanned, by: 2)))
        let split = try pdfedit("export", "--split", "parts", "--at", "empty", "--drop", "--name", "{n}-{src}-{srcpage}", in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).sorted()
        #expect(parts.count == scanned)
        #expect(parts.first == "1-\(document)-1.pdf")
        for part in parts {
            let path = dir.appendingPathComponent("parts/\(part)").path
            #expect(try Self.pageCount(path) == 1)
            #expect(try qpdfCheck(path).status == 0)
        }
        try pdfeditOK("remove", "empty", in: dir)
        #expect(try Self.listed("all", in: dir).count == scanned)
    }

    @Test("remove empty and list empty in direct mode and in a script")
    func directModeAndScripts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try ScanPages.pdf([
            (ScanPages.a4, 0, ScanPages.letter("A")), (ScanPages.a4, 0, ScanPages.dust), (ScanPages.a4, 0, ScanPages.letter("B")),
        ]).write(to: dir.appendingPathComponent("in.pdf"))
        let direct = try pdfedit("remove", "empty", "in.pdf", "-o", "out.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try Self.pageCount(out) == 2)
        #expect(try pageText(out, 2).contains("B"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".pdfedit").path))
        try pdfeditOK("open", "in.pdf", in: dir)
        let script = dir.appendingPathComponent("clean.txt")
        try Data("remove empty\npad --multiple-of 4\nblank --after-each 1\n".utf8).write(to: script)
        try pdfeditOK("run", script.path, in: dir)
        #expect(try Self.listed("all", in: dir).count == 5)
        let history = try pdfedit("history", in: dir).stdout
        #expect(history.split(separator: "\n").count == 1, "\(history)")  // the script is one step
        try pdfeditOK("undo", in: dir)
        #expect(try Self.listed("all", in: dir).count == 3)
    }

    @Test("pad: counts and sizes with pdfinfo, --per-source after each source's run, direct mode")
    func pad() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "beta.pdf", in: dir)
        try pdfeditOK("rotate", "7", "--by", "90", in: dir)
        // alpha 1…7 (letter, 7 turned), beta 1…5 (A4): 12 items.
        let perSource = try pdfedit("pad", "--multiple-of", "4", "--per-source", in: dir)
        #expect(perSource.stdout == "inserted 4 blank pages (now 16 pages)\n", "\(perSource.stderr)")
        try pdfeditOK("export", "padded.pdf", in: dir)
        let padded = dir.appendingPathComponent("padded.pdf").path
        #expect(try Self.pageCount(padded) == 16)
        let sizes = try Self.sizes(padded, pages: 16)
        #expect(sizes[7] == [792, 612], "the blank after alpha is page 7's size as displayed (turned)")
        #expect(Array(sizes[13...15]) == [[595, 842], [595, 842], [595, 842]])
        #expect(try pageText(padded, 9).contains("BETA-P1"))
        #expect(try pageText(padded, 8).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try pdfedit("pad", "--multiple-of", "4", "--per-source", in: dir).stdout.contains("nothing to add"))
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("pad", "--multiple-of", "5", "--size", "a5", in: dir)
        try pdfeditOK("export", "a5.pdf", in: dir)
        let a5 = dir.appendingPathComponent("a5.pdf").path
        #expect(try Self.pageCount(a5) == 15)
        #expect(try Self.sizes(a5, pages: 15).suffix(3).allSatisfy { abs($0[0] - 419.53) < 0.1 && abs($0[1] - 595.28) < 0.1 })
        #expect(try pdfedit("pad", "--multiple-of", "0", in: dir).status == 64)
        // Direct mode.
        try pdfeditOK("pad", "--multiple-of", "2", "alpha.pdf", "-o", "even.pdf", in: dir)
        let even = dir.appendingPathComponent("even.pdf").path
        #expect(try Self.sizes(even, pages: 8) == Array(repeating: [612, 792], count: 8))
        #expect(try qpdfCheck(even).status == 0)
    }

    @Test("blank --after-each: a blank after every selected item, sized like it; refuses --at and --count")
    func blankAfterEach() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("rotate", "3", "--by", "90", in: dir)
        let result = try pdfedit("blank", "--after-each", "odd", in: dir)
        #expect(result.stdout == "inserted 4 blank pages (now 11 pages)\n", "\(result.stderr)")
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try Self.pageCount(out) == 11)
        let texts = try (1...11).map { try pageText(out, $0).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(texts.map { $0.isEmpty } == [false, true, false, false, true, false, false, true, false, false, true])
        #expect(texts[2].contains("ALPHA-P2") && texts[3].contains("ALPHA-P3") && texts[9].contains("ALPHA-P7"))
        // The blank after the turned page 3 is its size as displayed.
        #expect(try Self.sizes(out, pages: 11)[4] == [792, 612])
        #expect(try pdfedit("blank", "--after-each", "1", "--at", "2", in: dir).status == 64)
        #expect(try pdfedit("blank", "--after-each", "1", "--count", "2", in: dir).status == 64)
        #expect(try pdfedit("blank", "--after-each", "99", in: dir).status == 64)
        try pdfeditOK("undo", in: dir)
        #expect(try Self.listed("all", in: dir).count == 7)
        try pdfeditOK("blank", "--after-each", "1,2", "--size", "a4", "alpha.pdf", "-o", "direct.pdf", in: dir)
        let direct = dir.appendingPathComponent("direct.pdf").path
        #expect(try Self.sizes(direct, pages: 9).enumerated().filter { [1, 3].contains($0.offset) }.allSatisfy {
            abs($0.element[0] - 595.28) < 0.1 && abs($0.element[1] - 841.89) < 0.1
        })
    }
}
