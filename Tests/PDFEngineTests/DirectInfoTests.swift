import Foundation
import PDFEngine
import Testing

/// A source whose trailer holds /Info as a direct dictionary (allowed, if rare):
/// its entries reach the output's /Info (rebuilt in the output, nothing made in
/// the source), checked with pdfinfo.
struct DirectInfoTests {
    /// Two text pages ("First", "Second"); the trailer's /Info is direct.
    static func directInfoPDF() -> Data {
        var pdf = TinyPDF(tokens: ["First", "Second"])
        pdf.trailerEntries = "/Info << /Author (Direct Author) /Subject (Direct Subject) /Keywords [(not) (a string)] >> "
        return pdf.data()
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
