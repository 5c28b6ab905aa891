import Foundation
import Testing

/// Text stamps outside Windows-1252 (issue 44): drawn by Pango in a real font,
/// embedded as a subset with a ToUnicode map. Read back with `pdftotext`
/// (the text), `pdffonts` (what is embedded), `pdftotext -bbox` (where) and
/// `qpdf --check`. Needs the fonts `make test` installs (fonts-dejavu-core,
/// fonts-wqy-microhei).
@Suite struct UnicodeStampTests {
    static let polish = "Zażółć gęślą jaźń"
    static let greek = "Καλημέρα κόσμε"
    static let hebrew = "שלום עולם"
    static let arabic = "مرحبا بالعالم"
    static let japanese = "日本語のテキスト"

    func path(_ dir: URL, _ file: String) -> String { dir.appendingPathComponent(file).path }

    func checked(_ file: String) throws -> String {
        let check = try qpdfCheck(file)
        #expect(check.status == 0, "qpdf --check \(file): \(check.stdout)\(check.stderr)")
        return file
    }

    /// `pdffonts`' rows: name, emb, sub, uni.
    func fonts(_ pdf: String) throws -> [(name: String, embedded: Bool, subset: Bool, toUnicode: Bool)] {
        let result = try run("pdffonts", [pdf])
        try #require(result.status == 0, "pdffonts: \(result.stderr)")
        return result.stdout.split(separator: "\n").dropFirst(2).map { line in
            let words = line.split(separator: " ")
            // The last five columns: emb sub uni object-number generation.
            let flags = words.suffix(5).prefix(3).map { $0 == "yes" }
            return (String(words[0]), flags[0], flags[1], flags[2])
        }
    }

    /// A right-to-left line as `pdftotext` writes it: between U+202B and U+202C,
    /// its characters in display order (right to left reversed); given back
    /// in logical order, as it was written.
    func logical(_ line: Substring) -> String {
        let inside = line.drop { $0 != "\u{202B}" }.dropFirst().prefix { $0 != "\u{202C}" }
        return String(inside.reversed())
    }

    func lines(_ pdf: String, page: Int) throws -> [Substring] {
        try pageText(pdf, page).split(separator: "\n")
    }

