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
}
