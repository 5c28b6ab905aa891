import Foundation
import PDFEngine
import PageModel
import Testing

/// The cells of a sheet: the matrix the bridge draws each cell's page with
/// (read back from the exported content stream with qpdf) against the model's
/// `Imposition.cellMatrix`, which `show` draws with, for pages turned every
/// quarter turn, an odd /Rotate, an odd MediaBox origin, item turns and crops.
@Suite struct SheetPlacementTests {
    /// The `cm` operands of the first page's content, in order (qpdf --qdf
    /// writes the stream uncompressed).
    static func matrices(_ pdf: String, scratch: ExportScratch) throws -> [[Double]] {
        let qdf = scratch.path("qdf.pdf")
        _ = try ExportTools.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasSuffix(" cm") }.map { line in
            line.split(separator: " ").dropLast().compactMap { Double($0) }
        }
    }

    @Test func theBridgeDrawsEachCellWithTheModelsMatrix() throws {
        guard ExportPaths.hasFixture("rotated.pdf") else { return }
        let scratch = try ExportScratch()
        let rotated = ExportPaths.fixture("rotated.pdf")
        let sizes = ExportPaths.fixture("sizes.pdf")
        let odd = ExportPaths.fixture("odd-rotate.pdf")
        // (source, page, item turns, crop)
        let cells: [(Int, Int, Int, BoxRect?)] = [
            (0, 0, 0, nil), (0, 1, 1, nil), (0, 2, 2, BoxRect(x0: 20, y0: 30, x1: 400, y1: 500)), (0, 3, 3, nil),
            (1, 3, 0, BoxRect(x0: 150, y0: 260, x1: 600, y1: 1000)), (1, 3, 1, nil), (2, 0, 0, nil), (2, 1, 3, nil),
        ]
        let sheet = PageSize(width: 1400, height: 1000)
        let rects = try #require(Imposition.gridCells(size: sheet, columns: 4, rows: 2, gutter: 15, order: .rows))
        let files = [rotated, sizes, odd]
        let exported = zip(cells, rects).map { cell, rect in
            ExportCell(source: cell.0, index: cell.1, quarterTurns: cell.2, crop: cell.3, rect: rect)
        }
        let output = scratch.path("sheet.pdf")
        _ = try PDFExporter.write(
            sources: files.map { ExportSource(path: $0) },
            items: [.sheet(width: sheet.width, height: sheet.height, cells: exported)], options: ExportOptions(),
            to: output)
        let check = try ExportTools.check(output, password: nil)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let drawn = try Self.matrices(output, scratch: scratch)
        #expect(drawn.count == cells.count)
        for (index, (cell, rect)) in zip(cells, rects).enumerated() where index < drawn.count {
            let attributes = try OpenedPDF(path: files[cell.0]).attributes(ofPage: cell.1)
            let visible = BoxRect(
                x0: attributes.cropBox.x0, y0: attributes.cropBox.y0, x1: attributes.cropBox.x1,
                y1: attributes.cropBox.y1)
            let m = Imposition.cellMatrix(
                cell: rect, visible: cell.3 ?? visible, quarterTurns: attributes.rotation / 90 + cell.2)
            let expected = [m.a, m.b, m.c, m.d, m.e, m.f]
            for (mine, theirs) in zip(expected, drawn[index]) {
                // The content stream writes at most 6 decimals.
                #expect(abs(mine - theirs) < 1e-5 * max(1, abs(mine)), "cell \(index + 1): \(expected) vs \(drawn[index])")
            }
        }
    }
}
