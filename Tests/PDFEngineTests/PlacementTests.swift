import Foundation
import PDFEngine
import PageModel
import PropertyBased
import QPDFCore
import Testing

/// Resized exports: the model places (`PageResize.placement(for:)`, from the
/// page's geometry as the bridge reads it), the bridge writes; the outputs
/// checked with pdfinfo, pdftotext, qpdf --json and pdftoppm.
@Suite struct PlacementTests {
    /// `resize` of page `page` (0-based) of `path` as export hands it to the bridge.
    static func resized(_ resize: PageResize, _ path: String, page: Int) throws -> ExportResize {
        let attributes = try OpenedPDF(path: path, for: .reading).attributes(ofPage: page)
        let frame = PageFrame(
            mediaBox: attributes.mediaBox, visibleBox: attributes.cropBox, quarterTurns: attributes.rotation / 90)
        return ExportResize(size: resize.size, placement: resize.placement(for: frame))
    }
}

/// A page with a known, lopsided picture at an odd origin: MediaBox
/// [100 50 700 850], red over the top-left quarter (x 100…400, y 450…850), blue
/// bottom-right (x 400…700, y 50…250), the token `ODD-ORIGIN` at (150, 300), a
/// link over it (page 2's link aims at page 1 /XYZ 120 800), optional /Rotate
/// and /CropBox.
struct OddOriginPDF {
    var rotate = 0
    var cropBox: BoxRect?

    func data() -> Data {
        let content = "1 0 0 rg 100 450 300 400 re f 0 0 1 rg 400 50 300 200 re f "
            + "0 g BT /F1 24 Tf 150 300 Td (ODD-ORIGIN) Tj ET"
        let crop = cropBox.map { " /CropBox [\($0.x0) \($0.y0) \($0.x1) \($0.y1)]" } ?? ""
        func page(_ annots: String) -> String {
            "<< /Type /Page /Parent 2 0 R /MediaBox [100 50 700 850]\(crop) /Rotate \(rotate) "
                + "/Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R /Annots [\(annots)] >>"
        }
        let objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Count 2 /Kids [3 0 R 4 0 R] >>",
            3: page("7 0 R"),
            4: page("8 0 R"),
            5: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            6: "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            7: "<< /Type /Annot /Subtype /Link /Rect [150 290 350 320] /Border [0 0 0] "
                + "/A << /S /URI /URI (https://example.org/) >> >>",
            8: "<< /Type /Annot /Subtype /Link /Rect [150 290 350 320] /Border [0 0 0] "
                + "/Dest [3 0 R /XYZ 120 800 null] >>",
        ]
        return pdfFileData(objects: objects)
    }
}