    @Test func polishGreekHebrewArabicAndJapaneseAreExtractedAsWrittenFromEmbeddedSubsets() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("number", "all", "--format", "Strona {n} z {total} — \(Self.polish)", in: dir)
        try pdfeditOK("watermark", "2", "--text", Self.greek, in: dir)  // 45°
        try pdfeditOK("watermark", "3", "--text", Self.hebrew, "--angle", "0", in: dir)
        try pdfeditOK("watermark", "4", "--text", Self.arabic, "--angle", "0", in: dir)
        try pdfeditOK("bates", "5", "--prefix", Self.japanese + "-", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = try checked(path(dir, "out.pdf"))

        for page in 1...7 {
            #expect(try lines(out, page: page).contains("Strona \(page) z 7 — \(Self.polish)"), "page \(page)")
        }
        // The slanted Greek is whole (its words carried as /ActualText).
        #expect(try lines(out, page: 2).contains(Substring(Self.greek)))
        // Right-to-left lines: compared in logical order (see `logical`).
        let (third, fourth) = (try pageText(out, 3), try pageText(out, 4))
        #expect(third.split(separator: "\n").map(logical).contains(Self.hebrew), "\(third)")
        #expect(fourth.split(separator: "\n").map(logical).contains(Self.arabic), "\(fourth)")
        #expect(try lines(out, page: 5).contains(Substring(Self.japanese + "-000001")))

        // Embedded subsets with ToUnicode maps: DejaVu and, for the Japanese, WenQuanYi.
        let embedded = try fonts(out).filter(\.embedded)
        #expect(!embedded.isEmpty && embedded.allSatisfy { $0.subset && $0.toUnicode }, "\(embedded)")
        #expect(embedded.contains { $0.name.hasSuffix("+DejaVuSans") }, "\(embedded)")
        #expect(embedded.contains { $0.name.hasSuffix("+WenQuanYiMicroHei") }, "\(embedded)")
        // Deterministic: the same session exports the same bytes.
        try pdfeditOK("export", "again.pdf", in: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: dir.appendingPathComponent("again.pdf")))
        // undo takes the Japanese Bates number back.
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "undone.pdf", in: dir)
        #expect(try !pageText(path(dir, "undone.pdf"), 5).contains(Self.japanese))
    }

    @Test func directModeStampsUnicodeAndTheStandardFontCaseStillEmbedsNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Paths.fixture("alpha.pdf")
        try pdfeditOK("watermark", "1..2", "--text", Self.arabic + " " + Self.polish, input, "-o", path(dir, "w.pdf"))
        let watermarked = try checked(path(dir, "w.pdf"))
        #expect(try fonts(watermarked).contains { $0.embedded && $0.subset && $0.toUnicode })
        #expect(try pageText(watermarked, 2).contains(Self.polish))

        // Windows-1252 text stays in the standard font: nothing embedded.
        try pdfeditOK("number", "all", "--format", "Seite {n} – Grüße", input, "-o", path(dir, "n.pdf"))
        let numbered = try checked(path(dir, "n.pdf"))
        #expect(try lines(numbered, page: 3).contains("Seite 3 – Grüße"))
        let rows = try fonts(numbered)
        #expect(rows.allSatisfy { !$0.embedded }, "\(rows)")
        #expect(rows.contains { $0.name == "Helvetica" })
    }

    @Test func aUnicodeNumberSitsAtTheBottomOfThePageAsDisplayedOnEveryQuarterTurn() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Blank pages: nothing of their own where the number goes.
        try pdfeditOK("blank", "--at", "1", "--count", "4", "--size", "400x300", in: dir)
        try pdfeditOK("remove", "5..", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        try pdfeditOK("rotate", "3", "--by", "180", in: dir)
        try pdfeditOK("rotate", "4", "--by", "270", in: dir)
        try pdfeditOK("number", "all", "--format", "Σ{n}", in: dir)
        try pdfeditOK("export", "turned.pdf", in: dir)
        let out = try checked(path(dir, "turned.pdf"))
        // Measured in pixels (pdftoppm at 1 pixel per point): the text in a real
        // font carries its words as /ActualText, whose box pdftotext -bbox
        // gives as a point (its start).
        for page in 1...4 {
            let size = try displayedPageSize(out, page: page)
            let raster = try Reliability.render(out, page: page, size: Int(max(size.width, size.height)))
            try #require(raster.width == Int(size.width) && raster.height == Int(size.height), "page \(page)")
            var (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
            for y in 0..<raster.height {
                for x in 0..<raster.width where raster.pixels[y * raster.width + x] < 128 {
                    (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                }
            }
            try #require(minX <= maxX, "page \(page): no ink")
            // Centred; the line's box (Pango's logical extents, 10 pt DejaVu:
            // about 11.6 pt high) ends 24 pt above the bottom, the glyphs inside it.
            #expect(abs(Double(minX + maxX + 1) / 2 - size.width / 2) < 1.5, "page \(page): x \(minX)…\(maxX)")
            #expect(maxY < raster.height - 24 && maxY > raster.height - 30, "page \(page): y \(minY)…\(maxY)")
            #expect(minY > raster.height - 24 - 14 && maxX - minX < 20, "upright: \(minX)…\(maxX), \(minY)…\(maxY)")
        }
    }

    @Test func aFontByNameOrFileIsEmbeddedAndBadFontsAreRefused() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
        try pdfeditOK("number", "1..2", "--format", "Page {n}", "--font", "DejaVu Serif:bold", in: dir)
        try pdfeditOK("watermark", "3", "--text", "MONO", "--font", mono, in: dir)
        try pdfeditOK("bates", "4", "--prefix", "X", "--font", "COURIER", in: dir)
        // The session keeps the font (format 7); list shows it.
        let session = String(decoding: try sessionBytes(dir), as: UTF8.self)
        #expect(session.contains("\"version\" : 8") && session.contains("\"fontName\" : \"DejaVu Serif:bold\""))
        #expect(try pdfeditOK("list", "--json", "--no-text", in: dir).stdout.contains("\"font\" : \"DejaVu Serif:bold\""))
        try pdfeditOK("export", "fonts.pdf", in: dir)
        let out = try checked(path(dir, "fonts.pdf"))
        #expect(try pageText(out, 2).contains("Page 2") && pageText(out, 3).contains("MONO"))
        let rows = try fonts(out)
        // Plain ASCII in a named font is embedded too; the standard font is not.
        #expect(rows.contains { $0.name.hasSuffix("+DejaVuSerif-Bold") && $0.embedded && $0.subset && $0.toUnicode }, "\(rows)")
        #expect(rows.contains { $0.name.hasSuffix("+DejaVuSansMono") && $0.embedded && $0.toUnicode }, "\(rows)")
        #expect(rows.contains { $0.name == "Courier" && !$0.embedded }, "\(rows)")

        // Refused, nothing changed: a family no installed font has (64), a
        // missing file (66), a file that is not a font (65).
        let before = try sessionBytes(dir)
        try Data("not a font".utf8).write(to: dir.appendingPathComponent("fake.ttf"))
        for (font, status) in [("No Such Font Family", Int32(64)), ("missing.ttf", 66), ("fake.ttf", 65)] {
            let refused = try pdfedit("number", "all", "--font", font, in: dir)
            #expect(refused.status == status, "\(font): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("pdfedit: ") && refused.stderr.split(separator: "\n").count == 1)
        }
        #expect(try sessionBytes(dir) == before)
    }

    /// A `--font` file is read at export as a source is: no output may replace
    /// it, `--force` or not (73), in direct mode and at a session's export.
    @Test func aFontFileIsNeverReplacedByAnOutput() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let font = path(dir, "mono.ttf")
        try FileManager.default.copyItem(
            atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", toPath: font)
        let before = try Data(contentsOf: URL(fileURLWithPath: font))
        try FileManager.default.createDirectory(atPath: path(dir, "sub"), withIntermediateDirectories: false)
        let direct = try pdfedit(
            "number", "all", "--font", "mono.ttf", Paths.fixture("alpha.pdf"), "-o", "sub/../mono.ttf", "--force",
            in: dir)
        #expect(direct.status == 73, "\(direct.stderr)")
        #expect(direct.stderr.contains("font file"), "\(direct.stderr)")
        try pdfeditOK("number", "all", "--format", "N{n}", "--font", "mono.ttf", in: dir)
        let exported = try pdfedit("export", "mono.ttf", "--force", in: dir)
        #expect(exported.status == 73, "\(exported.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == before)
        // Any other output is written, the number drawn in that font.
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = try checked(path(dir, "out.pdf"))
        #expect(try lines(out, page: 1).contains("N1"))
        #expect(try fonts(out).contains { $0.name.hasSuffix("+DejaVuSansMono") && $0.embedded && $0.subset })
    }

    @Test func dateFileAndPagesFieldsAndAnUnknownFieldIsRefused() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("insert", Paths.fixture("beta.pdf"), in: dir)
        try pdfeditOK("blank", "--at", "1", in: dir)
        try pdfeditOK("number", "all", "--format", "{file}|{n}/{pages}|{date}|{date:%d.%m.%Y}", in: dir)
        try pdfeditOK("export", "fields.pdf", in: dir)
        let out = try checked(path(dir, "fields.pdf"))
        let now = Date()
        func today(_ format: String) -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = format
            return formatter.string(from: now)
        }
        let date = today("yyyy-MM-dd") + "|" + today("dd.MM.yyyy")
        let pages = try qpdfPageCount(out) ?? 0
        #expect(pages == 13)  // a blank page, alpha's 7, beta's 5
        #expect(try lines(out, page: 1).contains(Substring("|1/13|" + date)), "a blank page has no file")
        #expect(try lines(out, page: 2).contains(Substring("alpha.pdf|2/13|" + date)))
        #expect(try lines(out, page: 13).contains(Substring("beta.pdf|13/13|" + date)))

        // An unknown {field} is refused (64), naming it, and nothing changes.
        let before = try sessionBytes(dir)
        for format in ["{x}", "Page {n} of {totl}", "{Date}"] {
            let refused = try pdfedit("number", "all", "--format", format, in: dir)
            #expect(refused.status == 64, "\(format)")
            #expect(refused.stderr.contains("unknown field") && refused.stderr.contains("{date:FORMAT}"), "\(refused.stderr)")
        }
        let direct = try pdfedit("watermark", "all", "--text", "{nope}", Paths.fixture("alpha.pdf"), "-o", path(dir, "x.pdf"))
        #expect(direct.status == 64 && !FileManager.default.fileExists(atPath: path(dir, "x.pdf")))
        #expect(try sessionBytes(dir) == before)
    }

    /// The colour under a point of a page as pdftoppm draws it (RGB, 0…255).
    func colour(_ pdf: String, page: Int, at fraction: [Double]) throws -> Pixels.RGB {
        try Pixels.reference(pdf, page: page, fraction: fraction)
    }

    @Test func colourBackgroundOutlineAndOpacityInBothFontKinds() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Blank pages: whatever is drawn is the stamp's.
        try pdfeditOK("blank", "--at", "1", "--count", "4", "--size", "200x100", in: dir)
        try pdfeditOK("remove", "5..", in: dir)
        // A standard-font text in RGB on a yellow box; a real-font text in CMYK.
        try pdfeditOK(
            "watermark", "1", "--text", "MMMM", "--angle", "0", "--size", "60", "--opacity", "1", "--color", "#0000ff",
            "--background", "yellow", in: dir)
        try pdfeditOK(
            "watermark", "2", "--text", "ŻŻŻŻ", "--angle", "0", "--size", "60", "--opacity", "1", "--color", "0,1,1,0",
            "--background", "blue", "--outline", "red", in: dir)
        try pdfeditOK("number", "3", "--format", "■■■", "--size", "60", "--color", "red", "--opacity", "50%", "--position", "center", in: dir)
        try pdfeditOK("number", "4", "--format", "MMMM", "--size", "60", "--color", "0,1,1,0", "--position", "center", in: dir)
        try pdfeditOK("export", "colours.pdf", in: dir)
        let out = try checked(path(dir, "colours.pdf"))
        func near(_ found: Pixels.RGB, _ wanted: (Int, Int, Int), _ what: String) {
            #expect(
                abs(found.red - wanted.0) < 40 && abs(found.green - wanted.1) < 40 && abs(found.blue - wanted.2) < 40,
                "\(what): \(found)")
        }
        // The box's corner is background, the middle of the M's strokes text.
        near(try colour(out, page: 1, at: [0.5, 0.16]), (255, 255, 0), "page 1 box")
        near(try colour(out, page: 2, at: [0.5, 0.1]), (0, 0, 255), "page 2 box")
        near(try colour(out, page: 3, at: [0.5, 0.5]), (255, 128, 128), "page 3: red at 50%")
        // CMYK reaches a standard-font text as CMYK operators (k), written as given.
        let qdf = try run("qpdf", ["--qdf", "--object-streams=disable", out, "-"]).stdout
        #expect(qdf.contains("0 1 1 0 k"), "CMYK fill")
        #expect(qdf.contains("0 0 1 rg") && qdf.contains("1 1 0 rg"), "RGB text and box")
        let refused = try pdfedit("number", "all", "--color", "chartreuse-ish", in: dir)
        #expect(refused.status == 64 && refused.stderr.contains("--color"), "\(refused.stderr)")
    }
}
