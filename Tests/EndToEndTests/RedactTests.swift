import Foundation
import Testing

/// `redact`: what a page draws in a region leaves the file (issue 45). Each
/// text operator is checked on a small content stream written here: the
/// redacted word is gone from pdftotext's words and from the decoded bytes,
/// every other word is where it was (pdftotext -bbox).
@Suite(.serialized) struct RedactTests {
    /// Writes `pages`, redacts `word` (found by pdftotext on page 1) with
    /// `--rect`, and checks the rest stayed. Returns the output's path.
    @discardableResult
    func redactsWord(
        _ word: String, pages: [RedactPDF.Page], objects: [Int: RedactPDF.Object] = [:], bytes: [String]? = nil,
        in directory: URL
    ) throws -> String {
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(input, pages: pages, objects: objects)
        let before = try RedactPDF.words(input)
        let target = try #require(before.first { $0.text == word }, "pdftotext finds \(word) in \(before)")
        try pdfeditOK("redact", "1", "--rect", RedactPDF.rect(around: target), input, "-o", output)
        let after = try RedactPDF.words(output)
        #expect(!after.contains { $0.text.contains(word) }, "\(after)")
        for other in before where other != target {
            #expect(after.contains { $0.samePlace(as: other) }, "\(other) moved or went: \(after)")
        }
        let decoded = try RedactPDF.decodedFile(output)
        for piece in bytes ?? [word] {
            #expect(!decoded.contains(piece), "\(piece) is still in the file's bytes")
        }
        #expect(try qpdfCheck(output).status == 0)
        return output
    }

    @Test func tjBecomesTJWithTheRemovedAdvance() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try redactsWord(
            "Secret", pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")], in: directory)
        #expect(try RedactPDF.decodedFile(output).contains("] TJ"))
    }