extension ExportScratch {
    func write(_ pdf: OddOriginPDF, as name: String) throws -> String {
        let path = self.path(name)
        try pdf.data().write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Compares a resized page's raster with its source's, drawn as the placement
/// rule says (an independent statement of it: scale to fit or fill, centred),
/// block by block (3 × 3 pixel means) so that anti-aliasing does not count.
enum PlacedPixels {
    /// The share of blocks whose mean colour differs by more than 40 in a channel.
    /// `region`: the part of `source` (pixels x, y, width, height) that was placed.
    static func mismatch(
        _ output: Raster, _ source: Raster, region: (x: Double, y: Double, w: Double, h: Double)? = nil, fill: Bool
    ) -> Double {
        let r = region ?? (0, 0, Double(source.width), Double(source.height))
        let W = Double(output.width)
        let H = Double(output.height)
        let s = fill ? max(W / r.w, H / r.h) : min(W / r.w, H / r.h)
        let ox = (W - s * r.w) / 2
        let oy = (H - s * r.h) / 2
        func expected(_ x: Int, _ y: Int) -> Raster.RGB {
            let sx = r.x + (Double(x) + 0.5 - ox) / s
            let sy = r.y + (Double(y) + 0.5 - oy) / s
            guard sx >= r.x, sy >= r.y, sx < r.x + r.w, sy < r.y + r.h else { return (255, 255, 255) }
            return source.pixel(Int(sx), Int(sy))
        }
        var bad = 0
        var blocks = 0
        for by in stride(from: 0, to: output.height - 2, by: 3) {
            for bx in stride(from: 0, to: output.width - 2, by: 3) {
                var sum = [0, 0, 0, 0, 0, 0]
                for y in by..<by + 3 {
                    for x in bx..<bx + 3 {
                        let o = output.pixel(x, y)
                        let e = expected(x, y)
                        sum[0] += o.red
                        sum[1] += o.green
                        sum[2] += o.blue
                        sum[3] += e.red
                        sum[4] += e.green
                        sum[5] += e.blue
                    }
                }
                blocks += 1
                if (0..<3).contains(where: { abs(sum[$0] - sum[$0 + 3]) > 40 * 9 }) { bad += 1 }
            }
        }
        return Double(bad) / Double(max(blocks, 1))
    }
}

extension PlacementTests {
    static let a4 = PageSize.a4

    /// Exports, checks with `qpdf --check`, returns the path.
    func export(_ sources: [ExportSource], _ items: [ExportItem], to output: String) throws -> String {
        _ = try PDFExporter.write(sources: sources, items: items, to: output)
        let check = try ExportTools.check(output)
        #expect(check.status == 0, "qpdf --check \(output): \(check.stdout) \(check.stderr)")
        return output
    }

    @Test(.enabled(if: ExportPaths.hasFixture("rotated.pdf"), "needs the fixtures"))
    func resizedPagesShowTheirSourceScaledUprightOnEveryQuarterTurn() throws {
        let scratch = try ExportScratch()
        let path = ExportPaths.fixture("rotated.pdf")
        for fill in [false, true] {
            for turns in 0..<4 {
                // Pages turned 0, 90, 90, 270 by their own /Rotate, plus the item's turns.
                let items: [ExportItem] = try (0..<4).map {
                    .page(
                        source: 0, index: $0,
                        resize: try Self.resized(
                            PageResize(size: Self.a4, mode: fill ? .fill : .fit, quarterTurns: turns), path, page: $0))
                }
                let output = try export([ExportSource(path: path)], items, to: scratch.path("out-\(turns)-\(fill).pdf"))
                let facts = try ExportTools.pages(output)
                #expect(facts.map(\.rotation) == [0, 0, 0, 0])
                for page in 1...4 {
                    #expect(abs(facts[page - 1].width - 595.28) < 0.01 && abs(facts[page - 1].height - 841.89) < 0.01)
                    if !fill {  // filling may cut the token off at the edge
                        #expect(try ExportTools.text(output, page: page).contains("ROT-P\(page)"))
                    }
                    // The source as a reader sees it, turned once more by the item's turns.
                    let turnedSource = try turnedCopy(path, page: page, turns: turns, in: scratch)
                    let share = PlacedPixels.mismatch(
                        try Raster(output, page: page), try Raster(turnedSource, page: 1), fill: fill)
                    #expect(share < 0.03, "page \(page), turns \(turns), fill \(fill): \(share)")
                }
            }
        }
    }

    /// Page `page` of `path` alone, turned `turns` more (an ordinary export: the
    /// reference picture of what the item showed).
    func turnedCopy(_ path: String, page: Int, turns: Int, in scratch: ExportScratch) throws -> String {
        let output = scratch.path("turned-\(page)-\(turns).pdf")
        _ = try PDFExporter.write(
            sources: [ExportSource(path: path)], items: [.page(source: 0, index: page - 1, quarterTurns: turns)],
            to: output)
        return output
    }

    @Test func anOddOriginACropAndARotationAreFrozenIntoTheResize() throws {
        let scratch = try ExportScratch()
        for rotate in [0, 90, 180, 270] {
            let path = try scratch.write(OddOriginPDF(rotate: rotate), as: "odd-\(rotate).pdf")
            let crop = BoxRect(x0: 120, y0: 200, x1: 500, y1: 800)
            let output = try export(
                [ExportSource(path: path)],
                [
                    .page(
                        source: 0, index: 0,
                        resize: try Self.resized(
                            PageResize(size: .letter, mode: .fit, quarterTurns: 1, crop: crop), path, page: 0))
                ],
                to: scratch.path("out-\(rotate).pdf"))
            // Reference: the crop set as a box, turned, rendered with -cropbox.
            let reference = scratch.path("ref-\(rotate).pdf")
            _ = try PDFExporter.write(
                sources: [ExportSource(path: path)],
                items: [.page(source: 0, index: 0, quarterTurns: 1, boxes: PageBoxes(crop: crop))], to: reference)
            let share = PlacedPixels.mismatch(
                try Raster(output, page: 1), try Raster(reference, page: 1, cropBox: true), fill: false)
            #expect(share < 0.03, "rotate \(rotate): \(share)")
            #expect(try ExportTools.text(output, page: 1) == "ODD-ORIGIN")
        }
    }

    @Test func linksMoveWithTheContentAndDestinationsIntoAResizedPageToo() throws {
        let scratch = try ExportScratch()
        let path = try scratch.write(OddOriginPDF(), as: "odd.pdf")
        let resize = PageResize(size: PageSize(width: 300, height: 400), mode: .fit)
        let output = try export(
            [ExportSource(path: path)],
            [
                .page(source: 0, index: 0, resize: try Self.resized(resize, path, page: 0)),
                .page(source: 0, index: 1, resize: try Self.resized(resize, path, page: 1)),
            ],
            to: scratch.path("out.pdf"))
        // 600 x 800 into 300 x 400: scale 0.5, origin (100, 50) to (0, 0).
        let json = try QPDFJSON(output)
        for page in json.pages {
            let annots = json.annotations(ofPage: page)
            #expect(annots.count == 1)
            let rect = (json.dictionary(annots.first)?["/Rect"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
            #expect(rect == [25, 120, 125, 135], "\(String(describing: rect))")
        }
        let link = try #require(json.annotations(ofPage: json.pages[1]).first)
        let dest = try #require(json.resolve(json.dictionary(link)?["/Dest"]) as? [Any])
        #expect(dest.first as? String == json.pages[0])
        #expect(dest.dropFirst().map { "\($0)" } == ["/XYZ", "10", "375", "<null>"], "\(dest)")
    }

    /// The bridge carries boxes and resizes by pointer, one array shared by a
    /// run of items with the same ones (BridgeArguments): every item must still
    /// get its own, whatever its neighbours have.
    @Test func everyItemKeepsItsOwnBoxesAndResizeWhateverItsNeighboursHave() throws {
        let scratch = try ExportScratch()
        let path = try scratch.write(OddOriginPDF(), as: "odd.pdf")
        let a = BoxRect(x0: 150, y0: 100, x1: 650, y1: 800)
        let b = BoxRect(x0: 200, y0: 200, x1: 500, y1: 700)
        let trim = BoxRect(x0: 10, y0: 10, x1: 290, y1: 390)
        let fit = try Self.resized(PageResize(size: .a4, mode: .fit), path, page: 1)
        let fill = try Self.resized(PageResize(size: .letter, mode: .fill), path, page: 0)
        let items: [ExportItem] = [
            .page(source: 0, index: 0, boxes: PageBoxes(crop: a)),
            .page(source: 0, index: 1, boxes: PageBoxes(crop: a)),
            .page(source: 0, index: 0),
            .page(source: 0, index: 1, boxes: PageBoxes(crop: b)),
            .page(source: 0, index: 0, boxes: PageBoxes(crop: a)),
            .page(source: 0, index: 1, resize: fit),
            .page(source: 0, index: 0, resize: fill),
            .page(source: 0, index: 1, resize: fit),
            .blank(width: 300, height: 400, boxes: PageBoxes(trim: trim)),
            .page(source: 0, index: 0),
        ]
        let output = try export([ExportSource(path: path)], items, to: scratch.path("out.pdf"))
        let json = try QPDFJSON(output)
        func box(_ page: Int, _ key: String) -> [Double]? {
            (json.dictionary(json.pages[page])?[key] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
        }
        let corners = { (r: BoxRect) in [r.x0, r.y0, r.x1, r.y1] }
        #expect(json.pages.count == items.count)
        #expect(box(0, "/CropBox") == corners(a))
        #expect(box(1, "/CropBox") == corners(a))
        #expect(box(2, "/CropBox") == nil)
        #expect(box(3, "/CropBox") == corners(b))
        #expect(box(4, "/CropBox") == corners(a))
        #expect(box(8, "/TrimBox") == corners(trim))
        #expect(box(8, "/CropBox") == nil && box(9, "/CropBox") == nil)
        let facts = try ExportTools.pages(output)
        let sizes = facts.map { [($0.width * 100).rounded() / 100, ($0.height * 100).rounded() / 100] }
        #expect(sizes[5] == [595.28, 841.89] && sizes[7] == [595.28, 841.89], "\(sizes)")
        #expect(sizes[6] == [612, 792], "\(sizes)")
        #expect(sizes[2] == [600, 800] && sizes[9] == [600, 800], "\(sizes)")
        #expect(sizes[8] == [300, 400], "\(sizes)")
    }

    @Test func aPageResizedTwiceIsOneFormXObject() throws {
        let scratch = try ExportScratch()
        let path = try scratch.write(OddOriginPDF(), as: "odd.pdf")
        let output = try export(
            [ExportSource(path: path)],
            [
                .page(source: 0, index: 0, resize: try Self.resized(PageResize(size: .a4, mode: .fit), path, page: 0)),
                .page(
                    source: 0, index: 0,
                    resize: try Self.resized(PageResize(size: .letter, mode: .fill, quarterTurns: 2), path, page: 0)),
                .page(source: 0, index: 0),
            ],
            to: scratch.path("out.pdf"))
        let json = try QPDFJSON(output)
        let forms = json.objects.keys.filter { key in
            let dict = ((json.objects[key] as? [String: Any])?["stream"] as? [String: Any])?["dict"] as? [String: Any]
            return dict?["/Subtype"] as? String == "/Form" && dict?["/BBox"] != nil
                && (dict?["/Resources"] != nil)
        }
        #expect(forms.count == 1, "\(forms)")
        // The unresized copy is the page as it was.
        #expect(try ExportTools.pages(output).map { ($0.width * 10).rounded() / 10 } == [595.3, 612, 600])
        #expect(try ExportTools.text(output, page: 3) == "ODD-ORIGIN")
    }
}
