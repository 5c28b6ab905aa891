/// A JPEG file parsed marker by marker, enough to embed it unchanged as a PDF
/// `/DCTDecode` image: size and components from the frame header (SOF0, SOF1, SOF2),
/// resolution from JFIF APP0 (or EXIF when JFIF gives none), orientation from EXIF
/// APP1, and whether CMYK is stored inverted from Adobe APP14.
///
/// The whole file is walked, entropy-coded data included, up to the EOI marker: a
/// file cut short anywhere is refused rather than embedded as a broken image.
struct JPEGImage {
    let bytes: [UInt8]
    let facts: ImageFacts

    init(bytes: [UInt8], file: String) throws(EngineError) {
        self.bytes = bytes
        var parser = JPEGParser(reader: ByteReader(bytes: bytes))
        do throws(JPEGParser.Failure) {
            facts = try parser.parse()
        } catch {
            throw EngineError.badImage(file: file, reason: error.reason)
        }
    }
}

private struct JPEGParser {
    struct Failure: Error { var reason: String }

    let reader: ByteReader
    private var frame: (width: Int, height: Int, components: Int, progressive: Bool)?
    private var jfifDPI: (x: Double, y: Double)?
    private var exif: EXIFFacts?
    private var adobe = false
    private var sawScan = false

    init(reader: ByteReader) { self.reader = reader }

    mutating func parse() throws(Failure) -> ImageFacts {
        guard reader.matches([0xFF, 0xD8], at: 0) else { throw Failure(reason: "no JPEG start-of-image marker") }
        var position = 2
        markers: while true {
            // Markers start with 0xFF; any number of 0xFF fill bytes may precede the code.
            guard let first = reader.u8(position) else { throw Failure(reason: "truncated (no end-of-image marker)") }
            guard first == 0xFF else {
                throw Failure(reason: "corrupt: expected a marker at byte \(position)")
            }
            var codePosition = position + 1
            while reader.u8(codePosition) == 0xFF { codePosition += 1 }
            guard let code = reader.u8(codePosition) else {
                throw Failure(reason: "truncated (no end-of-image marker)")
            }
            position = codePosition + 1
            switch code {
            case 0xD9:  // EOI; bytes after it are ignored
                break markers
            case 0x01, 0xD0...0xD7:  // TEM, RSTn: no payload
                continue
            case 0x00, 0xD8:
                throw Failure(reason: "corrupt: unexpected marker 0x\(hex(code)) at byte \(codePosition - 1)")
            default:
                break
            }
            guard let length = reader.u16(position), length >= 2 else {
                throw Failure(reason: "truncated inside the headers")
            }
            let payload = position + 2
            let end = position + length
            guard end <= reader.bytes.count else { throw Failure(reason: "truncated inside the headers") }
            try segment(code: code, payload: payload, end: end)
            position = end
            if code == 0xDA {
                position = try skipEntropyCodedData(from: position)
            }
        }
        guard let frame else { throw Failure(reason: "no frame header (SOF marker)") }
        guard sawScan else { throw Failure(reason: "no image data (SOS marker)") }
        let model: ImageFacts.ColorModel = frame.components == 1 ? .gray : frame.components == 3 ? .rgb : .cmyk
        let dpi = jfifDPI ?? exif?.dpi
        return ImageFacts(
            kind: .jpeg, pixelWidth: frame.width, pixelHeight: frame.height, dpiX: dpi?.x, dpiY: dpi?.y,
            orientation: exif?.orientation ?? 1, colorModel: model, components: frame.components,
            bitsPerComponent: 8, interlaced: frame.progressive, invertedCMYK: adobe && frame.components == 4)
    }

