import Foundation
import PDFEditKit
import Testing

/// `PageEditor.render` and `ExportSettings.rasterize` as a program uses them:
/// `import PDFEditKit` only; the files checked by an independent reading of the
/// PNG header, by libtiff's `tiffinfo` and by poppler's tools.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct RenderKitTests {
    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        try #require(bytes.count == 24 && bytes[12..<16] == [0x49, 0x48, 0x44, 0x52])
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func pagesDrawnIntoFilesAndAnImageOnlyPDF() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.rotate(.pages(2...2), by: 90)
        var settings = RenderSettings()
        settings.resolution = .dpi(36)
        let result = try editor.render(to: scratch.path("img/{id}.png"), pages: .pages(1...2), settings: settings)
        #expect(result.format == .png)
        #expect(result.images.map(\.position) == [1, 2])
        #expect(result.files == [scratch.path("img/p1.png"), scratch.path("img/p2.png")])
        #expect(try Self.pngSize(scratch.path("img/p1.png")) == (306, 396))
        #expect(try Self.pngSize(scratch.path("img/p2.png")) == (396, 306))
        // An existing file without `force`: refused, left as it was.
        do {
            try editor.render(to: scratch.path("img/{id}.png"), pages: .pages(1...1), settings: settings)
            Issue.record("replaced a file without force")
        } catch {
            #expect(error.exitCode == 73)
        }
        // One multi-page TIFF.
        settings.resolution = .width(100)
        settings.colors = .gray
        let tiff = try editor.render(to: scratch.path("all.tif"), settings: settings)
        // libtiff's own reader: seven grey directories, 100 pixels wide.
        let info = try KitTools.run("tiffinfo", [scratch.path("all.tif")]).stdout
        #expect(info.components(separatedBy: "TIFF Directory").count - 1 == 7, "\(info.prefix(400))")
        #expect(info.components(separatedBy: "Image Width: 100").count - 1 == 7, "\(info.prefix(400))")
        #expect(info.contains("Photometric Interpretation: min-is-black") || info.contains("min-is-white"), "\(info.prefix(400))")
        #expect(tiff.format == .tiff && tiff.files.count == 1 && tiff.images.map(\.page) == Array(1...7))
        // export --rasterize through the kit.
        var export = ExportSettings()
        export.rasterize = 50
        let written = try editor.write(to: URL(fileURLWithPath: scratch.path("flat.pdf")), settings: export)
        #expect(written.warnings.count == 1)
        #expect(try KitTools.qpdfCheck(scratch.path("flat.pdf")))
        #expect(try KitTools.pageCount(scratch.path("flat.pdf")) == 7)
        #expect(try KitTools.tokens(scratch.path("flat.pdf")) == Array(repeating: "?", count: 7), "no text is left")
    }
}
