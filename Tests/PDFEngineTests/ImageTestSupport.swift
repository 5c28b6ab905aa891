import Foundation
import Testing

/// A rendered page or a reference image as 8-bit RGB, read from binary PPM/PGM
/// (`pdftoppm` writes P6; Pillow's reference writes P6 too).
struct RGBImage {
    let width: Int
    let height: Int
    /// Row-major RGB triples.
    let pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Parses `P6` (RGB) or `P5` (gray) with maxval 255.
    init?(ppm data: [UInt8]) {
        var index = 0
        func token() -> String? {
            while index < data.count {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count && data[index] != 10 { index += 1 }
                } else if [9, 10, 13, 32].contains(data[index]) {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < data.count && ![9, 10, 13, 32].contains(data[index]) { index += 1 }
            return start < index ? String(decoding: data[start..<index], as: UTF8.self) : nil
        }
        guard let magic = token(), magic == "P6" || magic == "P5", let w = token().flatMap(Int.init),
            let h = token().flatMap(Int.init), token() == "255"
        else { return nil }
        index += 1  // the single whitespace byte before the samples
        let channels = magic == "P6" ? 3 : 1
        guard data.count - index >= w * h * channels else { return nil }
        let samples = data[index..<index + w * h * channels]
        width = w
        height = h
        pixels = channels == 3 ? Array(samples) : samples.flatMap { [$0, $0, $0] }
    }

    func pixel(_ x: Int, _ y: Int) -> [Int] {
        let offset = (y * width + x) * 3
        return [Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2])]
    }

    /// Mean absolute difference per channel against `expected(x, y)`, and the largest.
    func difference(_ expected: (Int, Int) -> [Int]) -> (mean: Double, max: Int) {
        var total = 0, largest = 0
        for y in 0..<height {
            for x in 0..<width {
                for (got, want) in zip(pixel(x, y), expected(x, y)) {
                    total += abs(got - want)
                    largest = max(largest, abs(got - want))
                }
            }
        }
        return (Double(total) / Double(width * height * 3), largest)
    }

    func difference(_ other: RGBImage) -> (mean: Double, max: Int) {
        difference { other.pixel($0, $1) }
    }
}

enum ImageTools {
    /// Page 1 of `pdf` as seen at `dpi`: rendered by `pdftoppm` at `dpi × oversample`
    /// and sampled at the centre of every `oversample`² block. Poppler blends
    /// neighbouring image samples at 1:1 (a column boundary shows a mix), so the
    /// oversampled centres are what compares cleanly with source pixels.
    static func render(
        _ pdf: String, dpi: Int = 72, oversample: Int = 4, in scratch: ExportScratch
    ) throws -> RGBImage {
        let prefix = scratch.path("render-\(UUID().uuidString)")
        let result = try ExportTools.run("pdftoppm", ["-r", "\(dpi * oversample)", "-singlefile", pdf, prefix])
        try #require(result.status == 0, "pdftoppm failed: \(result.stderr)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        let full = try #require(RGBImage(ppm: data))
        guard oversample > 1 else { return full }
        let width = full.width / oversample, height = full.height / oversample
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                pixels += full.pixel(x * oversample + oversample / 2, y * oversample + oversample / 2).map { UInt8($0) }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// `pdfimages -list` rows after the two header lines, split into columns.
    static func imageList(_ pdf: String) throws -> [[String]] {
        let result = try ExportTools.run("pdfimages", ["-list", pdf])
        return result.stdout.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").map(String.init) }
    }

    /// Whether `python3` on PATH can import Pillow (used only as an independent
    /// decoder for reference pixels; never needed by the product). `make
    /// setup-test` installs it (python3-pil), so a missing Pillow fails the
    /// comparisons that need it rather than skipping them unseen.
    static let pillowAvailable: Bool = {
        (try? ExportTools.run("env", ["python3", "-c", "import PIL.Image"]))?.status == 0
    }()

    /// The image as Pillow shows it: EXIF orientation applied, alpha composited over
    /// white, converted to RGB (8-bit images only: Pillow clips 16-bit gray).
    static func pillowReference(_ image: String, in scratch: ExportScratch) throws -> RGBImage {
        try #require(pillowAvailable, "python3 cannot import Pillow: `make setup-test` installs python3-pil")
        let output = scratch.path("reference-\(UUID().uuidString).ppm")
        let script = """
            import sys
            from PIL import Image, ImageOps
            im = ImageOps.exif_transpose(Image.open(sys.argv[1]))
            im = im.convert("RGBA")
            white = Image.new("RGBA", im.size, (255, 255, 255, 255))
            Image.alpha_composite(white, im).convert("RGB").save(sys.argv[2], "PPM")
            """
        let result = try ExportTools.run("env", ["python3", "-c", script, image, output])
        try #require(result.status == 0, "Pillow failed: \(result.stderr)")
        return try #require(RGBImage(ppm: try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))), "Pillow wrote an unreadable PPM")
    }
}

/// The fixtures' photo pattern (Fixtures/make-fixtures.py `_photo_scene`): red grows
/// left to right, green top to bottom, blue in 15 px stripes; black 24x24 block at
/// the top-left, white 16x16 block at the top-right.
func photoScene(_ x: Int, _ y: Int, width: Int = 120, height: Int = 80) -> [Int] {
    if x < 24 && y < 24 { return [0, 0, 0] }
    if x >= width - 16 && y < 16 { return [255, 255, 255] }
    return [x * 255 / (width - 1), y * 255 / (height - 1), (x / 15) % 2 == 0 ? 170 : 60]
}

/// PNG files written from scratch for the tests, independently of the code under
/// test: samples packed per the PNG spec, scanlines filtered with filter 0, Adam7
/// when asked, and the zlib stream made of stored (uncompressed) deflate blocks.
struct TestPNG {
    var width: Int
    var height: Int
    var bitDepth: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
    var colorType: Int
    var interlaced = false
    var palette: [UInt8]? = nil
    var transparency: [UInt8]? = nil
    var pixelsPerMetre: Int? = nil
    /// Channel values of pixel (x, y), as many as the colour type has.
    var sample: (Int, Int) -> [Int]
    /// Replaces the zlib stream (to test corrupt data).
    var compressedOverride: [UInt8]? = nil

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1 }

