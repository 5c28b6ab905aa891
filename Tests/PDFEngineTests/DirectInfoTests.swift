import Foundation
import PDFEngine
import Testing

/// A source whose trailer holds /Info as a direct dictionary (allowed, if rare):
/// its entries reach the output's /Info (rebuilt in the output, nothing made in
/// the source), checked with pdfinfo.
struct DirectInfoTests {
    /// Two text pages; the trailer's /Info is direct.
    static func directInfoPDF() -> Data {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 2 /MediaBox [0 0 612 792] >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Type /Page /Parent 2 0 R /Contents 6 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
            "<< /Type /Page /Parent 2 0 R /Contents 7 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
        ]
        let contents = ["BT /F1 24 Tf 72 700 Td (First) Tj ET", "BT /F1 24 Tf 72 700 Td (Second) Tj ET"]
        var body = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, text) in objects.enumerated() {
            offsets.append(body.utf8.count)
            body += "\(index + 1) 0 obj\n\(text)\nendobj\n"
        }
        for (index, text) in contents.enumerated() {
            offsets.append(body.utf8.count)
            body += "\(objects.count + index + 1) 0 obj\n<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream\nendobj\n"
        }
        let xref = body.utf8.count
        body += "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { body += String(format: "%010d 00000 n \n", offset) }
        body += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R "
        body += "/Info << /Author (Direct Author) /Subject (Direct Subject) /Keywords [(not) (a string)] >> >>\n"
        body += "startxref\n\(xref)\n%%EOF\n"
        return Data(body.utf8)
    }

    @Test func aDirectInfoDictionaryIsKept() throws {
        let scratch = try ExportScratch()
        let source = scratch.path("direct-info.pdf")
        try Self.directInfoPDF().write(to: URL(fileURLWithPath: source))
        #expect(try ExportTools.check(source).status == 0, "the hand-made source is sound")
        let output = scratch.path("out.pdf")
        // The second page only: the copying path, not an append to the source.
        _ = try FidelityTests.export([ExportSource(path: source)], [.page(source: 0, index: 1)], to: output)
        let info = try ExportTools.run("pdfinfo", [output]).stdout
        #expect(info.contains("Author:          Direct Author"), "\(info)")
        #expect(info.contains("Subject:         Direct Subject"), "\(info)")
        #expect(try ExportTools.pageCount(output) == 1)
        #expect(try ExportTools.text(output, page: 1).contains("Second"))
    }
}