    @Test func tjArrayKeepsItsKerning() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try redactsWord(
            "Secret",
            pages: [.init(content: "BT /F1 12 Tf 20 100 Td [(Alpha) -250 (Sec) 120 (ret) -300 (Omega) 80 (Tail)] TJ ET")],
            bytes: ["(Sec", "(ret"], in: directory)
    }

    @Test func quoteAndDoubleQuoteMoveToTheNextLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try redactsWord(
            "Hidden",
            pages: [.init(content: "BT /F1 12 Tf 16 TL 20 150 Td (First line) Tj (Second Hidden) ' 3 1 (Third line) \" ET")],
            in: directory)
        let second = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: second) }
        try redactsWord(
            "Hidden",
            pages: [.init(content: "BT /F1 12 Tf 16 TL 20 150 Td (First line) Tj 2 0.5 (Third Hidden tail) \" (Last) ' ET")],
            in: second)
    }

    @Test func spacingScaleAndRiseAreFollowed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try redactsWord(
            "Secret",
            pages: [.init(content: "BT /F1 11 Tf 1.5 Tc 4 Tw 80 Tz 3 Ts 20 100 Td (Alpha Secret Omega end) Tj ET")],
            in: directory)
    }

    @Test func matricesAndLineOperatorsAreFollowed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try redactsWord(
            "Secret",
            pages: [.init(content: """
                q 1 0 0 1 10 -20 cm BT /F1 6 Tf 2 0 0 2 10 150 Tm (Top line) Tj 0 -10 TD (Alpha Secret Omega) Tj
                T* (Below) Tj ET Q BT /F1 12 Tf 20 40 Td (Outside the q) Tj ET
                """)],
            in: directory)
    }

    @Test func unbalancedStatesDoNotMoveTheFill() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A q never closed: the fill must not be drawn scaled by its cm.
        try redactsWord(
            "Secret",
            pages: [.init(content: "q 2 0 0 2 0 0 cm BT /F1 8 Tf 10 50 Td (Alpha Secret Omega) Tj ET")],
            in: directory)
    }

    @Test func type3GlyphsAreMeasuredThroughTheFontMatrix() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let letters = Array("ABCDEF")
        var procs: [String] = []
        var objects: [Int: RedactPDF.Object] = [:]
        for (offset, letter) in letters.enumerated() {
            objects[20 + offset] = .stream("", Array("600 0 0 0 500 700 d1 50 0 400 700 re f".utf8))
            procs.append("/\(letter) \(20 + offset) 0 R")
        }
        objects[30] = .stream("", Array("500 0 0 0 0 0 d1".utf8))
        procs.append("/space 30 0 R")
        let widths = (65...70).map { _ in "600" }.joined(separator: " ")
        objects[11] = .dictionary(
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] "
                + "/CharProcs << \(procs.joined(separator: " ")) >> /Encoding << /Type /Encoding /Differences [32 /space 65 "
                + letters.map { "/\($0)" }.joined(separator: " ") + "] >> /FirstChar 32 /LastChar 70 /Widths [500 "
                + (33...64).map { _ in "0" }.joined(separator: " ") + " \(widths)] >>")
        try redactsWord(
            "DEF",
            pages: [.init(content: "BT /T3 20 Tf 20 100 Td (ABC DEF ABC) Tj ET", resources: "/Font << /T3 11 0 R >>")],
            objects: objects, bytes: ["DEF"], in: directory)
    }

    @Test func cidFontTextWithTwoByteCodes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Identity-H, widths from /W, text from a ToUnicode map: 秘密 文書 公開.
        let cmap = """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def /CMapType 2 def
            1 begincodespacerange <0000> <FFFF> endcodespacerange
            7 beginbfchar <0001> <79D8> <0002> <5BC6> <0003> <6587> <0004> <66F8> <0005> <0020> <0006> <516C> <0007> <958B> endbfchar
            endcmap CMapName currentdict /CMap defineresource pop end end
            """
        let objects: [Int: RedactPDF.Object] = [
            11: .dictionary(
                "<< /Type /Font /Subtype /Type0 /BaseFont /WenQuanYiMicroHei /Encoding /Identity-H "
                    + "/DescendantFonts [12 0 R] /ToUnicode 13 0 R >>"),
            12: .dictionary(
                "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /WenQuanYiMicroHei /CIDSystemInfo << /Registry (Adobe) "
                    + "/Ordering (Identity) /Supplement 0 >> /FontDescriptor 14 0 R /DW 1000 /W [5 [300]] >>"),
            13: .stream("", Array(cmap.utf8)),
            14: .dictionary(
                "<< /Type /FontDescriptor /FontName /WenQuanYiMicroHei /Flags 4 /FontBBox [0 -200 1000 800] "
                    + "/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>"),
        ]
        let directoryPath = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(
            directoryPath,
            pages: [.init(content: "BT /C1 20 Tf 20 100 Td <00010002000500030004000500060007> Tj ET", resources: "/Font << /C1 11 0 R >>")],
            objects: objects)
        let output = directory.appendingPathComponent("out.pdf").path
        try pdfeditOK("redact", "1", "--text", "文書", directoryPath, "-o", output)
        let text = try pageText(output, 1)
        #expect(text.contains("秘密") && text.contains("公開") && !text.contains("文") && !text.contains("書"), "\(text)")
        let before = try RedactPDF.words(directoryPath)
        let after = try RedactPDF.words(output)
        for word in before where word.text != "文書" {
            #expect(after.contains { $0.samePlace(as: word) }, "\(word) moved: \(after)")
        }
        #expect(!(try RedactPDF.decodedFile(output)).contains("<00010002000500030004"))
    }

    @Test func textInAFormIsRedactedOnThisPageOnly() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let form: [Int: RedactPDF.Object] = [
            11: .stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 300 200] /Resources << /Font << /F1 10 0 R >> >>",
                Array("BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET".utf8))
        ]
        let page = RedactPDF.Page(content: "q 1 0 0 1 5 5 cm /Fm1 Do Q", resources: "/XObject << /Fm1 11 0 R >>")
        // Page 2 still draws the original form, so its bytes stay in the file.
        let output = try redactsWord("Secret", pages: [page, page], objects: form, bytes: [], in: directory)
        // Page 2 still draws the form as it was: the redacted one is page 1's own copy.
        #expect(try RedactPDF.words(output, page: 2).map(\.text) == ["Alpha", "Secret", "Omega"])
    }

    @Test func imageSamplesInsideTheRegionAreReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 60 × 40 grey image of value 200 drawn over 120 × 80 pt at (100, 50): 2 pt a sample.
        let image: [Int: RedactPDF.Object] = [
            11: .stream(
                "/Type /XObject /Subtype /Image /Width 60 /Height 40 /ColorSpace /DeviceGray /BitsPerComponent 8",
                [UInt8](repeating: 200, count: 60 * 40))
        ]
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(
            input, pages: [.init(content: "q 120 0 0 80 100 50 cm /Im1 Do Q", resources: "/XObject << /Im1 11 0 R >>")],
            objects: image)
        try pdfeditOK("redact", "1", "--rect", "130,70,40,30", "--fill", "white", input, "-o", output)
        // The image's own samples, as pdfimages extracts them (rows from the top).
        #expect(try run("pdfimages", [output, directory.appendingPathComponent("img").path]).status == 0)
        let extracted = try RedactPDF.readPNM(directory.appendingPathComponent("img-000.ppm").path)
        #expect(extracted.width == 60 && extracted.height == 40)
        // Region x 130…170 → samples 15..<35, y 70…100 → rows 15..<30 (from the top).
        for row in 0..<40 {
            for column in 0..<60 {
                let inside = (15..<35).contains(column) && (15..<30).contains(row)
                #expect(extracted.pixels[row * 60 + column] == (inside ? 255 : 200), "sample \(column),\(row)")
            }
        }
        // The source's image object is untouched (the page draws a copy).
        #expect(try RedactPDF.decodedFile(input).contains("/Im1"))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func aScannedPageLosesTheRegionsSamples() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 1654 × 2338 JPEG at 200 dpi filling an A4 page (596 × 842 pt).
        let input = Paths.corpus("pdfjs-issue7229.pdf")
        let output = directory.appendingPathComponent("out.pdf").path
        try pdfeditOK("redact", "1", "--rect", "100,100,200,150", input, "-o", output)
        #expect(try run("pdfimages", ["-f", "1", "-l", "1", input, directory.appendingPathComponent("a").path]).status == 0)
        #expect(try run("pdfimages", ["-f", "1", "-l", "1", "-list", output]).stdout.contains("jpeg"))
        #expect(try run("pdfimages", ["-f", "1", "-l", "1", output, directory.appendingPathComponent("b").path]).status == 0)
        let before = try RedactPDF.readPNM(directory.appendingPathComponent("a-000.ppm").path)
        let after = try RedactPDF.readPNM(directory.appendingPathComponent("b-000.ppm").path)
        #expect(before.width == after.width && before.height == after.height)
        let scale = Double(after.width) / 596
        // Inside the region (x 110…290, y 110…240 pt from the bottom): black in the image itself.
        for (x, y) in [(110.0, 110.0), (200, 175), (290, 240)] {
            let sample = after.pixels[Int((842 - y) * scale) * after.width + Int(x * scale)]
            #expect(sample < 16, "sample at \(x),\(y) is \(sample)")
        }
        // Far outside: as it was, within the JPEG's re-encoding.
        for (x, y) in [(50.0, 50.0), (400, 600), (500, 300)] {
            let index = Int((842 - y) * scale) * after.width + Int(x * scale)
            #expect(abs(Int(after.pixels[index]) - Int(before.pixels[index])) < 24, "sample at \(x),\(y)")
        }
        // A CCITT scan's samples cannot be decoded: refused, nothing written.
        let refused = try pdfedit(
            "redact", "1", "--rect", "100,100,200,150", Paths.corpus("ocrmypdf-ccitt.pdf"), "-o", output, "--force")
        #expect(refused.status == 65 && refused.stderr.contains("CCITTFaxDecode"), "\(refused.stderr)")
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func aFormFieldInARegionLeavesTheForm() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Paths.corpus("sample-libreoffice-form.pdf")
        let output = directory.appendingPathComponent("out.pdf").path
        func fields(_ file: String) throws -> [String] {
            let json = try run("qpdf", ["--json", "--json-key=acroform", file]).stdout
            let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let form = try #require(top["acroform"] as? [String: Any])
            return (form["fields"] as? [[String: Any]] ?? []).compactMap { $0["fullname"] as? String }
        }
        // "Last Name"'s widget: /Rect [273.349 712.34 357.001 716.188].
        try pdfeditOK("redact", "1", "--rect", "270,705,90,15", input, "-o", output)
        let before = try fields(input)
        #expect(before.contains("Last Name"))
        #expect(try fields(output) == before.filter { $0 != "Last Name" })
        #expect(try qpdfCheck(output).status == 0)
    }

    @Test func applyRedactsEachFileAndProvesIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["a", "b"] {
            try RedactPDF.write(
                directory.appendingPathComponent("\(name).pdf").path,
                pages: [.init(content: "BT /F1 12 Tf 20 100 Td (File \(name) Secret Omega) Tj ET")])
        }
        try pdfeditOK("apply", "-e", "redact all --text secret", "a.pdf", "b.pdf", "-o", "out/{name}", in: directory)
        for name in ["a", "b"] {
            let text = try pageText(directory.appendingPathComponent("out/\(name).pdf").path, 1)
            #expect(text.contains("File \(name)") && text.contains("Omega") && !text.contains("Secret"), "\(text)")
        }
    }

    @Test func copiesOutsideThePagesAreReported() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let titled = directory.appendingPathComponent("titled.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")])
        try pdfeditOK("meta", "--title", "The Secret plan", input, "-o", titled)
        let result = try pdfeditOK("redact", "1", "--text", "secret", titled, "-o", output)
        #expect(result.stderr.contains("warning") && result.stderr.contains("Title") && result.stderr.contains("Secret"), "\(result.stderr)")
        #expect(!(try pageText(output, 1)).contains("Secret"))
    }

    @Test func annotationsMeetingARegionAreRemoved() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let objects: [Int: RedactPDF.Object] = [
            11: .dictionary("<< /Type /Annot /Subtype /Link /Rect [20 95 60 110] /A << /S /URI /URI (http://example.com/a) >> >>"),
            12: .dictionary("<< /Type /Annot /Subtype /Link /Rect [200 20 260 40] /A << /S /URI /URI (http://example.com/b) >> >>"),
        ]
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(
            input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha) Tj ET", extra: "/Annots [11 0 R 12 0 R]")],
            objects: objects)
        try pdfeditOK("redact", "1", "--rect", "10,90,60,30", input, "-o", output)
        let decoded = try RedactPDF.decodedFile(output)
        #expect(!decoded.contains("example.com/a") && decoded.contains("example.com/b"))
    }

    @Test func pathsInsideARegionAreNotPainted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(input, pages: [.init(content: "0.5 g 150 90 10 10 re f 0 0 40 40 re f")])
        try pdfeditOK("redact", "1", "--rect", "140,80,40,40", "--fill", "white", input, "-o", output)
        let decoded = try RedactPDF.decodedFile(output)
        #expect(decoded.contains("150 90 10 10 re\nn"))
        #expect(decoded.contains("0 0 40 40 re\nf"))
        let grey = try RedactPDF.grey(output)
        #expect(grey.pixels[(200 - 95) * grey.width + 155] == 255)  // inside: white fill, nothing under it
        #expect(grey.pixels[(200 - 20) * grey.width + 20] < 200)  // the other square is still drawn
    }

    @Test func pixelsInsideAreTheFillAndOutsideUnchanged() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(
            input, pages: [.init(content: "BT /F1 14 Tf 20 100 Td (Alpha Secret Omega) Tj 0 -30 Td (Second line here) Tj ET")])
        try pdfeditOK("redact", "1", "--rect", "60,95,70,20", "--fill", "#808080", input, "-o", output)
        let before = try RedactPDF.grey(input)
        let after = try RedactPDF.grey(output)
        #expect(before.width == after.width && before.height == after.height)
        var differing = 0
        for y in 0..<after.height {
            for x in 0..<after.width {
                let value = after.pixels[y * after.width + x]
                let userY = 200 - y
                if x > 61, x < 129, userY > 96, userY < 114 {
                    #expect(abs(Int(value) - 128) <= 2, "pixel \(x),\(y) is \(value)")
                } else if x < 58 || x > 132 || userY < 93 || userY > 117 {
                    if abs(Int(value) - Int(before.pixels[y * before.width + x])) > 8 { differing += 1 }
                }
            }
        }
        #expect(differing == 0)
    }

    @Test func rotatedAndCroppedPagesTakeDisplayedCoordinates() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        let content = "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET"
        try RedactPDF.write(
            input,
            pages: [
                .init(content: content, extra: "/Rotate 90"),
                .init(content: content, extra: "/CropBox [10 50 290 180]"),
            ])
        // Page 1 shown 200 wide, 300 tall: user (x, y) is displayed (y, 300 - x).
        let secret = try #require(try RedactPDF.words(input, page: 1).first { $0.text == "Secret" })
        // pdftotext gives displayed boxes (y downward) of the rotated page.
        let rect1 = RedactPDF.rect(around: secret, pageHeight: 300)
        // Page 2 shown from (10, 50): pdftotext measures from the MediaBox's top, the
        // region is given from the crop box's lower-left corner.
        let secret2 = try #require(try RedactPDF.words(input, page: 2).first { $0.text == "Secret" })
        let rect2 = [secret2.x0 - 10, 200 - secret2.y1 - 50, secret2.x1 - secret2.x0, secret2.y1 - secret2.y0]
            .map { String(format: "%.2f", $0) }.joined(separator: ",")
        try pdfeditOK("redact", "1", "--rect", rect1, input, "-o", output)
        #expect(try RedactPDF.words(output, page: 1).map(\.text) == ["Alpha", "Omega"])
        #expect(try RedactPDF.words(output, page: 2).map(\.text) == ["Alpha", "Secret", "Omega"])
        let output2 = directory.appendingPathComponent("out2.pdf").path
        try pdfeditOK("redact", "2", "--rect", rect2, input, "-o", output2)
        #expect(try RedactPDF.words(output2, page: 2).map(\.text) == ["Alpha", "Omega"])
    }

    @Test func aPageItCannotJudgeIsRefusedAndNothingIsWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        // Text drawn as a shading: the interpreter cannot tell what it shows.
        let shading: [Int: RedactPDF.Object] = [
            11: .dictionary(
                "<< /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 300 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >> >>")
        ]
        try RedactPDF.write(
            input,
            pages: [.init(content: "q 40 90 100 20 re W n /Sh1 sh Q BT /F1 12 Tf 20 40 Td (Alpha) Tj ET", resources: "/Font << /F1 10 0 R >> /Shading << /Sh1 11 0 R >>")],
            objects: shading)
        let result = try pdfedit("redact", "1", "--rect", "50,95,40,10", input, "-o", output)
        #expect(result.status == 65)
        #expect(result.stderr.contains("page 1") && result.stderr.contains("cannot redact") && result.stderr.contains("shading"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in.pdf"])
        // Away from the shading the same page is redacted.
        try pdfeditOK("redact", "1", "--rect", "15,35,50,20", input, "-o", output)
        #expect(!(try pageText(output, 1)).contains("Alpha"))
    }

    @Test func aSessionStagesRedactionsUntilExport() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(
            input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET"), .init(content: "BT /F1 12 Tf 20 100 Td (Page two Secret) Tj ET")])
        try pdfeditOK("open", input, in: directory)
        try pdfeditOK("redact", "all", "--text", "secret", "--label", "names", in: directory)
        let list = try pdfeditOK("list", in: directory).stdout
        #expect(list.contains("redact 1 region"), "\(list)")
        // Every region with its page and the text it covers.
        let regions = try pdfeditOK("redact", "--list", "--json", in: directory).stdout
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(regions.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["position"] as? Int } == [1, 2])
        #expect(rows.compactMap { ($0["region"] as? [String: Any])?["text"] as? String } == ["Secret", "Secret"])
        #expect(rows.compactMap { ($0["region"] as? [String: Any])?["label"] as? String } == ["names", "names"])
        // Moved with its page: the redaction stays on that page's content.
        try pdfeditOK("move", "2", "--to", "1", in: directory)
        try pdfeditOK("export", "out.pdf", in: directory)
        let out = directory.appendingPathComponent("out.pdf").path
        #expect(try pageText(out, 1).contains("Page two") && !(try pageText(out, 1)).contains("Secret"))
        #expect(try pageText(out, 2).contains("Alpha") && !(try pageText(out, 2)).contains("Secret"))
        // A page with pending regions put on a sheet cannot be exported so: refused, not dropped.
        try pdfeditOK("nup", "all", "--grid", "2x1", in: directory)
        let sheet = try pdfedit("export", "sheet.pdf", in: directory)
        #expect(sheet.status == 65 && sheet.stderr.contains("pending redactions"), "\(sheet.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sheet.pdf").path))
        try pdfeditOK("undo", in: directory)
        // One undo step for the command: undone, the export keeps the text.
        try pdfeditOK("undo", "2", in: directory)
        try pdfeditOK("export", "again.pdf", in: directory)
        #expect(try pageText(directory.appendingPathComponent("again.pdf").path, 1).contains("Secret"))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func corpusBooksLoseOnlyTheRedactedWords() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (file, word) in [("pdfjs-tracemonkey.pdf", "trace"), ("pdfjs-freeculture.pdf", "Culture"), ("tbt-TeXbyTopic.pdf", "TeX")] {
            let input = Paths.corpus(file)
            let output = directory.appendingPathComponent(file).path
            try pdfeditOK("redact", "1..2", "--text", word, "--case", input, "-o", output)
            for page in 1...2 {
                #expect(!(try pageText(output, page)).contains(word), "\(file) page \(page)")
                // Every word without it stays where it was.
                let after = try RedactPDF.words(output, page: page)
                let kept = try RedactPDF.words(input, page: page).filter { !$0.text.contains(word) }
                let moved = kept.filter { word in !after.contains { $0.samePlace(as: word) } }
                #expect(moved.isEmpty, "\(file) page \(page): \(moved.prefix(10))")
            }
            #expect(try pageText(output, 3) == (try pageText(input, 3)))
            #expect(try qpdfCheck(output).status == 0)
        }
    }
}

extension RedactPDF {
    /// A binary PGM or PPM (P5, P6) file's size and samples (a PPM's red channel).
    static func readPNM(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The header is a PGM's (Pixels.pgm reads it); a PPM keeps its red samples.
        let (width, height, samples) = Pixels.pgm(data)
        let pixels = data.starts(with: Array("P6".utf8)) ? stride(from: 0, to: samples.count, by: 3).map { samples[$0] } : samples
        return (width, height, pixels)
    }
}
