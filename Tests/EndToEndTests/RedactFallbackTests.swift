import Foundation
import Testing

/// `--rasterize-redacted DPI` (issue 45): a page the redaction refuses is
/// written as a picture of itself with its regions filled, the others as
/// always; the proof still runs on its pixels.
@Suite(.serialized) struct RedactFallbackTests {
    /// Page 1 paints a shading under the region (refused); page 2 is plain text.
    func writeShadedPages(_ path: String) throws {
        let shading: [Int: RedactPDF.Object] = [
            11: .dictionary(
                "<< /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 300 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >> >>")
        ]
        try RedactPDF.write(
            path,
            pages: [
                .init(
                    content: "q 40 90 100 20 re W n /Sh1 sh Q BT /F1 12 Tf 20 95 Td (Alpha Secret) Tj ET",
                    resources: "/Font << /F1 10 0 R >> /Shading << /Sh1 11 0 R >>"),
                .init(content: "BT /F1 12 Tf 20 100 Td (Second page Secret stays) Tj ET"),
            ],
            objects: shading)
    }

    @Test func aRefusedPageBecomesAPictureWithItsRegionsFilled() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try writeShadedPages(input)
        // Without the option: refused, nothing written.
        let refused = try pdfedit("redact", "1", "--rect", "50,95,40,10", input, "-o", output)
        #expect(refused.status == 65 && refused.stderr.contains("shading"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // With it: page 1 is a picture, its text gone, the region black.
        let result = try pdfeditOK("redact", "1", "--rect", "50,95,40,10", "--rasterize-redacted", "100", input, "-o", output)
        #expect(
            result.stderr.contains("warning") && result.stderr.contains("page 1") && result.stderr.contains("picture")
                && result.stderr.contains("text"), "\(result.stderr)")
        #expect(try pageText(output, 1).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try pageText(output, 2).contains("Second page Secret stays"))
        #expect(try qpdfCheck(output).status == 0)
        #expect(try run("pdfimages", ["-list", "-f", "1", "-l", "1", output]).stdout.contains("image"))
        let grey = try RedactPDF.grey(output)
        #expect(grey.width == 300 && grey.height == 200)
        for (x, y) in [(52, 97), (70, 100), (88, 103)] {
            #expect(grey.pixels[(200 - y) * grey.width + x] < 8, "pixel \(x),\(y) inside the region")
        }
        // Outside the region the page looks as it did (the shading, the text as pixels).
        let before = try RedactPDF.grey(input)
        var differing = 0
        for y in 0..<200 {
            for x in 0..<300 where x < 47 || x > 93 || 200 - y < 92 || 200 - y > 108 {
                if abs(Int(grey.pixels[y * 300 + x]) - Int(before.pixels[y * 300 + x])) > 48 { differing += 1 }
            }
        }
        #expect(differing < 1000, "\(differing) pixels outside the region changed")
        #expect(before.pixels[(200 - 100) * 300 + 70] > 8)  // the region was not black before
    }

    /// The picture keeps the item's other finishing steps: annotations a
    /// session stripped stay out of it (they came back when it was drawn
    /// without them).
    @Test func thePictureKeepsStrippedAnnotationsOut() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(
            input,
            pages: [
                .init(
                    content: "q 40 90 100 20 re W n /Sh1 sh Q BT /F1 12 Tf 20 95 Td (Alpha Secret) Tj ET",
                    resources: "/Font << /F1 10 0 R >> /Shading << /Sh1 11 0 R >>", extra: "/Annots [12 0 R]")
            ],
            objects: Self.blackSquare.merging([
                11: .dictionary(
                    "<< /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 300 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >> >>")
            ]) { kept, _ in kept })
        try pdfeditOK("open", input, in: directory)
        try pdfeditOK("redact", "1", "--rect", "50,95,40,10", in: directory)
        try pdfeditOK("export", "with.pdf", "--rasterize-redacted", "72", in: directory)
        try pdfeditOK("strip", "annotations", "1", in: directory)
        try pdfeditOK("export", "without.pdf", "--rasterize-redacted", "72", in: directory)
        let with = try RedactPDF.grey(directory.appendingPathComponent("with.pdf").path)
        let without = try RedactPDF.grey(directory.appendingPathComponent("without.pdf").path)
        // The square's middle, x 230, y 40 from the bottom of a 300 × 200 page.
        #expect(with.pixels[(200 - 40) * 300 + 230] < 50)
        #expect(without.pixels[(200 - 40) * 300 + 230] > 200)
        #expect(without.pixels[(200 - 100) * 300 + 70] < 8)  // the region is filled
    }

    /// `render` and `export --rasterize` draw an item as the fallback does:
    /// without the annotations a `strip` step removes from it.
    @Test func picturesLeaveStrippedAnnotationsOut() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(
            input,
            pages: [
                .init(content: "BT /F1 12 Tf 20 95 Td (Alpha) Tj ET", extra: "/Annots [12 0 R]"),
                .init(content: "BT /F1 12 Tf 20 95 Td (Beta) Tj ET", extra: "/Annots [12 0 R]"),
            ],
            objects: Self.blackSquare)
        try pdfeditOK("open", input, in: directory)
        try pdfeditOK("strip", "annotations", "1", in: directory)
        try pdfeditOK("render", "all", "-o", "p-{n}.png", "--dpi", "72", in: directory)
        try pdfeditOK("export", "r.pdf", "--rasterize", "72", in: directory)
        // The square's middle, x 230, y 40 from the bottom of a 300 × 200 page:
        // gone from page 1, drawn on page 2.
        let square = [(x: 230, y: 200 - 40)]
        let rendered = try (1...2).map { try Pixels.png(directory.appendingPathComponent("p-\($0).png").path, at: square)[0] }
        #expect(rendered[0] == (red: 255, green: 255, blue: 255) && rendered[1] == (red: 0, green: 0, blue: 0), "\(rendered)")
        let raster = directory.appendingPathComponent("r.pdf").path
        #expect(try RedactPDF.grey(raster, page: 1).pixels[(200 - 40) * 300 + 230] > 200)
        #expect(try RedactPDF.grey(raster, page: 2).pixels[(200 - 40) * 300 + 230] < 50)
    }

    @Test func exportInASessionTakesTheFallbackToo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try writeShadedPages(input)
        try pdfeditOK("open", input, in: directory)
        try pdfeditOK("redact", "all", "--text", "Secret", in: directory)
        let usage = try pdfedit("redact", "1", "--rect", "1,1,5,5", "--rasterize-redacted", "100", in: directory)
        #expect(usage.status == 64, "\(usage.stderr)")
        let plain = try pdfedit("export", "plain.pdf", in: directory)
        #expect(plain.status == 65 && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("plain.pdf").path))
        let result = try pdfeditOK("export", "out.pdf", "--rasterize-redacted", "72", in: directory)
        #expect(result.stderr.contains("page 1"), "\(result.stderr)")
        let out = directory.appendingPathComponent("out.pdf").path
        #expect(try pageText(out, 1).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        let second = try pageText(out, 2)
        #expect(second.contains("Second page") && !second.contains("Secret"), "\(second)")
        #expect(try qpdfCheck(out).status == 0)
    }

    @Test func exportRasterizeFillsPendingRegions() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET", extra: "/Rotate 90")])
        try pdfeditOK("open", input, in: directory)
        try pdfeditOK("redact", "1", "--rect", "90,60,40,80", in: directory)
        try pdfeditOK("export", "r.pdf", "--rasterize", "72", in: directory)
        // Shown 200 wide, 300 tall: the region is x 90…130, y 60…140 from the bottom.
        let grey = try RedactPDF.grey(directory.appendingPathComponent("r.pdf").path)
        #expect(grey.width == 200 && grey.height == 300)
        for (x, y) in [(92, 62), (110, 100), (128, 138)] {
            #expect(grey.pixels[(300 - y) * 200 + x] < 8, "pixel \(x),\(y) is not the fill")
        }
        #expect(grey.pixels[(300 - 200) * 200 + 30] == 255)
    }

    /// In `apply` a redact line's --rasterize-redacted (and --scrub) say how
    /// each output is written, as in direct mode; a wrong value is refused
    /// before any file is read.
    @Test func applyTakesTheFallback() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeShadedPages(directory.appendingPathComponent("a.pdf").path)
        let zero = try pdfedit(
            "apply", "-e", "redact 1 --rect 50,95,40,10 --rasterize-redacted 0", "a.pdf", "-o", "out/{name}", in: directory)
        #expect(zero.status == 64 && zero.stderr.contains("--rasterize-redacted takes 1 to 2400"), "\(zero.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
        let refused = try pdfedit("apply", "-e", "redact 1 --rect 50,95,40,10", "a.pdf", "-o", "plain/{name}", in: directory)
        #expect(refused.status == 65, "\(refused.stderr)")
        let result = try pdfeditOK(
            "apply", "-e", "redact 1 --rect 50,95,40,10 --rasterize-redacted 72", "a.pdf", "-o", "out/{name}", in: directory)
        #expect(result.stderr.contains("page 1") && result.stderr.contains("picture"), "\(result.stderr)")
        let out = directory.appendingPathComponent("out/a.pdf").path
        #expect(try pageText(out, 1).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try pageText(out, 2).contains("Second page Secret stays"))
        #expect(try RedactPDF.grey(out).pixels[(200 - 100) * 300 + 70] < 8)
        // A run script (a session) still refuses it: there export takes it.
        try Data("redact 1 --rect 1,1,5,5 --rasterize-redacted 72\n".utf8).write(
            to: directory.appendingPathComponent("s.txt"))
        try pdfeditOK("open", "a.pdf", in: directory)
        #expect(try pdfedit("run", "s.txt", in: directory).status == 64)
    }

    /// The fallback's resolution is checked before anything is read, whether
    /// or not a page needs it, and `--split` with it is refused: nothing written.
    @Test func theFallbacksValueIsCheckedFirst() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")])
        try pdfeditOK("open", input, in: directory)
        let zero = try pdfedit("export", "out.pdf", "--rasterize-redacted", "0", in: directory)
        #expect(zero.status == 64 && zero.stderr.contains("--rasterize-redacted takes 1 to 2400"), "\(zero.stderr)")
        let split = try pdfedit("export", "--split", "parts", "--rasterize-redacted", "72", in: directory)
        #expect(split.status == 64 && split.stderr.contains("one file, not parts"), "\(split.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.pdf").path))
        let parts = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("parts").path)) ?? []
        #expect(parts.isEmpty)
    }

    /// `render` of an item with pending redactions: its picture never shows
    /// what the redaction will remove (the regions are filled, as
    /// `export --rasterize` fills them).
    @Test func renderFillsPendingRegions() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")])
        try pdfeditOK("open", input, in: directory)
        try pdfeditOK("render", "1", "-o", "before.png", "--dpi", "72", in: directory)
        try pdfeditOK("redact", "1", "--rect", "50,90,60,30", "--fill", "#ff0000", in: directory)
        try pdfeditOK("render", "1", "-o", "after.png", "--dpi", "72", in: directory)
        // 300 × 200 at 72 dpi: the region is x 50…110, y 90…120 from the bottom.
        let points = [(x: 55, y: 200 - 95), (x: 80, y: 200 - 105), (x: 105, y: 200 - 115)]
        let before = try Pixels.png(directory.appendingPathComponent("before.png").path, at: points)
        let after = try Pixels.png(directory.appendingPathComponent("after.png").path, at: points)
        #expect(before.contains { $0 != (red: 255, green: 0, blue: 0) })
        for pixel in after { #expect(pixel == (red: 255, green: 0, blue: 0), "\(after)") }
        let outside = try Pixels.png(directory.appendingPathComponent("after.png").path, at: [(x: 250, y: 20)])
        #expect(outside.first.map { $0 == (red: 255, green: 255, blue: 255) } == true)
    }

    /// A Square annotation (object 12) whose appearance (13) fills x 200…260,
    /// y 20…60 black: what a picture of the page draws unless it was stripped.
    static let blackSquare: [Int: RedactPDF.Object] = [
        12: .dictionary("<< /Type /Annot /Subtype /Square /Rect [200 20 260 60] /F 4 /AP << /N 13 0 R >> >>"),
        13: .stream("/Type /XObject /Subtype /Form /BBox [0 0 60 40]", Array("0 g 0 0 60 40 re f".utf8)),
    ]
}

