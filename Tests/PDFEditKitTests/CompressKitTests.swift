import Foundation
import PDFEditKit
import Testing

/// Issue 43's smaller files through the library's API: `ExportSettings.compress`
/// and `.linearize` on PageEditor's writes, and `PageEditor.optimize` with its
/// report. Outputs are read back by qpdf and poppler.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf") && KitFixtures.has("beta.pdf"), "needs Fixtures/alpha.pdf, beta.pdf"))
struct CompressKitTests {
    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    /// A merge of the same file from two paths: the second copy's fonts and
    /// content are shared, so the compressed merge is smaller than the plain one.
    @Test func pageEditorWritesCompressedAndLinearized() throws {
        let scratch = try KitScratch()
        let copy = scratch.path("alpha-again.pdf")
        try FileManager.default.copyItem(atPath: KitFixtures.path("alpha.pdf"), toPath: copy)
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.insert(URL(fileURLWithPath: copy))
        let plain = scratch.path("plain.pdf")
        try editor.write(to: URL(fileURLWithPath: plain))
        var settings = ExportSettings()
        settings.compress = true
        settings.linearize = true
        let small = scratch.path("small.pdf")
        try editor.write(to: URL(fileURLWithPath: small), settings: settings)
        #expect(try KitTools.qpdfCheck(small))
        #expect(try KitTools.tokens(small) == KitTools.tokens(plain))
        #expect(try KitTools.pageCount(small) == 14)
        #expect(try Self.size(small) < Self.size(plain))
        #expect(try KitTools.run("qpdf", ["--check-linearization", small]).status == 0)
    }

    @Test func optimizeReportsWhatItSaved() throws {
        let scratch = try KitScratch()
        let input = KitFixtures.path("beta.pdf")
        let output = scratch.path("small.pdf")
        let report = try PageEditor.optimize(URL(fileURLWithPath: input), to: URL(fileURLWithPath: output))
        #expect(try KitTools.qpdfCheck(output))
        #expect(try KitTools.tokens(output) == KitTools.tokens(input))
        #expect(report.bytesBefore == (try Self.size(input)))
        #expect(report.bytesAfter == (try Self.size(output)))
        #expect(report.saved == report.bytesBefore - report.bytesAfter)
        #expect(report.objectStreams == report.saved - report.sharedDuplicates.bytes - report.recompression.bytes)
        #expect(report.pageCount == (try KitTools.pageCount(input)) && !report.linearized)
    }
}
