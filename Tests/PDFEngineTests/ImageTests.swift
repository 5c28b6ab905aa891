import Foundation
import PDFEngine
import Testing

/// Images as pages: facts and page sizes. Every expectation comes from the fixture
/// facts (Fixtures/README.md, fixtures.json), not from the code under test.
@Suite("Image facts and page sizes")
struct ImageFactsTests {
    @Test func jpegFacts() throws {
        let photo = try ImagePage.inspect(ExportPaths.fixture("photo.jpg"))
        #expect(photo.kind == .jpeg)
        #expect(photo.pixelWidth == 120 && photo.pixelHeight == 80)
        #expect(photo.dpiX == 72 && photo.dpiY == 72)
        #expect(photo.orientation == 1)
        #expect(photo.colorModel == .rgb && photo.components == 3 && photo.bitsPerComponent == 8)
        #expect(!photo.interlaced && !photo.hasAlpha && !photo.invertedCMYK)

        #expect(try ImagePage.inspect(ExportPaths.fixture("photo-progressive.jpg")).interlaced)
        let gray = try ImagePage.inspect(ExportPaths.fixture("photo-gray.jpg"))
        #expect(gray.colorModel == .gray && gray.components == 1)
        let cmyk = try ImagePage.inspect(ExportPaths.fixture("photo-cmyk.jpg"))
        #expect(cmyk.colorModel == .cmyk && cmyk.components == 4 && cmyk.invertedCMYK)
        let rotated = try ImagePage.inspect(ExportPaths.fixture("photo-exif-rot.jpg"))
        #expect(rotated.orientation == 6)
        #expect(rotated.pixelWidth == 120 && rotated.pixelHeight == 80)
        #expect(rotated.displayWidth == 80 && rotated.displayHeight == 120)
    }

    @Test func pngFacts() throws {
        let logo = try ImagePage.inspect(ExportPaths.fixture("logo.png"))
        #expect(logo.kind == .png && logo.pixelWidth == 64 && logo.pixelHeight == 64)
        #expect(logo.colorModel == .rgb && logo.hasAlpha && logo.bitsPerComponent == 8)
        // 5669 px/m is how 144 dpi is stored; the whole dpi is recovered.
        #expect(logo.dpiX == 144 && logo.dpiY == 144)
        let gray16 = try ImagePage.inspect(ExportPaths.fixture("gray16.png"))
        #expect(gray16.colorModel == .gray && gray16.bitsPerComponent == 16 && gray16.dpiX == nil)
        let palette = try ImagePage.inspect(ExportPaths.fixture("palette.png"))
        #expect(palette.colorModel == .indexed && palette.bitsPerComponent == 8 && !palette.hasAlpha)
        let interlaced = try ImagePage.inspect(ExportPaths.fixture("interlaced.png"))
        #expect(interlaced.interlaced && interlaced.pixelWidth == 43 && interlaced.pixelHeight == 31)
        #expect(interlaced.orientation == 1)
    }

