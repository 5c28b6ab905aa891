import Foundation
import Testing

/// `redact` on text in the standard fonts a file names without /Widths
/// (issue 45): measured on the metric-compatible fonts fontconfig substitutes,
/// as poppler draws them. pdftotext's word boxes, from poppler's own tables
/// of those fonts, are the independent check that every glyph left stayed.
@Suite(.serialized) struct RedactStandardFontTests {
    /// `word` redacted by --text from `input` (page `page`): gone from the
    /// text, every other word of the page where it was.
    @discardableResult
    func redactsText(_ word: String, in input: String, page: Int = 1, directory: URL) throws -> String {
        let output = directory.appendingPathComponent("redacted.pdf").path
        let before = try RedactPDF.words(input, page: page)
        #expect(before.contains { $0.text.contains(word) }, "pdftotext finds \(word) in \(before)")
        try pdfeditOK("redact", "\(page)", "--text", word, "--case", input, "-o", output)
        #expect(!(try pageText(output, page)).contains(word))
        let after = try RedactPDF.words(output, page: page)
        for other in before where !other.text.contains(word) {
            #expect(after.contains { $0.samePlace(as: other) }, "\(other) moved or went: \(after)")
        }
        #expect(try qpdfCheck(output).status == 0)
        return output
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func pdfeditsOwnStampIsRedactedByText() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let numbered = directory.appendingPathComponent("numbered.pdf").path
        try pdfeditOK(
            "number", "1", "--format", "Exhibit {n} Sealed Copy", Paths.corpus("pdfjs-tracemonkey.pdf"), "-o", numbered)
        // The stamp's font: Helvetica, WinAnsiEncoding, no /Widths.
        #expect(try RedactPDF.decodedFile(numbered).contains("/BaseFont /Helvetica"))
        try redactsText("Sealed", in: numbered, directory: directory)
    }

    @Test func eachStandardEncodingIsMeasured() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        // No /Widths anywhere: Times under WinAnsiEncoding (its quotes and
        // dashes above 127), Helvetica-Bold under its own StandardEncoding,
        // Times-Italic under MacRomanEncoding with /Differences, Symbol under its
        // built-in encoding.
        let fonts: [Int: RedactPDF.Object] = [
            11: .dictionary("<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>"),
            12: .dictionary("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>"),
            13: .dictionary(
                "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Italic /Encoding << /Type /Encoding "
                    + "/BaseEncoding /MacRomanEncoding /Differences [65 /W /M] >> >>"),
            14: .dictionary("<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>"),
        ]
        try RedactPDF.write(
            input,
            pages: [
                .init(
                    content: """
                        BT /F1 12 Tf 20 170 Td (\\223Quoted\\224 \\227 Wide Secret words follow) Tj ET
                        BT /F2 11 Tf 20 140 Td (Bold AVAW Secret tail `quoted' end) Tj ET
                        BT /F3 12 Tf 20 110 Td (ABBA \\216t\\216 Secret Wombat) Tj ET
                        BT /F4 12 Tf 20 80 Td (abg) Tj /F1 12 Tf ( Secret after) Tj ET
                        """,
                    resources: "/Font << /F1 11 0 R /F2 12 0 R /F3 13 0 R /F4 14 0 R >>")
            ],
            objects: fonts)
        let output = try redactsText("Secret", in: input, directory: directory)
        let text = try pageText(output, 1)
        for kept in ["Wide", "AVAW", "Wombat", "after", "words follow"] {
            #expect(text.contains(kept), "\(kept) went: \(text)")
        }
    }

    /// Only the standard names count, exactly: Helvetica-Narrow and Arial Black
    /// start like Helvetica and Arial but are narrower or wider, and measured as
    /// Helvetica the glyphs removed would not be those drawn (a digit of the
    /// secret left, a letter outside the region lost). A font that embeds its
    /// program is drawn with its own advances and is refused too.
    @Test(arguments: [
        "/BaseFont /Garamond-Light", "/BaseFont /Helvetica-Narrow", "/BaseFont /Arial-Black",
        "/BaseFont /Helvetica-Condensed", "/BaseFont /Helvetica /FontDescriptor 12 0 R",
    ])
    func aNonStandardFontWithoutWidthsIsStillRefused(font: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        let output = directory.appendingPathComponent("out.pdf").path
        try RedactPDF.write(
            input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Card no 4711 Omega) Tj ET", resources: "/Font << /F1 11 0 R >>")],
            objects: [
                11: .dictionary("<< /Type /Font /Subtype /Type1 \(font) >>"),
                12: .dictionary("<< /Type /FontDescriptor /FontName /Helvetica /Flags 32 /FontFile 13 0 R >>"),
                13: .stream("", Array("xxxx".utf8)),
            ])
        let result = try pdfedit("redact", "1", "--text", "4711", input, "-o", output)
        let name = font.split(separator: " ")[1].dropFirst()
        #expect(result.status == 65 && result.stderr.contains(name), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