    private mutating func segment(code: Int, payload: Int, end: Int) throws(Failure) {
        switch code {
        case 0xC0, 0xC1, 0xC2:
            guard frame == nil else { throw Failure(reason: "corrupt: more than one frame header") }
            guard let precision = reader.u8(payload), let height = reader.u16(payload + 1),
                let width = reader.u16(payload + 3), let components = reader.u8(payload + 5),
                payload + 6 + 3 * components <= end
            else { throw Failure(reason: "corrupt frame header") }
            guard precision == 8 else {
                throw Failure(reason: "\(precision)-bit JPEG samples are not supported (only 8-bit)")
            }
            guard width > 0 else { throw Failure(reason: "corrupt frame header: width 0") }
            guard height > 0 else {
                throw Failure(reason: "height defined by a DNL marker is not supported")
            }
            guard [1, 3, 4].contains(components) else {
                throw Failure(reason: "\(components) colour components are not supported (only 1, 3 or 4)")
            }
            frame = (width, height, components, code == 0xC2)
        case 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
            let process = [0xC3: "lossless", 0xC5: "hierarchical", 0xC6: "hierarchical", 0xC7: "hierarchical"][code]
                ?? "arithmetic-coded"
            throw Failure(reason: "\(process) JPEG is not supported (only baseline, extended and progressive)")
        case 0xDA:
            guard frame != nil else { throw Failure(reason: "corrupt: image data before the frame header") }
            sawScan = true
        case 0xE0 where jfifDPI == nil && reader.matches(Array("JFIF\0".utf8), at: payload):
            guard let units = reader.u8(payload + 7), let x = reader.u16(payload + 8), let y = reader.u16(payload + 10),
                payload + 12 <= end, x > 0, y > 0
            else { return }
            switch units {
            case 1: jfifDPI = (Double(x), Double(y))
            case 2: jfifDPI = (Double(x) * 2.54, Double(y) * 2.54)
            default: break  // 0: only an aspect ratio
            }
        case 0xE1 where exif == nil && reader.matches(Array("Exif\0".utf8), at: payload):
            exif = EXIFFacts(reader: reader, tiffStart: payload + 6, end: end)
        case 0xEE where reader.matches(Array("Adobe".utf8), at: payload):
            adobe = true
        default:
            break
        }
    }

    /// Skips the entropy-coded data that follows a scan header. In it a 0xFF byte is
    /// followed by 0x00 (a stuffed 0xFF) or by a restart marker; anything else is the
    /// next marker, whose position is returned.
    private func skipEntropyCodedData(from start: Int) throws(Failure) -> Int {
        let bytes = reader.bytes
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF {
                let next = bytes[index + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                    index += next == 0xFF ? 1 : 2
                    continue
                }
                return index
            }
            index += 1
        }
        throw Failure(reason: "truncated inside the image data (no end-of-image marker)")
    }

    private func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}

/// The few EXIF facts that matter for placing an image: orientation (tag 0x0112)
/// and resolution (0x011A, 0x011B, unit 0x0128) from IFD0, in either byte order.
/// A malformed EXIF block is ignored, not an error: the pixels are still fine.
struct EXIFFacts {
    var orientation: Int?
    var dpi: (x: Double, y: Double)?

    /// `tiffStart`: where the TIFF header ("II*\0" or "MM\0*") begins; offsets in
    /// the block count from there. Nothing at or after `end` is read.
    init?(reader: ByteReader, tiffStart: Int, end: Int) {
        let bigEndian: Bool
        if reader.matches(Array("MM".utf8), at: tiffStart) {
            bigEndian = true
        } else if reader.matches(Array("II".utf8), at: tiffStart) {
            bigEndian = false
        } else {
            return nil
        }
        func u16(_ offset: Int) -> Int? { offset + 2 <= end ? reader.u16(offset, bigEndian: bigEndian) : nil }
        func u32(_ offset: Int) -> Int? { offset + 4 <= end ? reader.u32(offset, bigEndian: bigEndian) : nil }
        guard u16(tiffStart + 2) == 42, let ifdOffset = u32(tiffStart + 4), let count = u16(tiffStart + ifdOffset)
        else { return nil }
        var xResolution: Double?, yResolution: Double?
        var unit = 2  // TIFF default: inches
        func rational(_ entry: Int) -> Double? {
            guard let offset = u32(entry + 8), let numerator = u32(tiffStart + offset),
                let denominator = u32(tiffStart + offset + 4), denominator > 0, numerator > 0
            else { return nil }
            return Double(numerator) / Double(denominator)
        }
        for index in 0..<count {
            let entry = tiffStart + ifdOffset + 2 + 12 * index
            guard let tag = u16(entry), let type = u16(entry + 2) else { break }
            // SHORT values sit in the first two bytes of the value field, LONG in all four.
            let integer = type == 3 ? u16(entry + 8) : type == 4 ? u32(entry + 8) : nil
            switch tag {
            case 0x0112: orientation = integer.flatMap { (1...8).contains($0) ? $0 : nil }
            case 0x011A where type == 5: xResolution = rational(entry)
            case 0x011B where type == 5: yResolution = rational(entry)
            case 0x0128: unit = integer ?? 2
            default: break
            }
        }
        if let x = xResolution, let y = yResolution {
            switch unit {
            case 2: dpi = (x, y)
            case 3: dpi = (x * 2.54, y * 2.54)
            default: break
            }
        }
    }
}