/// What a redaction by text leaves outside the pages (issue 45): link
/// addresses, annotation texts, attachments and page label prefixes holding
/// the text are named in warnings, and `--scrub` removes them.
@Suite(.serialized) struct RedactScrubTests {
    @Test func leftoversAreReportedAndScrubbed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let objects: [Int: RedactPDF.Object] = [
            11: .dictionary("<< /Type /Annot /Subtype /Link /Rect [200 20 260 40] /A << /S /URI /URI (http://example.com/secret-page) >> >>"),
            12: .dictionary("<< /Type /Annot /Subtype /Text /Rect [250 150 270 170] /Contents (The SECRET memo) >>"),
        ]
        try RedactPDF.write(
            path("in.pdf"),
            pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET", extra: "/Annots [11 0 R 12 0 R]")],
            objects: objects)
        try Data("plain words\n".utf8).write(to: URL(fileURLWithPath: path("secret-plan.txt")))
        try Data("more words\n".utf8).write(to: URL(fileURLWithPath: path("other-secret.txt")))
        try pdfeditOK("labels", "1:D/1/Secret-", path("in.pdf"), "-o", path("a.pdf"))
        try pdfeditOK("attach", "add", "secret-plan.txt", path("a.pdf"), "-o", path("b.pdf"), in: directory)
        try pdfeditOK("attach", "add", "other-secret.txt", "--page", "1", path("b.pdf"), "-o", path("c.pdf"), in: directory)
        #expect(try run("pdfdetach", ["-list", path("c.pdf")]).stdout.contains("secret-plan.txt"))

