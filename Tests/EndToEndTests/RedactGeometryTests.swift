import Foundation
import Testing

/// A page's pending regions follow its content when `resize` puts it on new
/// paper (scaled and moved), in the same undo step; rotate and crop leave
/// the page's user space, and so the regions, where they were.
@Suite(.serialized) struct RedactGeometryTests {
    @Test func regionsFollowAResize() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(path("in.pdf"), pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")])
        let secret = try #require(try RedactPDF.words(path("in.pdf")).first { $0.text == "Secret" })
        try pdfeditOK("open", path("in.pdf"), in: directory)
        try pdfeditOK("redact", "1", "--rect", RedactPDF.rect(around: secret), in: directory)
        // Twice the size: the content is scaled by 2 (300 × 200 onto 600 × 400).
        try pdfeditOK("resize", "1", "--to", "600x400", in: directory)
        try pdfeditOK("export", "out.pdf", in: directory)
        let text = try pageText(path("out.pdf"), 1)
        #expect(text.contains("Alpha") && text.contains("Omega") && !text.contains("Secret"), "\(text)")
        let grey = try RedactPDF.grey(path("out.pdf"))
        #expect(grey.width == 600 && grey.height == 400)
        // The word's middle, scaled: black.
        let x = Int((secret.x0 + secret.x1)), y = Int((secret.y0 + secret.y1))
        #expect(grey.pixels[y * 600 + x] < 8, "pixel \(x),\(y)")
        // Undone with the resize: back on the page as it was.
        try pdfeditOK("undo", in: directory)
        try pdfeditOK("export", "undone.pdf", in: directory)
        let undone = try RedactPDF.words(path("undone.pdf"))
        #expect(undone.map(\.text) == ["Alpha", "Omega"], "\(undone)")
    }
}
