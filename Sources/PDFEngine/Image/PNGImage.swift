import QPDFCore

/// A PNG file parsed chunk by chunk (not decoded): header, palette, transparency,
/// resolution and where the compressed image data lies.
///
/// Every chunk's CRC is checked. A bad CRC in a critical chunk (IHDR, PLTE, IDAT,
/// IEND) refuses the file; an ancillary chunk with a bad CRC is ignored, as libpng
/// does. A file must end with IEND: a truncated one is refused. Gamma (gAMA),
/// chromaticities (cHRM, sRGB), ICC profiles (iCCP) and significant bits (sBIT) are
/// ignored: samples are embedded as they are stored. An animated PNG (acTL of more
/// than one frame) is refused rather than cut to its first frame.
struct PNGImage {
    let bytes: [UInt8]
    let facts: ImageFacts
    let header: Header
    /// RGB triples, for colour type 3.
    let palette: [UInt8]
    /// The raw tRNS chunk when it is valid for the colour type: one alpha byte per
    /// palette entry (type 3), or the 16-bit key colour (types 0 and 2).
    let transparency: [UInt8]?
    /// The IDAT chunks' data, in file order; concatenated they are one zlib stream.
    let dataRanges: [Range<Int>]

    struct Header: Equatable {
        var width: Int
        var height: Int
        var bitDepth: Int
        /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
        var colorType: Int
        var interlaced: Bool

        /// Samples per pixel as stored, alpha included.
        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1 }
        /// Colour samples per pixel, without alpha.
        var colorChannels: Int { colorType == 2 || colorType == 6 ? 3 : 1 }
        var hasAlphaChannel: Bool { colorType == 4 || colorType == 6 }
        var bitsPerPixel: Int { channels * bitDepth }
        /// Bytes per complete pixel, at least 1: the distance the Sub, Average and
        /// Paeth filters look back.
        var filterStride: Int { max(1, bitsPerPixel / 8) }