        // Reported: each copy named, the file keeps them.
        let warned = try pdfeditOK("redact", "1", "--text", "secret", path("c.pdf"), "-o", path("warned.pdf"))
        for piece in [
            "a link's address on page 1", "the Text annotation on page 1 (its text)", "the attached file \"other-secret.txt\" on page 1",
            "the page label prefix \"Secret-\"", "the attachment \"secret-plan.txt\"",
        ] {
            #expect(warned.stderr.contains(piece) && warned.stderr.contains("warning"), "\(piece): \(warned.stderr)")
        }
        #expect(warned.stderr.contains("--scrub"))
        #expect(try RedactPDF.decodedFile(path("warned.pdf")).contains("secret-page"))

        // Scrubbed: each removed and said so; no copy of the text is left in the file.
        let scrubbed = try pdfeditOK("redact", "1", "--text", "secret", "--scrub", path("c.pdf"), "-o", path("out.pdf"))
        #expect(scrubbed.stderr.components(separatedBy: "removed ").count - 1 == 5, "\(scrubbed.stderr)")
        let decoded = try RedactPDF.decodedFile(path("out.pdf"))
        #expect(!decoded.lowercased().contains("secret"), "a copy is left")
        // The link keeps its rectangle; the note, which shows its text, goes whole.
        #expect(decoded.contains("/Subtype /Link") && !decoded.contains("/Subtype /Text"))
        #expect(!(try run("pdfdetach", ["-list", path("out.pdf")]).stdout.contains("secret")))
        let labels = try run("qpdf", ["--json", "--json-key=pagelabels", path("out.pdf")]).stdout
        #expect(labels.contains("\"/S\": \"/D\"") && !labels.contains("/P"), "\(labels)")
        #expect(try pageText(path("out.pdf"), 1).contains("Alpha"))
        #expect(try qpdfCheck(path("out.pdf")).status == 0)

        // In a session the option is export's.
        try pdfeditOK("open", path("c.pdf"), in: directory)
        try pdfeditOK("redact", "1", "--text", "secret", in: directory)
        #expect(try pdfedit("redact", "1", "--text", "x", "--scrub", in: directory).status == 64)
        let exported = try pdfeditOK("export", "session.pdf", "--scrub", in: directory)
        #expect(exported.stderr.contains("removed the attachment"), "\(exported.stderr)")
        #expect(!(try RedactPDF.decodedFile(path("session.pdf"))).lowercased().contains("secret"))
    }
}
