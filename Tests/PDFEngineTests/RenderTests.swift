import CPoppler
import Foundation
import Testing

@testable import PDFEngine

/// Thumbnails and contact sheets: the PNG writer checked against libpng's reader
/// (through cairo), rotation and sheet geometry checked pixel by pixel.
@Suite struct RenderTests {
    let fixture = ExportPaths.fixture

    /// An image with the given pixels (0xRRGGBB), opaque.
    func image(width: Int, height: Int, _ pixel: (Int, Int) -> UInt32) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height, file: "test")
        cairo_surface_flush(image.surface)
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        let data = try #require(cairo_image_surface_get_data(image.surface))
        for y in 0..<height {
            let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in 0..<width { row[x] = 0xFF00_0000 | pixel(x, y) }
        }
        cairo_surface_mark_dirty(image.surface)
        return image
    }

    func expectSamePixels(_ a: RasterImage, _ b: RasterImage, _ comment: Comment) {
        #expect(a.width == b.width && a.height == b.height, comment)
        guard a.width == b.width, a.height == b.height else { return }
        var differences = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.rgb(x: x, y: y) != b.rgb(x: x, y: y) { differences += 1 }
        }
        #expect(differences == 0, comment)
    }

    @Test("the PNG writer round-trips through libpng exactly: pages, noise, flat and tiny images")
    func pngRoundTrip() throws {
        let scratch = try ExportScratch()
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<(300 * 200)).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        let cases: [(String, RasterImage)] = [
            ("rendered page", try PopplerPDF(path: fixture("features.pdf")).render(page: 1, fittingIn: 300)),
            ("noise (several deflate blocks of literals)", try image(width: 300, height: 200) { noise[$1 * 300 + $0] }),
            ("flat", try image(width: 513, height: 7) { _, _ in 0xE8E8E6 }),
            ("one pixel", try image(width: 1, height: 1) { _, _ in 0x123456 }),
            ("stripes", try image(width: 97, height: 61) { x, y in (x / 3 + y) % 2 == 0 ? 0xFF0000 : 0x0000FF }),
        ]
        for (name, original) in cases {
            let path = scratch.path("\(name).png")
            try original.writeFastPNG(to: path)
            let decoded = try RasterImage(png: path)
            expectSamePixels(original, decoded, "\(name)")
        }
        // Flat images compress: a 513×7 single colour is a few hundred bytes, not 10 KB.
        let flat = try Data(contentsOf: URL(fileURLWithPath: scratch.path("flat.png")))
        #expect(flat.count < 400)
    }

    @Test("a fast PNG checks out with Python's zlib: every chunk's CRC, one zlib stream of the whole image")
    func fastPNGFramingByAnIndependentReader() throws {
        let scratch = try ExportScratch()
        let page = try PopplerPDF(path: fixture("features.pdf")).render(page: 1, fittingIn: 300)
        let path = scratch.path("page.png")
        try page.writeFastPNG(to: path)
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
            at, idat, kinds = 8, b'', []
            while at < len(data):
                length, kind = struct.unpack('>I4s', data[at:at + 8])
                body = data[at + 8:at + 8 + length]
                crc, = struct.unpack('>I', data[at + 8 + length:at + 12 + length])
                assert zlib.crc32(kind + body) & 0xffffffff == crc, kind
                kinds.append(kind.decode())
                if kind == b'IHDR': width, height, depth, color = struct.unpack('>IIBB', body[:10])
                if kind == b'IDAT': idat += body
                at += 12 + length
            raw = zlib.decompress(idat)
            assert len(raw) == (3 * width + 1) * height, (len(raw), width, height)
            assert (depth, color) == (8, 2)
            print(' '.join(kinds), width, height)
            """
        let checked = try ExportTools.run("env", ["python3", "-c", script, path])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout == "IHDR IDAT IEND \(page.width) \(page.height)\n")
    }

    @Test("quarter turns move whole pixels clockwise")
    func rotation() throws {
        let page = try PopplerPDF(path: fixture("alpha.pdf")).render(page: 0, fittingIn: 120)
        let once = try page.rotated(quarterTurns: 1)
        #expect(once.width == page.height && once.height == page.width)
        for (x, y) in [(0, 0), (page.width - 1, 0), (10, 37), (page.width - 1, page.height - 1)] {
            // Clockwise: the top-left corner goes to the top-right.
            #expect(once.rgb(x: once.width - 1 - y, y: x) == page.rgb(x: x, y: y))
        }
        let half = try page.rotated(quarterTurns: 2)
        #expect(half.rgb(x: half.width - 1 - 10, y: half.height - 1 - 37) == page.rgb(x: 10, y: 37))
        let back = try page.rotated(quarterTurns: 3).rotated(quarterTurns: -3).rotated(quarterTurns: 4)
        expectSamePixels(page, back, "three turns and back")
    }

    @Test("a sheet is the layout's size, pages are copied exactly into their cells, frames are frames")
    func sheetGeometry() throws {
        let pdf = try PopplerPDF(path: fixture("rotated.pdf"))
        let pages = try (0..<4).map { try pdf.render(page: $0, fittingIn: 100) }
        let layout = SheetLayout(columns: 3, thumbnailSize: 100)
        let cells =
            pages.enumerated().map { index, image in
                SheetCell(
                    picture: .page(image, quarterTurns: index == 0 ? 1 : 0), title: "\(index + 1)",
                    subtitle: "p\(index + 1)")
            } + [
                SheetCell(
                    picture: .frame(width: 612, height: 792, kind: "placeholder", label: "cover"), title: "5",
                    subtitle: "p5"),
                SheetCell(picture: .blank(width: 792, height: 612), title: "6", subtitle: "p6", detail: "blank"),
            ]
        let (sheet, rects) = try ContactSheet.draw(cells, layout: layout, header: "rotated · 6 pages")
        let expected = layout.sheetSize(cells: 6)
        #expect(sheet.width == expected.width && sheet.height == expected.height)
        #expect(layout.rows(for: 6) == 2)
        #expect(rects.count == 6)
        // Page 1 turned a quarter: landscape, and each of its pixels where the turn puts it.
        #expect(rects[0].width == pages[0].height && rects[0].height == pages[0].width)
        let turned = try pages[0].rotated(quarterTurns: 1)
        for (x, y) in [(0, 0), (turned.width / 2, turned.height / 2), (turned.width - 1, turned.height - 1)] {
            #expect(sheet.rgb(x: rects[0].x + x, y: rects[0].y + y) == turned.rgb(x: x, y: y))
        }
        // Page 2 (its own /Rotate 90) as rendered, standing on its box's bottom edge.
        #expect(rects[1].y + rects[1].height == layout.box(ofCell: 1).y + layout.thumbnailSize)
        #expect(sheet.rgb(x: rects[1].x + 30, y: rects[1].y + 40) == pages[1].rgb(x: 30, y: 40))
        // The placeholder: light inside, dark dashes on its edge; the blank: white inside, a thin edge.
        let frame = rects[4]
        let inside = sheet.rgb(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
        #expect(inside & 0xFF >= 0xF0 && (inside >> 8) & 0xFF >= 0xF0)
        let edge = (frame.x..<(frame.x + frame.width)).filter { sheet.rgb(x: $0, y: frame.y) & 0xFF < 0x60 }
        #expect(edge.count > frame.width / 3 && edge.count < frame.width, "dashed: \(edge.count) of \(frame.width)")
        let blank = rects[5]
        #expect(blank.width > blank.height)
        #expect(sheet.rgb(x: blank.x + blank.width / 2, y: blank.y + blank.height / 2) == 0xFF_FFFF)
        #expect(sheet.rgb(x: blank.x + blank.width / 2, y: blank.y) & 0xFF < 0xC0)
        // The background between cells is the sheet's light grey, and the caption is dark.
        #expect(sheet.rgb(x: 2, y: sheet.height - 2) == 0xE8E8E6)
        let caption = (0..<layout.captionHeight).flatMap { dy in
            (0..<30).map { dx in sheet.rgb(x: layout.box(ofCell: 0).x + dx, y: layout.box(ofCell: 0).y + 100 + dy) }
        }
        #expect(caption.contains { $0 & 0xFF < 0x40 }, "caption text is drawn")
    }

    @Test("standalone pictures of blank pages and placeholders fit the size asked for")
    func standalonePictures() throws {
        let blank = try RasterImage.picture(.blank(width: 595, height: 842), fittingIn: 200)
        #expect(blank.height == 200 && blank.width == Int((595.0 * 200 / 842).rounded()))
        let frame = try RasterImage.picture(
            .frame(width: 842, height: 595, kind: "image", label: "photo.jpg"), fittingIn: 120)
        #expect(frame.width == 120 && frame.height < 120)
        #expect(frame.rgb(x: frame.width / 2, y: frame.height * 3 / 4) & 0xFF > 0xF0)
        #expect(fittedPixels(width: 0, height: 0, in: 50) == (50, 50))
    }

    @Test func sha256OfBytesMatchesSha256sum() throws {
        let scratch = try ExportScratch()
        let bytes = Data((0..<5000).map { UInt8($0 % 251) })
        let path = scratch.path("bytes.bin")
        try bytes.write(to: URL(fileURLWithPath: path))
        let expected = try tool("sha256sum", [path]).split(separator: " ").first.map(String.init)
        #expect(Fingerprint.sha256(of: bytes) == expected)
    }
}