    @Test(arguments: [false, true])
    func exifOrientationInBothByteOrders(bigEndian: Bool) throws {
        let scratch = try ExportScratch()
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture("photo.jpg"))))
        for orientation in 1...8 {
            let path = scratch.path("o\(orientation).jpg")
            try Data(jpegWithOrientation(photo, orientation: orientation, bigEndian: bigEndian))
                .write(to: URL(fileURLWithPath: path))
            let facts = try ImagePage.inspect(path)
            #expect(facts.orientation == orientation)
            let size = ImagePage.pageSize(facts, fit: nil)
            #expect(orientation >= 5 ? (size.width, size.height) == (80, 120) : (size.width, size.height) == (120, 80))
        }
    }

    @Test func pageSizeFromResolution() throws {
        func size(_ name: String) throws -> (width: Double, height: Double) {
            ImagePage.pageSize(try ImagePage.inspect(ExportPaths.fixture(name)), fit: nil)
        }
        #expect(try size("logo.png") == (32, 32))
        #expect(try size("photo.jpg") == (120, 80))
        #expect(try size("photo-exif-rot.jpg") == (80, 120))
        #expect(try size("gray16.png") == (32, 32))  // no pHYs: 72 dpi
        #expect(try size("interlaced.png") == (43, 31))
    }

    /// JFIF APP0 density (units 1 dpi, 2 dots per cm, 0 aspect only), patched into
    /// photo.jpg's own APP0 (units at byte 13, X density 14-15, Y density 16-17).
    @Test func jfifDensityUnits() throws {
        let scratch = try ExportScratch()
        var photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture("photo.jpg"))))
        try #require(photo[6..<11].elementsEqual(Array("JFIF\0".utf8)))
        func facts(units: UInt8, x: Int, y: Int) throws -> ImageFacts {
            photo[13] = units
            photo[14] = UInt8(x >> 8)
            photo[15] = UInt8(x & 0xFF)
            photo[16] = UInt8(y >> 8)
            photo[17] = UInt8(y & 0xFF)
            let path = scratch.path("density.jpg")
            try Data(photo).write(to: URL(fileURLWithPath: path))
            return try ImagePage.inspect(path)
        }
        let dpcm = try facts(units: 2, x: 100, y: 100)
        #expect(abs((dpcm.dpiX ?? 0) - 254) < 1e-9)
        let dpcmSize = ImagePage.pageSize(dpcm, fit: nil)
        #expect(abs(dpcmSize.width - 120 * 72 / 254) < 1e-9)
        let aspectOnly = try facts(units: 0, x: 1, y: 1)
        #expect(aspectOnly.dpiX == nil)
        #expect(ImagePage.pageSize(aspectOnly, fit: nil) == (120, 80))
        let unequal = try facts(units: 1, x: 144, y: 72)
        #expect(ImagePage.pageSize(unequal, fit: nil) == (60, 80))
    }

    /// Absurd resolutions (a 1 dpi JFIF density is a classic) would give pages wider
    /// than PDF viewers accept: the page is capped at 14,400 pt, aspect kept.
    @Test func hugePagesAreCapped() {
        let facts = ImageFacts(
            kind: .jpeg, pixelWidth: 4000, pixelHeight: 3000, dpiX: 1, dpiY: 1, colorModel: .rgb, components: 3,
            bitsPerComponent: 8)
        #expect(ImagePage.pageSize(facts, fit: nil) == (14_400, 10_800))
        let tall = ImageFacts(
            kind: .png, pixelWidth: 300, pixelHeight: 60_000, colorModel: .gray, components: 1, bitsPerComponent: 8)
        #expect(ImagePage.pageSize(tall, fit: nil) == (72, 14_400))
    }

    @Test func fitFollowsTheImageOrientation() throws {
        let a4 = (width: 595.28, height: 841.89)
        let landscape = try ImagePage.inspect(ExportPaths.fixture("photo.jpg"))
        #expect(ImagePage.pageSize(landscape, fit: a4) == (841.89, 595.28))
        #expect(ImagePage.pageSize(landscape, fit: (841.89, 595.28)) == (841.89, 595.28))
        // Stored landscape, displayed portrait: the page follows the display.
        let rotated = try ImagePage.inspect(ExportPaths.fixture("photo-exif-rot.jpg"))
        #expect(ImagePage.pageSize(rotated, fit: a4) == (595.28, 841.89))
        #expect(ImagePage.pageSize(rotated, fit: (841.89, 595.28)) == (595.28, 841.89))
        // Square: the paper as given.
        let square = try ImagePage.inspect(ExportPaths.fixture("logo.png"))
        #expect(ImagePage.pageSize(square, fit: a4) == (595.28, 841.89))
        #expect(ImagePage.pageSize(square, fit: (841.89, 595.28)) == (841.89, 595.28))
    }
}

@Suite("JPEG pages")
struct ImageJPEGTests {
    static let jpegs = ["photo.jpg", "photo-progressive.jpg", "photo-gray.jpg", "photo-cmyk.jpg", "photo-exif-rot.jpg"]

