import Foundation
import Testing

/// `number`, `bates`, `watermark` and `stamp --position/--offset` on the built
/// binary: text read back by `pdftotext` (and its boxes by `pdftotext -bbox`),
/// opacity by `qpdf --json`, every output by `qpdf --check`.
@Suite struct TextStampCommandTests {
    func path(_ dir: URL, _ file: String) -> String { dir.appendingPathComponent(file).path }

    func exported(_ dir: URL, _ file: String, _ extra: String...) throws -> String {
        try pdfeditOK(args: ["export", file] + extra, in: dir)
        let out = path(dir, file)
        let check = try qpdfCheck(out)
        #expect(check.status == 0, "qpdf --check \(file): \(check.stdout)\(check.stderr)")
        return out
    }

    @Test func pageNumbersAndBatesNumbersAreTextOnTheirPages() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "6..7", in: dir)
        let numbered = try pdfedit("number", "all", "--format", "Page {n} of {total}", in: dir)
        #expect(numbered.status == 0, "\(numbered.stderr)")
        #expect(numbered.stdout == "numbered 5 pages with \"Page {n} of {total}\" (over, bottom margin 24) (5 pages)\n")
        let out = try exported(dir, "numbered.pdf")
        for page in 1...5 {
            #expect(try pageText(out, page).contains("Page \(page) of 5"), "page \(page)")
        }

        try pdfeditOK("bates", "all", "--prefix", "ABC", "--start", "7", "--digits", "4", in: dir)
        let bates = try exported(dir, "bates.pdf")
        #expect(try BoxedWord.words(bates, page: 2).map(\.text).contains("ABC0008"))
        #expect(try pageText(bates, 5).contains("ABC0011"))
        // Bottom-right, 24 pt from the edges (letter, 612 × 792).
        let word = try BoxedWord.word("ABC0008", in: bates, page: 2)
        #expect(abs(word.xMax - 588) < 0.01 && abs(word.yMax - 768) < 0.01, "\(word)")

        // The list says what each page gets; the table and the JSON keys.
        let table = try pdfeditOK("list", "--no-text", in: dir).stdout
        #expect(table.contains("number \"Page 3 of 5\" bottom, bates \"ABC0009\" bottom-right"))
        let listing = try JSONSerialization.jsonObject(with: Data(try pdfeditOK("list", "--json", "--no-text", in: dir).stdout.utf8))
        let items = try #require((listing as? [String: Any])?["items"] as? [[String: Any]])
        let stamps = try #require(items[1]["stamps"] as? [[String: Any]])
        #expect(stamps.count == 2)
        #expect(stamps[1]["kind"] as? String == "bates" && stamps[1]["text"] as? String == "ABC0008")
        #expect(stamps[1]["format"] as? String == "ABC{n}" && stamps[1]["position"] as? String == "bottom-right")
        #expect(stamps[0]["font"] as? String == "helvetica" && stamps[0]["size"] as? Double == 10)
        #expect(stamps[0]["margin"] as? Double == 24 && stamps[0]["offset"] as? [Double] == [0, 0])
        #expect(stamps[0]["source"] == nil && stamps[0]["page"] == nil)

        // unstamp takes generated stamps off; undo and redo go back and forth.
        #expect(try pdfedit("unstamp", "2", in: dir).stdout == "removed 2 stamps from 1 page (5 pages)\n")
        let unstamped = try exported(dir, "unstamped.pdf")
        #expect(try !pageText(unstamped, 2).contains("ABC0008") && !pageText(unstamped, 2).contains("Page 2 of 5"))
        // The numbers follow the pages that keep them: page 3 is now the second numbered.
        #expect(try pageText(unstamped, 3).contains("ABC0008") && pageText(unstamped, 3).contains("Page 2 of 4"))
        try pdfeditOK("undo", in: dir)
        #expect(try pageText(try exported(dir, "undone.pdf"), 2).contains("ABC0008"))
        try pdfeditOK("undo", in: dir)
        #expect(try !pageText(try exported(dir, "undone2.pdf"), 2).contains("ABC"))
        try pdfeditOK("redo", in: dir)
        #expect(try pageText(try exported(dir, "redone.pdf"), 2).contains("ABC0008"))
        // Outputs are deterministic: the same session exports the same bytes.
        let again = try exported(dir, "again.pdf")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: path(dir, "redone.pdf"))))
        // The session file is format 6 and holds the texts' formats, once each (in "texts").
        let session = String(decoding: try sessionBytes(dir), as: UTF8.self)
        #expect(session.contains("\"version\" : 8") && session.contains("\"format\" : \"ABC{n}\""))
        #expect(session.components(separatedBy: "\"format\" : \"ABC{n}\"").count == 2)
    }

    @Test func theNumberSitsAtTheBottomOfThePageAsDisplayedWhateverItsTurnAndOrigin() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try oddOriginPDF(at: path(dir, "odd.pdf"))
        try FileManager.default.copyItem(atPath: Paths.fixture("alpha.pdf"), toPath: path(dir, "alpha.pdf"))
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("remove", "5..", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        try pdfeditOK("rotate", "3", "--by", "180", in: dir)
        try pdfeditOK("rotate", "4", "--by", "270", in: dir)
        try pdfeditOK("insert", "odd.pdf", in: dir)  // 5: odd origin; 6: odd origin turned 90
        try pdfeditOK("number", "all", "--format", "No{n}", in: dir)
        let out = try exported(dir, "turned.pdf")
        for page in 1...6 {
            let size = try displayedPageSize(out, page: page)
            let word = try BoxedWord.word("No\(page)", in: out, page: page)
            #expect(abs(word.centreX - size.width / 2) < 0.01, "page \(page): \(word) on \(size)")
            #expect(abs(word.yMax - (size.height - 24)) < 0.01, "page \(page): \(word) on \(size)")
            #expect(word.yMax - word.yMin < 10 && word.xMax - word.xMin < 40, "upright: \(word)")
        }
    }

    /// Pages export makes anew (resized, then turned or cropped; blank) get
    /// their stamps on the page as export writes it (`ShownPage`).
    @Test func theNumberSitsAtTheBottomOfResizedTurnedCroppedAndBlankPages() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "4..", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        try pdfeditOK("resize", "1..3", "--to", "a5", in: dir)
        try pdfeditOK("rotate", "3", "--by", "90", in: dir)
        try pdfeditOK("crop", "1", "--margins", "30,10,50,20", in: dir)
        try pdfeditOK("blank", "--after", "3", "--size", "a6", in: dir)
        try pdfeditOK("number", "all", "--format", "No{n}", in: dir)
        let out = try exported(dir, "resized.pdf")
        for page in 1...4 {
            let size = try displayedPageSize(out, page: page)
            let word = try BoxedWord.word("No\(page)", in: out, page: page)
            // pdftotext measures from the MediaBox's corner: page 1's crop starts 20 pt in, 30 pt down.
            let (left, top, width, height) = page == 1 ? (20.0, 30.0, size.width, size.height) : (0, 0, size.width, size.height)
            #expect(abs(word.centreX - (left + width / 2)) < 0.01, "page \(page): \(word) on \(size)")
            #expect(abs(word.yMax - (top + height - 24)) < 0.01, "page \(page): \(word) on \(size)")
            #expect(word.yMax - word.yMin < 10 && word.xMax - word.xMin < 40, "upright: \(word)")
        }
    }

    @Test func theNineAnchorsAndTheOffsetOnATurnedPage() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "3..", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        let anchors = ["top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"]
        for (index, anchor) in anchors.enumerated() {
            try pdfeditOK("number", "all", "--format", "A\(index)", "--position", anchor, "--margin", "20", in: dir)
        }
        try pdfeditOK("number", "all", "--format", "Moved", "--position", "top-left", "--margin", "0", "--offset", "30,-15mm", in: dir)
        let out = try exported(dir, "anchors.pdf")
        for page in 1...2 {
            let size = try displayedPageSize(out, page: page)
            for (index, anchor) in anchors.enumerated() {
                let word = try BoxedWord.word("A\(index)", in: out, page: page)
                let what = "page \(page) \(anchor): \(word) on \(size)"
                if anchor.hasSuffix("left") || anchor == "left" { #expect(abs(word.xMin - 20) < 0.01, "\(what)") }
                if anchor.hasSuffix("right") || anchor == "right" { #expect(abs(word.xMax - (size.width - 20)) < 0.01, "\(what)") }
                if anchor == "top" || anchor == "center" || anchor == "bottom" {
                    #expect(abs(word.centreX - size.width / 2) < 0.01, "\(what)")
                }
                if anchor.hasPrefix("top") { #expect(abs(word.yMin - 20) < 0.01, "\(what)") }
                if anchor.hasPrefix("bottom") { #expect(abs(word.yMax - (size.height - 20)) < 0.01, "\(what)") }
                if anchor == "left" || anchor == "center" || anchor == "right" {
                    #expect(abs(word.centreY - size.height / 2) < 0.01, "\(what)")
                }
            }
            // 30 pt right and 15 mm down from the top-left corner.
            let moved = try BoxedWord.word("Moved", in: out, page: page)
            #expect(abs(moved.xMin - 30) < 0.01 && abs(moved.yMin - 15 * 72 / 25.4) < 0.01, "\(moved)")
        }
    }

    @Test func aPageStampTakesPositionAndOffsetToo() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "2..", in: dir)
        // The stamp is a page of the session's own numbered file: its words tell where it went.
        try pdfeditOK("export", "small.pdf", in: dir)
        try pdfeditOK("blank", "--size", "100x50", in: dir)
        try pdfeditOK("number", "2", "--format", "Tiny", "--position", "center", in: dir)
        try pdfeditOK("export", "tiny.pdf", "2", in: dir)
        try pdfeditOK("remove", "2", in: dir)
        let stamped = try pdfedit("stamp", "1", "tiny.pdf", "--position", "bottom-right", "--offset", "-10,10", in: dir)
        #expect(stamped.status == 0, "\(stamped.stderr)")
        #expect(stamped.stdout.contains("(over, bottom-right -10,+10)"))
        let out = try exported(dir, "stamped.pdf")
        // The 100 × 50 page sits 10 pt from the bottom-right corner; its word in its centre.
        let word = try BoxedWord.word("Tiny", in: out, page: 1)
        #expect(abs(word.centreX - (612 - 10 - 50)) < 0.01 && abs(word.centreY - (792 - 10 - 25)) < 0.01, "\(word)")
    }

    @Test func aWatermarkIsOneStringWithItsOpacity() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("rotate", "3", "--by", "90", in: dir)
        try pdfeditOK("watermark", "1..3", "--text", "DRAFT COPY ONLY", "--opacity", "25%", in: dir)
        let out = try exported(dir, "draft.pdf")
        for page in 1...3 {
            #expect(try pageText(out, page).contains("DRAFT COPY ONLY"), "page \(page)")
        }
        #expect(try !pageText(out, 4).contains("DRAFT"))
        // One graphics state with /ca 0.25 (and /CA), shared by the pages.
        let json = try run("qpdf", ["--json", "--json-key=qpdf", out])
        let states = json.stdout.components(separatedBy: "\"/ca\": 0.25").count - 1
        #expect(states == 1, "\(states) graphics states with /ca 0.25")
        // The content as qpdf writes it uncompressed: the shared font, the words as /ActualText.
        let qdf = try run("qpdf", ["--qdf", "--object-streams=disable", out, "-"])
        #expect(qdf.stdout.contains("/PdfeditFont0 72 Tf"))
        let words = "DRAFT COPY ONLY".utf16.map { String(format: "%04x", $0) }.joined()
        #expect(qdf.stdout.contains("/Span <</ActualText <feff\(words)>>> BDC"))
        // One font dictionary, shared by the three pages.
        let references = qdf.stdout.split(separator: "\n").filter { $0.contains("/PdfeditFont0 ") && $0.hasSuffix(" 0 R") }
        #expect(references.count == 3 && Set(references).count == 1, "\(references)")
    }

    @Test func labelsDocumentNamesAndCroppedPages() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("labels", "1:r", "4:D", in: dir)
        try pdfeditOK("crop", "2", "--rect", "100,50,500,700", in: dir)
        try pdfeditOK("number", "all", "--format", "{doc}-{label}", "--position", "bottom-left", in: dir)
        let out = try exported(dir, "labelled.pdf")
        #expect(try BoxedWord.words(out, page: 3).map(\.text).contains("alpha-iii"))
        #expect(try BoxedWord.words(out, page: 4).map(\.text).contains("alpha-1"))
        // On the cropped page it sits in the visible area: 24 pt inside its bottom-left corner.
        let word = try BoxedWord.word("alpha-ii", in: out, page: 2)
        #expect(abs(word.xMin - 124) < 0.01 && abs(word.yMax - (792 - 74)) < 0.01, "\(word)")
    }

    @Test func directModeRunAndApply() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let direct = try pdfedit("number", "all", "--format", "{n}/{total}", "alpha.pdf", "-o", "direct.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try pageText(path(dir, "direct.pdf"), 2).contains("2/7"))
        #expect(try qpdfCheck(path(dir, "direct.pdf")).status == 0)

        try pdfeditOK("open", "alpha.pdf", in: dir)
        let script = "bates all --prefix X- --digits 3\nwatermark 1 --text Secret --angle 0\n"
        let ran = try pdfedit("run", "-", in: dir, stdin: script)
        #expect(ran.status == 0, "\(ran.stderr)")
        let out = try exported(dir, "ran.pdf")
        #expect(try pageText(out, 1).contains("X-001") && pageText(out, 1).contains("Secret"))
        #expect(try pdfedit("undo", in: dir).status == 0)
        #expect(try !pageText(try exported(dir, "back.pdf"), 1).contains("X-001"), "the script was one step")

        let applied = try pdfedit(
            "apply", "-e", "number all --format p{n}", "alpha.pdf", "beta.pdf", "-o", "out/{stem}.pdf", in: dir)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try pageText(path(dir, "out/beta.pdf"), 2).contains("p2"))
        #expect(try qpdfCheck(path(dir, "out/beta.pdf")).status == 0)
    }

    @Test func showDrawsTheGeneratedStamps() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("blank", "--at", "1", "--size", "a4", in: dir)
        try pdfeditOK("thumbs", "plain", "1", in: dir)
        try pdfeditOK("watermark", "1", "--text", "I", "--opacity", "1", "--angle", "0", "--size", "400", in: dir)
        try pdfeditOK("thumbs", "marked", "1", in: dir)
        let plainFile = try #require(FileManager.default.contentsOfDirectory(atPath: path(dir, "plain")).first)
        let markedFile = try #require(FileManager.default.contentsOfDirectory(atPath: path(dir, "marked")).first)
        let size = try Pixels.pngSize(path(dir, "marked/" + markedFile))
        let centre = (x: size.width / 2, y: size.height / 2)
        let plain = try Pixels.png(path(dir, "plain/" + plainFile), at: [centre])
        let marked = try Pixels.png(path(dir, "marked/" + markedFile), at: [centre, (x: 2, y: 2)])
        #expect(Pixels.isLight(plain[0]))
        #expect(Pixels.isDark(marked[0]), "the I stroke covers the centre of the blank page")
        #expect(Pixels.isLight(marked[1]))
    }

    @Test func showPutsAPositionedPageStampWhereExportDoes() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 100 × 100 mark: one letter I too large for its page, scaled down to fit it.
        try pdfeditOK("blank", "--at", "1", "--size", "100x100", in: dir)
        try pdfeditOK("watermark", "1", "--text", "I", "--size", "400", "--angle", "0", "--opacity", "1", in: dir)
        try pdfeditOK("export", "mark.pdf", "1", in: dir)
        try pdfeditOK("remove", "1", in: dir)
        try pdfeditOK("blank", "--at", "1", "--size", "a4", in: dir)
        try pdfeditOK("stamp", "1", "mark.pdf", "--position", "top-left", "--offset", "20,-20", in: dir)
        try pdfeditOK("thumbs", "thumbs", "1", in: dir)
        let out = try exported(dir, "stamped.pdf", "1")
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: path(dir, "thumbs")).first)
        let png = path(dir, "thumbs/" + file)
        let size = try Pixels.pngSize(png)
        // The mark's centre: 20 + 50 pt from the left, 20 + 50 pt from the top of 595 × 842.
        let perPoint = Double(size.width) / 595.276
        let mark = (x: Int(70 * perPoint), y: Int(70 * perPoint))
        let colours = try Pixels.png(png, at: [mark, (x: size.width / 2, y: size.height / 2)])
        #expect(Pixels.isDark(colours[0]), "show: the I at the top-left")
        #expect(Pixels.isLight(colours[1]))
        #expect(Pixels.isDark(try Pixels.reference(out, page: 1, fraction: [70 / 595.276, 70 / 841.89])), "export")
        #expect(Pixels.isLight(try Pixels.reference(out, page: 1, fraction: [0.5, 0.5])))
    }
}