        /// Bytes of one stored scanline `width` pixels wide, without its filter byte.
        func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }
    }

    init(bytes: [UInt8], file: String) throws(EngineError) {
        self.bytes = bytes
        func fail(_ reason: String) -> EngineError { EngineError.badImage(file: file, reason: reason) }
        let reader = ByteReader(bytes: bytes)
        guard reader.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) else {
            throw fail("no PNG signature")
        }
        var header: Header?
        var palette: [UInt8] = []
        var transparencyChunk: [UInt8]?
        var dpi: (x: Double, y: Double)?
        var dataRanges: [Range<Int>] = []
        var sawEnd = false
        var position = 8
        while !sawEnd {
            guard let length = reader.u32(position), let typeCode = reader.u32(position + 4) else {
                throw fail(position == bytes.count ? "truncated (no IEND chunk)" : "truncated inside a chunk header")
            }
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            guard length <= Int(Int32.max) else { throw fail("corrupt: chunk \(type) claims \(length) bytes") }
            let start = position + 8
            let end = start + length
            guard end + 4 <= bytes.count else { throw fail("truncated inside the \(type) chunk") }
            let critical = typeCode & 0x2000_0000 == 0  // bit 5 of the first letter clear: upper case
            if CRC32.of(bytes[position + 4..<end]) != UInt32(reader.u32(end) ?? 0) {
                if critical { throw fail("corrupt: CRC error in the \(type) chunk") }
                position = end + 4
                continue
            }
            if header == nil && type != "IHDR" { throw fail("corrupt: the first chunk is \(type), not IHDR") }
            switch type {
            case "IHDR":
                guard header == nil else { throw fail("corrupt: a second IHDR chunk") }
                header = try Self.header(reader: reader, start: start, length: length, fail: fail)
            case "PLTE":
                guard length % 3 == 0, (3...768).contains(length) else { throw fail("corrupt PLTE chunk") }
                guard dataRanges.isEmpty else { throw fail("corrupt: PLTE after the image data") }
                palette = Array(bytes[start..<end])
            case "tRNS":
                transparencyChunk = Array(bytes[start..<end])
            case "pHYs" where length == 9:
                if reader.u8(start + 8) == 1, let x = reader.u32(start), let y = reader.u32(start + 4), x > 0, y > 0 {
                    dpi = (Self.dpi(pixelsPerMetre: x), Self.dpi(pixelsPerMetre: y))
                }
            case "IDAT":
                guard length > 0 else { break }
                dataRanges.append(start..<end)
            case "acTL" where length == 8:
                // An animated PNG: taking its first frame would silently drop the others.
                if let frames = reader.u32(start), frames > 1 {
                    throw fail("an animated PNG (APNG) of \(frames) frames; only still images can be pages")
                }
            case "IEND":
                sawEnd = true
            default:
                if critical { throw fail("unknown critical chunk \(type)") }
            }
            position = end + 4
        }
        guard let header else { throw fail("no IHDR chunk") }
        guard !dataRanges.isEmpty else { throw fail("no image data (IDAT chunk)") }
        if header.colorType == 3 {
            guard !palette.isEmpty else { throw fail("palette image without a PLTE chunk") }
        } else if header.colorType == 0 || header.colorType == 4 {
            palette = []
        }
        // A tRNS chunk of the wrong size for the colour type is ignored, as libpng does.
        var transparency: [UInt8]?
        if let chunk = transparencyChunk {
            switch header.colorType {
            case 0 where chunk.count == 2, 2 where chunk.count == 6: transparency = chunk
            case 3 where chunk.count <= palette.count / 3:
                // Fully opaque entries need no mask.
                transparency = chunk.allSatisfy { $0 == 255 } ? nil : chunk
            default: transparency = nil
            }
        }
        self.header = header
        self.palette = header.colorType == 3 ? palette : []
        self.transparency = transparency
        self.dataRanges = dataRanges
        let model: ImageFacts.ColorModel =
            header.colorType == 3 ? .indexed : header.colorChannels == 3 ? .rgb : .gray
        facts = ImageFacts(
            kind: .png, pixelWidth: header.width, pixelHeight: header.height, dpiX: dpi?.x, dpiY: dpi?.y,
            colorModel: model, components: header.colorChannels, bitsPerComponent: header.bitDepth,
            hasAlpha: header.hasAlphaChannel || transparency != nil, interlaced: header.interlaced)
    }

    /// Dots per inch from pHYs's whole pixels per metre. A whole dpi `d` is stored
    /// as `d / 0.0254` rounded or truncated (144 dpi as 5669, which is 143.9926 dpi):
    /// when a whole dpi explains the stored value, that dpi is returned, so a
    /// 144 dpi image 64 pixels wide gets a page of exactly 32 points.
    static func dpi(pixelsPerMetre: Int) -> Double {
        let exact = Double(pixelsPerMetre) * 0.0254
        let whole = exact.rounded()
        let stored = whole / 0.0254
        if whole > 0, Int(stored.rounded()) == pixelsPerMetre || Int(stored) == pixelsPerMetre { return whole }
        return exact
    }

    private static func header(
        reader: ByteReader, start: Int, length: Int, fail: (String) -> EngineError
    ) throws(EngineError) -> Header {
        guard length == 13, let width = reader.u32(start), let height = reader.u32(start + 4),
            let depth = reader.u8(start + 8), let colorType = reader.u8(start + 9),
            let compression = reader.u8(start + 10), let filter = reader.u8(start + 11),
            let interlace = reader.u8(start + 12)
        else { throw fail("corrupt IHDR chunk") }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw fail("corrupt IHDR chunk: size \(width)x\(height)")
        }
        let allowedDepths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowedDepths[colorType] else { throw fail("corrupt IHDR chunk: colour type \(colorType)") }
        guard depths.contains(depth) else {
            throw fail("corrupt IHDR chunk: bit depth \(depth) with colour type \(colorType)")
        }
        guard compression == 0, filter == 0, interlace <= 1 else {
            throw fail("corrupt IHDR chunk: unknown compression, filter or interlace method")
        }
        return Header(width: width, height: height, bitDepth: depth, colorType: colorType, interlaced: interlace == 1)
    }
}

/// CRC-32 as PNG uses it (zlib's `crc32`, through `pe_crc32`).
enum CRC32 {
    static func of(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: bytes.withUnsafeBufferPointer { pe_crc32(0, $0.baseAddress, $0.count) })
    }
}