    /// DCT passthrough: `pdfimages -j` gives back the very bytes of the file.
    @Test(arguments: jpegs)
    func embeddedByteForByte(name: String) throws {
        let scratch = try ExportScratch()
        let pdf = scratch.path("out.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture(name), fit: nil, to: pdf)
        let check = try ExportTools.check(pdf)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let list = try ImageTools.imageList(pdf)
        #expect(list.count == 1)
        #expect(list.first?[8] == "jpeg")
        let extract = try ExportTools.run("pdfimages", ["-j", pdf, scratch.path("x")])
        #expect(extract.status == 0)
        let extracted = try Data(contentsOf: URL(fileURLWithPath: scratch.path("x-000.jpg")))
        let original = try Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture(name)))
        #expect(extracted == original)
    }

    @Test(arguments: ["photo.jpg", "photo-progressive.jpg"])
    func rgbRendersLikeTheSource(name: String) throws {
        let scratch = try ExportScratch()
        let pdf = scratch.path("out.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture(name), fit: nil, to: pdf)
        #expect(try ExportTools.pages(pdf) == [.init(width: 120, height: 80, rotation: 0)])
        let rendered = try ImageTools.render(pdf, in: scratch)
        try #require(rendered.width == 120 && rendered.height == 80)
        // JPEG at quality 90 with 4:2:0 chroma blurs the stripes' edges a little.
        #expect(rendered.difference { photoScene($0, $1) }.mean < 6)
        #expect(rendered.pixel(5, 5).allSatisfy { $0 < 30 })  // black block top-left
        #expect(rendered.pixel(114, 5).allSatisfy { $0 > 225 })  // white block top-right
        let reference = try ImageTools.pillowReference(ExportPaths.fixture(name), in: scratch)
        #expect(rendered.difference(reference).mean < 4)
    }

    @Test func grayRendersGray() throws {
        let scratch = try ExportScratch()
        let pdf = scratch.path("out.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture("photo-gray.jpg"), fit: nil, to: pdf)
        #expect(try ImageTools.imageList(pdf).first?[5] == "gray")
        let rendered = try ImageTools.render(pdf, in: scratch)
        let difference = rendered.difference { x, y in
            let rgb = photoScene(x, y)
            let luma = (rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114 + 500) / 1000
            return [luma, luma, luma]
        }
        #expect(difference.mean < 6)
        let reference = try ImageTools.pillowReference(ExportPaths.fixture("photo-gray.jpg"), in: scratch)
        #expect(rendered.difference(reference).mean < 4)
    }

    /// Adobe CMYK is stored inverted: without `/Decode [1 0 1 0 1 0 1 0]` the black
    /// block would show white and the white block black.
    @Test func invertedCMYKShowsTrueColours() throws {
        let scratch = try ExportScratch()
        let pdf = scratch.path("out.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture("photo-cmyk.jpg"), fit: nil, to: pdf)
        #expect(try ImageTools.imageList(pdf).first?[5] == "cmyk")
        let rendered = try ImageTools.render(pdf, in: scratch)
        #expect(rendered.pixel(5, 5).allSatisfy { $0 < 60 })  // K 100 %: poppler's rich black
        #expect(rendered.pixel(114, 5).allSatisfy { $0 > 240 })  // no ink: white
        // Poppler's CMYK-to-RGB is not the inverse of the fixture's naive RGB-to-CMYK,
        // so colours are only close; inverted colours would be off by ~130 on average.
        #expect(rendered.difference { photoScene($0, $1) }.mean < 30)
        // Red grows left to right, green top to bottom.
        #expect(rendered.pixel(110, 50)[0] > rendered.pixel(30, 50)[0] + 80)
        #expect(rendered.pixel(60, 75)[1] > rendered.pixel(60, 30)[1] + 60)
    }

    @Test func exifRotatedFixtureIsUpright() throws {
        let scratch = try ExportScratch()
        let pdf = scratch.path("out.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture("photo-exif-rot.jpg"), fit: nil, to: pdf)
        #expect(try ExportTools.pages(pdf) == [.init(width: 80, height: 120, rotation: 0)])
        let rendered = try ImageTools.render(pdf, in: scratch)
        try #require(rendered.width == 80 && rendered.height == 120)
        #expect(rendered.pixel(5, 5).allSatisfy { $0 < 30 })  // black top-left
        #expect(rendered.pixel(75, 5).allSatisfy { $0 > 225 })  // white top-right
        #expect(rendered.difference { photoScene($0, $1, width: 80, height: 120) }.mean < 6)
        let reference = try ImageTools.pillowReference(ExportPaths.fixture("photo-exif-rot.jpg"), in: scratch)
        #expect(rendered.difference(reference).mean < 4)
    }

    /// All eight orientations (mirrors too), in both EXIF byte orders: photo.jpg's
    /// pixels with an orientation tag added, rendered, compared with the stored
    /// pixels rearranged as the EXIF definition says.
    @Test(arguments: [false, true])
    func everyOrientationDisplaysUpright(bigEndian: Bool) throws {
        let scratch = try ExportScratch()
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture("photo.jpg"))))
        let plainPDF = scratch.path("plain.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture("photo.jpg"), fit: nil, to: plainPDF)
        let plain = try ImageTools.render(plainPDF, in: scratch)
        for orientation in 1...8 {
            let image = scratch.path("o\(orientation).jpg")
            try Data(jpegWithOrientation(photo, orientation: orientation, bigEndian: bigEndian))
                .write(to: URL(fileURLWithPath: image))
            let pdf = scratch.path("o\(orientation).pdf")
            try ImagePage.writePDF(image: image, fit: nil, to: pdf)
            #expect(try ExportTools.check(pdf).status == 0)
            let rendered = try ImageTools.render(pdf, in: scratch)
            let (width, height) = orientation >= 5 ? (80, 120) : (120, 80)
            try #require(rendered.width == width && rendered.height == height, "orientation \(orientation)")
            let difference = rendered.difference { x, y in
                let (sx, sy) = storedPixel(displayX: x, displayY: y, orientation: orientation, width: 120, height: 80)
                return plain.pixel(sx, sy)
            }
            #expect(difference.mean < 2, "orientation \(orientation): \(difference)")
            let reference = try ImageTools.pillowReference(image, in: scratch)
            #expect(rendered.difference(reference).mean < 4, "orientation \(orientation) vs Pillow")
        }
    }

    /// `fit: A4`: a landscape photo on A4 landscape, as large as fits, centred.
    @Test func fitCentresTheImage() throws {
        let scratch = try ExportScratch()
        let pdf = scratch.path("out.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture("photo.jpg"), fit: (595.28, 841.89), to: pdf)
        #expect(try ExportTools.check(pdf).status == 0)
        let page = try #require(try ExportTools.pages(pdf).first)
        #expect(abs(page.width - 841.89) < 0.01 && abs(page.height - 595.28) < 0.01)
        // 120x80 scaled to the full width 841.89 is 561.26 high: 17.01 pt white above and below.
        let rendered = try ImageTools.render(pdf, oversample: 1, in: scratch)
        func isWhite(_ x: Int, _ y: Int) -> Bool { rendered.pixel(x, y).allSatisfy { $0 > 250 } }
        #expect(isWhite(420, 8) && isWhite(420, rendered.height - 9))
        #expect(!isWhite(420, 26) && !isWhite(420, rendered.height - 27))
        #expect(rendered.pixel(3, 100).allSatisfy { $0 < 30 })  // black block reaches the left edge
        #expect(rendered.pixel(rendered.width - 4, 60).allSatisfy { $0 > 225 })  // white block the right
        let top = (0..<rendered.height).first { !isWhite(420, $0) } ?? -1
        let bottom = (0..<rendered.height).reversed().first { !isWhite(420, $0) } ?? -1
        #expect(abs(top - (rendered.height - 1 - bottom)) <= 1)

        let rotated = scratch.path("rotated.pdf")
        try ImagePage.writePDF(image: ExportPaths.fixture("photo-exif-rot.jpg"), fit: (595.28, 841.89), to: rotated)
        let portrait = try #require(try ExportTools.pages(rotated).first)
        #expect(abs(portrait.width - 595.28) < 0.01 && abs(portrait.height - 841.89) < 0.01)
        let upright = try ImageTools.render(rotated, dpi: 20, oversample: 1, in: scratch)
        // Fitted to the height (120 px → 841.89 pt): 17 pt margins left and right, and
        // the black block (24 px → 168 pt) at the top-left of the image.
        #expect(upright.pixel(15, 15).allSatisfy { $0 < 40 })
        #expect(upright.pixel(1, 15).allSatisfy { $0 > 250 })
        #expect(upright.pixel(upright.width - 2, 15).allSatisfy { $0 > 250 })
    }
}

@Suite("PNG pages")
struct ImagePNGTests {
    func page(_ image: String, _ scratch: ExportScratch, name: String = "out.pdf") throws -> String {
        let pdf = scratch.path(name)
        try ImagePage.writePDF(image: image, fit: nil, to: pdf)
        let check = try ExportTools.check(pdf)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        return pdf
    }

    func write(_ png: TestPNG, _ scratch: ExportScratch, as name: String) throws -> String {
        let path = scratch.path(name)
        try Data(png.bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func sixteenBitStaysSixteenBit() throws {
        let scratch = try ExportScratch()
        let pdf = try page(ExportPaths.fixture("gray16.png"), scratch)
        let list = try ImageTools.imageList(pdf)
        #expect(list.count == 1)
        #expect(list.first?[5] == "gray" && list.first?[7] == "16")
        #expect(try ExportTools.pages(pdf) == [.init(width: 32, height: 32, rotation: 0)])
        let rendered = try ImageTools.render(pdf, in: scratch)
        let difference = rendered.difference { x, y in
            let value = Int((65535 * Double(y * 32 + x) / 1023).rounded())
            return Array(repeating: (value + 128) / 257, count: 3)
        }
        #expect(difference.max <= 2)
    }

    @Test func paletteColoursExactly() throws {
        let scratch = try ExportScratch()
        let pdf = try page(ExportPaths.fixture("palette.png"), scratch)
        #expect(try ImageTools.imageList(pdf).first?[5] == "index")
        let palette = [[0, 0, 0], [255, 255, 255], [220, 30, 30], [40, 160, 60], [40, 70, 210], [235, 215, 30]]
        let rendered = try ImageTools.render(pdf, in: scratch)
        #expect(rendered.difference { x, y in palette[(x / 8 + y / 16) % 6] }.max <= 1)
    }

    /// Interlaced data is de-interlaced: the page looks like the fixture's formula and
    /// like the same pixels stored without interlacing.
    @Test func interlacedRendersLikeNonInterlaced() throws {
        let scratch = try ExportScratch()
        let formula: (Int, Int) -> [Int] = { x, y in
            x < 5 && y < 5 ? [0, 0, 0] : [x * 255 / 42, y * 255 / 30, (x + y) % 2 == 1 ? 200 : 50]
        }
        let interlaced = try ImageTools.render(try page(ExportPaths.fixture("interlaced.png"), scratch), in: scratch)
        #expect(interlaced.difference(formula).max <= 1)
        let flatPNG = TestPNG(width: 43, height: 31, bitDepth: 8, colorType: 2, sample: formula)
        let flat = try write(flatPNG, scratch, as: "flat.png")
        let plain = try ImageTools.render(try page(flat, scratch, name: "flat.pdf"), in: scratch)
        #expect(interlaced.pixels == plain.pixels)
        let reference = try ImageTools.pillowReference(ExportPaths.fixture("interlaced.png"), in: scratch)
        #expect(interlaced.difference(reference).max <= 1)
    }

    /// logo.png: RGBA at 144 dpi, a 32 pt page; alpha 0 shows the white page.
    @Test func alphaBecomesASoftMask() throws {
        let scratch = try ExportScratch()
        let pdf = try page(ExportPaths.fixture("logo.png"), scratch)
        #expect(try ExportTools.pages(pdf) == [.init(width: 32, height: 32, rotation: 0)])
        let list = try ImageTools.imageList(pdf)
        #expect(list.map { $0[2] } == ["image", "smask"])
        let rendered = try ImageTools.render(pdf, dpi: 144, in: scratch)
        try #require(rendered.width == 64 && rendered.height == 64)
        for (x, y) in [(0, 0), (63, 0), (0, 63), (63, 63), (2, 30)] {
            #expect(rendered.pixel(x, y) == [255, 255, 255], "(\(x), \(y))")
        }
        #expect(rendered.difference { _, _ in [30, 120, 220] }.max > 0)
        #expect(zip(rendered.pixel(40, 40), [30, 120, 220]).allSatisfy { abs($0 - $1) <= 2 })
        #expect(zip(rendered.pixel(20, 20), [255, 150, 0]).allSatisfy { abs($0 - $1) <= 2 })
        // The whole logo over white, from make-fixtures.py's formula.
        let difference = rendered.difference { x, y in
            let dx = Double(x) + 0.5 - 32, dy = Double(y) + 0.5 - 32
            let alpha = (max(0, min(1, 28.5 - (dx * dx + dy * dy).squareRoot())) * 255).rounded() / 255
            let ex = Double(x) + 0.5 - 20, ey = Double(y) + 0.5 - 20
            let rgb = ex * ex + ey * ey <= 36 ? [255.0, 150, 0] : [30.0, 120, 220]
            return rgb.map { Int(($0 * alpha + 255 * (1 - alpha)).rounded()) }
        }
        #expect(difference.max <= 3)
        let reference = try ImageTools.pillowReference(ExportPaths.fixture("logo.png"), in: scratch)
        #expect(rendered.difference(reference).max <= 3)
    }

    /// The IDAT data of non-interlaced images without alpha is embedded unchanged,
    /// with the PNG predictor in /DecodeParms.
    @Test(arguments: ["palette.png", "gray16.png"])
    func dataPassesThrough(name: String) throws {
        let scratch = try ExportScratch()
        let pdf = try page(ExportPaths.fixture(name), scratch)
        let objectID = try #require(try ImageTools.imageList(pdf).first?[10])
        let raw = scratch.path("raw")
        let result = try ExportTools.run(
            "sh", ["-c", "qpdf --show-object=\(objectID) --raw-stream-data \"$1\" > \"$2\"", "sh", pdf, raw])
        #expect(result.status == 0)
        let embedded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        // The IDAT payloads of the file, independently located.
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture(name))))
        var idat: [UInt8] = []
        var position = 8
        while position + 8 <= file.count {
            let length = file[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            if file[position + 4..<position + 8].elementsEqual(Array("IDAT".utf8)) {
                idat += file[position + 8..<position + 8 + length]
            }
            position += 12 + length
        }
        #expect(!idat.isEmpty && embedded == idat)
        let dictionary = try ExportTools.run("qpdf", ["--show-object=\(objectID)", pdf]).stdout
        #expect(dictionary.contains("/Predictor 15"))
    }

    /// Palette + tRNS: kept /Indexed, with an 8-bit /SMask from the tRNS alphas.
    /// Also 2-bit samples, interlaced: sub-byte de-interlacing.
    @Test func paletteTransparency() throws {
        let scratch = try ExportScratch()
        let colours: [[Int]] = [[220, 30, 30], [40, 160, 60], [40, 70, 210], [0, 0, 0]]
        let png = TestPNG(
            width: 21, height: 13, bitDepth: 2, colorType: 3, interlaced: true,
            palette: colours.flatMap { $0.map(UInt8.init) }, transparency: [255, 0, 255],
            sample: { x, y in [(x + 2 * y) % 4] })
        let pdf = try page(try write(png, scratch, as: "ptrns.png"), scratch)
        #expect(try ImageTools.imageList(pdf).map { $0[2] } == ["image", "smask"])
        #expect(try ImageTools.imageList(pdf).first?[5] == "index")
        let rendered = try ImageTools.render(pdf, in: scratch)
        let difference = rendered.difference { x, y in
            let index = (x + 2 * y) % 4
            return index == 1 ? [255, 255, 255] : colours[index]
        }
        #expect(difference.max <= 1)
    }

    @Test func grayAlphaAndKeyColour() throws {
        let scratch = try ExportScratch()
        // Gray + alpha, 8-bit: left half opaque, right half transparent.
        let grayAlpha = TestPNG(
            width: 20, height: 10, bitDepth: 8, colorType: 4, sample: { x, _ in [40, x < 10 ? 255 : 0] })
        let grayAlphaPDF = try page(try write(grayAlpha, scratch, as: "ga.png"), scratch)
        let rendered = try ImageTools.render(grayAlphaPDF, in: scratch)
        #expect(rendered.difference { x, _ in x < 10 ? [40, 40, 40] : [255, 255, 255] }.max <= 1)

        // Key colour (tRNS) transparency: a /Mask colour range up to 8 bits (the IDAT
        // data still passes through), a soft mask at 16 bits.
        for (depth, interlaced) in [(8, false), (16, true), (16, false)] {
            let full = depth == 16 ? 0xFFFF : 0xFF
            let keyRed = depth == 16 ? 0x1234 : 0x12
            let key = TestPNG(
                width: 17, height: 11, bitDepth: depth, colorType: 2, interlaced: interlaced,
                transparency: [UInt8(keyRed >> 8 & 0xFF), UInt8(keyRed & 0xFF), 0, 0, UInt8(full >> 8 & 0xFF), 0xFF],
                sample: { x, y in (x + y) % 3 == 0 ? [keyRed, 0, full] : [full, full / 2 + 1, 0] })
            let name = "key\(depth)\(interlaced)"
            let keyPDF = try page(try write(key, scratch, as: "\(name).png"), scratch, name: "\(name).pdf")
            let list = try ImageTools.imageList(keyPDF)
            #expect(list.first?[7] == "\(depth)")
            #expect(list.map { $0[2] } == (depth == 16 ? ["image", "smask"] : ["image"]))
            let keyed = try ImageTools.render(keyPDF, in: scratch)
            #expect(keyed.difference { x, y in (x + y) % 3 == 0 ? [255, 255, 255] : [255, 128, 0] }.max <= 1, "\(name)")
        }

        // 4-bit gray with a key: the low bits of the 16-bit tRNS value count.
        let gray = TestPNG(
            width: 9, height: 5, bitDepth: 4, colorType: 0, transparency: [0, 7],
            sample: { x, _ in [x % 2 == 0 ? 7 : 0] })
        let grayPDF = try page(try write(gray, scratch, as: "g4.png"), scratch, name: "g4.pdf")
        let grayRendered = try ImageTools.render(grayPDF, in: scratch)
        #expect(grayRendered.difference { x, _ in x % 2 == 0 ? [255, 255, 255] : [0, 0, 0] }.max <= 1)
    }

    /// RGBA 16-bit: colour and alpha both stay 16-bit; alpha ramps 0 → 1 left to right.
    @Test func sixteenBitAlpha() throws {
        let scratch = try ExportScratch()
        let png = TestPNG(
            width: 32, height: 8, bitDepth: 16, colorType: 6, sample: { x, _ in [65535, 0, 0, 65535 * x / 31] })
        let pdf = try page(try write(png, scratch, as: "rgba16.png"), scratch)
        let list = try ImageTools.imageList(pdf)
        #expect(list.map { $0[2] } == ["image", "smask"])
        #expect(list.map { $0[7] } == ["16", "16"])
        let rendered = try ImageTools.render(pdf, in: scratch)
        let difference = rendered.difference { x, _ in
            let rest = Int((255 * (1 - Double(x) / 31)).rounded())
            return [255, rest, rest]
        }
        #expect(difference.max <= 2)
    }

    /// 1-bit gray, interlaced: bits scattered into place across all seven passes.
    @Test func oneBitInterlaced() throws {
        let scratch = try ExportScratch()
        let pattern: (Int, Int) -> Bool = { x, y in (x * 7 + y * 3) % 5 < 2 }
        let png = TestPNG(
            width: 19, height: 23, bitDepth: 1, colorType: 0, interlaced: true,
            sample: { x, y in [pattern(x, y) ? 1 : 0] })
        let rendered = try ImageTools.render(try page(try write(png, scratch, as: "bits.png"), scratch), in: scratch)
        #expect(rendered.difference { x, y in pattern(x, y) ? [255, 255, 255] : [0, 0, 0] }.max == 0)
    }
}

@Suite("Broken images")
struct ImageErrorTests {
    func expectBadImage(
        _ path: String, inspect: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        if inspect {
            #expect(sourceLocation: sourceLocation) {
                try ImagePage.inspect(path)
            } throws: { error in
                guard case .badImage(let file, _) = error as? EngineError else { return false }
                return file == path && (error as? EngineError)?.description.contains(path) == true
            }
        }
        #expect(sourceLocation: sourceLocation) {
            try ImagePage.writePDF(image: path, fit: nil, to: output)
        } throws: { error in
            guard case .badImage(let file, _) = error as? EngineError else { return false }
            return file == path
        }
        // Nothing left behind: no output, no temporary file.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(leftovers.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func textNamedPNG() throws {
        let path = ExportPaths.fixture("fake.png")
        #expect(throws: EngineError.notAPDF(file: path)) { try ImagePage.inspect(path) }
        let scratch = try ExportScratch()
        #expect(throws: EngineError.notAPDF(file: path)) {
            try ImagePage.writePDF(image: path, fit: nil, to: scratch.path("out.pdf"))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.pdf")))
    }

    @Test(arguments: [0.6, 0.3, 0.05])
    func truncatedJPEG(fraction: Double) throws {
        for name in ["photo.jpg", "photo-progressive.jpg"] {
            let scratch = try ExportScratch()
            let data = try Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture(name)))
            let path = scratch.path("cut-\(name)")
            try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
            try expectBadImage(path)
        }
    }

    @Test(arguments: [0.6, 0.3, 0.05])
    func truncatedPNG(fraction: Double) throws {
        for name in ["logo.png", "interlaced.png", "palette.png"] {
            let scratch = try ExportScratch()
            let data = try Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture(name)))
            let path = scratch.path("cut-\(name)")
            try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
            try expectBadImage(path)
        }
    }

    @Test func pngWithABadCRC() throws {
        let scratch = try ExportScratch()
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture("palette.png"))))
        data[data.count - 20] ^= 0xFF  // inside the last IDAT, before IEND's 12 bytes
        let path = scratch.path("crc.png")
        try Data(data).write(to: URL(fileURLWithPath: path))
        try expectBadImage(path)
    }

    /// Chunks intact (CRCs right) but the compressed data is garbage or short: only
    /// decoding finds out, so `inspect` accepts the file and `writePDF` refuses it.
    @Test(arguments: [false, true])
    func corruptOrShortImageData(interlaced: Bool) throws {
        let scratch = try ExportScratch()
        var png = TestPNG(
            width: 16, height: 16, bitDepth: 8, colorType: 2, interlaced: interlaced,
            sample: { x, y in [x * 16, y * 16, 0] })
        png.compressedOverride = [0x78, 0x01] + Array(repeating: 0xFF, count: 40)
        let garbage = scratch.path("garbage.png")
        try Data(png.bytes()).write(to: URL(fileURLWithPath: garbage))
        try expectBadImage(garbage, inspect: false)

        png.compressedOverride = TestPNG.zlibStored(Array(png.rawScanlines().prefix(100)))
        let short = scratch.path("short.png")
        try Data(png.bytes()).write(to: URL(fileURLWithPath: short))
        try expectBadImage(short, inspect: false)

        // A scanline filter type that does not exist (decoded path: RGBA).
        var rgba = TestPNG(width: 4, height: 4, bitDepth: 8, colorType: 6, sample: { _, _ in [1, 2, 3, 4] })
        var raw = rgba.rawScanlines()
        raw[0] = 9
        rgba.compressedOverride = TestPNG.zlibStored(raw)
        let filter = scratch.path("filter.png")
        try Data(rgba.bytes()).write(to: URL(fileURLWithPath: filter))
        try expectBadImage(filter, inspect: false)
    }

    @Test func unsupportedJPEGProcess() throws {
        let scratch = try ExportScratch()
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ExportPaths.fixture("photo.jpg"))))
        let sof = try #require((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data[sof + 1] = 0xC3  // lossless
        let path = scratch.path("lossless.jpg")
        try Data(data).write(to: URL(fileURLWithPath: path))
        try expectBadImage(path)
    }

    @Test func missingEmptyAndUnwritable() throws {
        let scratch = try ExportScratch()
        let missing = scratch.path("nothing.png")
        #expect(throws: EngineError.missing(file: missing)) { try ImagePage.inspect(missing) }
        let empty = scratch.path("empty.jpg")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: EngineError.emptyFile(file: empty)) { try ImagePage.inspect(empty) }
        let pdf = ExportPaths.fixture("alpha.pdf")
        #expect { try ImagePage.inspect(pdf) } throws: { ($0 as? EngineError)?.file == pdf }

        #expect(throws: EngineError.self) {
            try ImagePage.writePDF(image: ExportPaths.fixture("photo.jpg"), fit: (0, 842), to: scratch.path("zero.pdf"))
        }

        let output = scratch.path("no/such/dir/out.pdf")
        #expect {
            try ImagePage.writePDF(image: ExportPaths.fixture("photo.jpg"), fit: nil, to: output)
        } throws: { error in
            guard case .cannotWrite(let file, _) = error as? EngineError else { return false }
            return file == output
        }
    }
}

@Suite("Image pages are deterministic and clean")
struct ImageDeterminismTests {
    static let images = [
        "photo.jpg", "photo-cmyk.jpg", "photo-exif-rot.jpg", "photo-gray.jpg", "photo-progressive.jpg",
        "logo.png", "gray16.png", "palette.png", "interlaced.png",
    ]

    @Test(arguments: images)
    func sameInputSameBytes(name: String) throws {
        let scratch = try ExportScratch()
        for fit in [nil, (width: 595.28, height: 841.89)] as [(width: Double, height: Double)?] {
            let first = scratch.path("first.pdf"), second = scratch.path("second.pdf")
            try ImagePage.writePDF(image: ExportPaths.fixture(name), fit: fit, to: first)
            try ImagePage.writePDF(image: ExportPaths.fixture(name), fit: fit, to: second)
            let a = try Data(contentsOf: URL(fileURLWithPath: first))
            let b = try Data(contentsOf: URL(fileURLWithPath: second))
            #expect(a == b)
            let check = try ExportTools.check(first)
            #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(check.stdout)\(check.stderr)")
            #expect(String(decoding: a.prefix(8), as: UTF8.self).hasPrefix("%PDF-1."))
        }
    }
}