    func bytes() -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = Self.be32(width) + Self.be32(height)
        header += [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        out += Self.chunk("IHDR", header)
        if let ppm = pixelsPerMetre { out += Self.chunk("pHYs", Self.be32(ppm) + Self.be32(ppm) + [1]) }
        if let palette { out += Self.chunk("PLTE", palette) }
        if let transparency { out += Self.chunk("tRNS", transparency) }
        out += Self.chunk("IDAT", compressedOverride ?? Self.zlibStored(rawScanlines()))
        out += Self.chunk("IEND", [])
        return out
    }

    func rawScanlines() -> [UInt8] {
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                raw.append(0)
                var bits: [Int] = []  // one entry per sample, packed below
                for x in xs { bits += sample(x, y) }
                raw += pack(bits)
            }
        }
        return raw
    }

    private func pack(_ samples: [Int]) -> [UInt8] {
        switch bitDepth {
        case 16: return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return samples.map { UInt8($0) }
        default:
            var bytes = [UInt8](repeating: 0, count: (samples.count * bitDepth + 7) / 8)
            for (index, value) in samples.enumerated() {
                let bit = index * bitDepth
                bytes[bit / 8] |= UInt8(value << (8 - bitDepth - bit % 8))
            }
            return bytes
        }
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc(typed)))
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A zlib stream of stored deflate blocks (RFC 1950/1951) with its Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = end - start
            out.append(end == data.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(Int(b << 16 | a))
    }
}

/// `jpeg` with an EXIF APP1 segment holding IFD0 Orientation = `orientation`, in
/// little- (`II`) or big-endian (`MM`) byte order, inserted right after SOI.
func jpegWithOrientation(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
    var tiff: [UInt8] = bigEndian ? Array("MM".utf8) : Array("II".utf8)
    tiff += u16(42) + u32(8)
    // IFD0: one entry, Orientation (0x0112), SHORT, count 1, value left-justified.
    tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
}

/// Where stored pixel (x, y) of a `width`x`height` image should come from for
/// displayed pixel (X, Y) under EXIF `orientation`, from the EXIF definition of
/// where the stored row 0 and column 0 end up (e.g. 6: row 0 on the right, column 0
/// at the top).
func storedPixel(displayX X: Int, displayY Y: Int, orientation: Int, width: Int, height: Int) -> (Int, Int) {
    switch orientation {
    case 2: return (width - 1 - X, Y)
    case 3: return (width - 1 - X, height - 1 - Y)
    case 4: return (X, height - 1 - Y)
    case 5: return (Y, X)
    case 6: return (Y, height - 1 - X)
    case 7: return (width - 1 - Y, height - 1 - X)
    case 8: return (width - 1 - Y, X)
    default: return (X, Y)
    }
}
