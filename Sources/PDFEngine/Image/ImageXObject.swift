#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import QPDFCore

/// One stream of an image page as `pe_write_image_page` takes it: its dictionary
/// entries in PDF syntax (besides /Length, /Filter, /DecodeParms and /SMask, which
/// the bridge sets), its data, and how the data is encoded.
struct ImageStream {
    enum Data {
        case bytes([UInt8])
        case buffer(MallocBuffer)
    }

    var dictionary: String
    var data: Data
    /// nil: raw data, which the writer compresses.
    var filter: String? = nil
    var decodeParms: String? = nil

    /// An image XObject's dictionary entries: `<< /Type /XObject /Subtype /Image ... >>`.
    static func imageDictionary(
        width: Int, height: Int, colorSpace: String, bitsPerComponent: Int, extra: String = ""
    ) -> String {
        "<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace \(colorSpace) "
            + "/BitsPerComponent \(bitsPerComponent)\(extra) >>"
    }

    /// Runs `body` with the stream as the bridge takes it (valid during the call only).
    func withBridgeStream<T>(_ body: (pe_image_stream) -> T) -> T {
        func call(_ bytes: UnsafeRawBufferPointer) -> T {
            dictionary.withCString { dictionary in
                withOptionalCString(filter) { filter in
                    withOptionalCString(decodeParms) { parms in
                        body(
                            pe_image_stream(
                                dictionary: dictionary,
                                data: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count,
                                filter: filter, decode_parms: parms))
                    }
                }
            }
        }
        switch data {
        case .bytes(let array): return array.withUnsafeBytes { call($0) }
        case .buffer(let buffer): return call(UnsafeRawBufferPointer(buffer.bytes))
        }
    }
}

/// `body` with `text` as a C string, or NULL.
func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// An image XObject for an image page, with its soft mask, and the PDF version
/// its features need (1.`minimumMinorVersion`).
struct ImageXObject {
    var image: ImageStream
    var mask: ImageStream?
    /// 3: JPEG, 8-bit images; 4: a soft mask (/SMask); 5: 16-bit samples.
    var minimumMinorVersion: Int
}

extension JPEGImage {
    /// The JPEG file byte for byte as a `/DCTDecode` image. Adobe-style inverted
    /// CMYK gets `/Decode [1 0 1 0 1 0 1 0]`; EXIF orientation is left to the
    /// page's placement matrix, never applied to the data.
    var xObject: ImageXObject {
        let colorSpace = [1: "/DeviceGray", 3: "/DeviceRGB"][facts.components] ?? "/DeviceCMYK"
        let dictionary = ImageStream.imageDictionary(
            width: facts.pixelWidth, height: facts.pixelHeight, colorSpace: colorSpace, bitsPerComponent: 8,
            extra: facts.invertedCMYK ? " /Decode [1 0 1 0 1 0 1 0]" : "")
        return ImageXObject(
            image: ImageStream(dictionary: dictionary, data: .bytes(bytes), filter: "/DCTDecode"),
            minimumMinorVersion: 3)
    }
}

extension PNGImage {
    /// The largest inflated image accepted (2 GiB), against decompression bombs.
    static let maximumInflatedSize = Int(Int32.max)

    /// The PNG as an image XObject. Without an alpha channel, palette transparency
    /// or interlacing, the IDAT data passes through as `/FlateDecode` with the PNG
    /// predictor (`/Predictor 15`), after checking that it decodes to the full image.
    /// Otherwise the data is inflated (`pe_inflate`), unfiltered, de-interlaced and split:
    /// colour samples in the image, alpha in an `/SMask` at the same bit depth.
    /// Gray and RGB key-colour transparency (tRNS) becomes a `/Mask` colour range at
    /// 1 to 8 bits, and an 8-bit `/SMask` (0 or 1) at 16 bits.
    func xObject(file: String) throws(EngineError) -> ImageXObject {
        func fail(_ reason: String) -> EngineError { EngineError.badImage(file: file, reason: reason) }
        let decoding = PNGDecoding(header: header)
        guard let inflatedSize = decoding.inflatedSize, inflatedSize <= Self.maximumInflatedSize else {
            throw fail("too large: \(header.width)x\(header.height) pixels")
        }
        let version = header.bitDepth == 16 ? 5 : 3
        // Poppler compares a /Mask range with 16-bit samples cut to 8 bits (so the key
        // never matches): a 16-bit key colour becomes a soft mask instead.
        let key = colorKey
        let keyAsSoftMask = header.bitDepth == 16 ? key : nil
        var maskEntry = ""
        if let key, keyAsSoftMask == nil {
            let ranges = key.map { "\($0) \($0)" }.joined(separator: " ")
            maskEntry = " /Mask [\(ranges)]"
        }
        let dictionary = ImageStream.imageDictionary(
            width: header.width, height: header.height, colorSpace: colorSpace, bitsPerComponent: header.bitDepth,
            extra: maskEntry)
        let paletteAlpha = header.colorType == 3 ? transparency : nil
        let passThrough = !header.interlaced && !header.hasAlphaChannel && paletteAlpha == nil && keyAsSoftMask == nil

        var compressed: [UInt8] = []
        compressed.reserveCapacity(dataRanges.reduce(0) { $0 + $1.count })
        for range in dataRanges { compressed.append(contentsOf: bytes[range]) }

        // Every buffer below is malloc'd and checked: short of memory, the image
        // is refused, never the process ended.
        func outOfMemory() -> EngineError {
            EngineError.overLimit(
                file: file, page: nil, what: "not enough memory to decode an image of \(header.width) x "
                    + "\(header.height) pixels")
        }
        var color: MallocBuffer?, alpha: MallocBuffer?
        var passed: ImageStream?
        do {
            // The rows are inflated and unfiltered in every case, so that corrupt
            // data, a bad filter byte or rows cut short are refused even when the
            // data passes through. The inflated data lives only in this scope:
            // with the planes built from it, at most about two copies of the
            // pixels exist at any time.
            let inflated = try Self.inflate(compressed, into: inflatedSize, file: file, outOfMemory: outOfMemory)
            if passThrough {
                let parms = "<< /Predictor 15 /Colors \(header.channels) /BitsPerComponent \(header.bitDepth) "
                    + "/Columns \(header.width) >>"
                passed = ImageStream(
                    dictionary: dictionary, data: .bytes(compressed), filter: "/FlateDecode", decodeParms: parms)
            }
            compressed = []
            do throws(PNGDecodingError) {
                try decoding.unfilter(inflated.bytes)
            } catch {
                throw fail(error.reason)
            }
            if let passed { return ImageXObject(image: passed, minimumMinorVersion: version) }
            guard let planes = decoding.planes(inflated.bytes) else { throw outOfMemory() }
            (color, alpha) = planes
        }
        var alphaDepth = header.bitDepth
        if let paletteAlpha, let indices = color {
            guard let made = decoding.paletteAlpha(indices: indices, alphas: paletteAlpha) else { throw outOfMemory() }
            alpha = made
            alphaDepth = 8
        } else if let keyAsSoftMask, let samples = color {
            guard let made = decoding.keyAlpha(color: samples, key: keyAsSoftMask) else { throw outOfMemory() }
            alpha = made
            alphaDepth = 8
        }
        guard let samples = color else { throw outOfMemory() }
        var xObject = ImageXObject(
            image: ImageStream(dictionary: dictionary, data: .buffer(samples)), minimumMinorVersion: version)
        if let alpha {
            xObject.mask = ImageStream(
                dictionary: ImageStream.imageDictionary(
                    width: header.width, height: header.height, colorSpace: "/DeviceGray",
                    bitsPerComponent: alphaDepth),
                data: .buffer(alpha))
            xObject.minimumMinorVersion = max(version, 4)
        }
        return xObject
    }

    /// The IDAT data inflated (`pe_inflate`) into a buffer of exactly `size`
    /// bytes, allocated here and checked: a failed allocation is an error, never
    /// a copy to NULL. Fewer bytes than `size` is truncated data.
    private static func inflate(
        _ compressed: [UInt8], into size: Int, file: String, outOfMemory: () -> EngineError
    ) throws(EngineError) -> MallocBuffer {
        guard size > 0, let pointer = malloc(size)?.assumingMemoryBound(to: UInt8.self) else { throw outOfMemory() }
        let buffer = MallocBuffer(pointer: pointer, count: size)
        var status = pe_status()
        var produced = 0
        let code = compressed.withUnsafeBufferPointer { input in
            pe_inflate(input.baseAddress, input.count, pointer, size, &produced, &status)
        }
        guard code == Int32(PE_OK) else {
            throw EngineError.badImage(file: file, reason: "corrupt image data: \(EngineError.detail(of: status))")
        }
        guard produced >= size else { throw EngineError.badImage(file: file, reason: "truncated or corrupt image data") }
        return buffer
    }

    private var colorSpace: String {
        switch header.colorType {
        case 3:
            let hex = palette.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + digits : digits
            }.joined()
            return "[/Indexed /DeviceRGB \(palette.count / 3 - 1) <\(hex)>]"
        case 2, 6:
            return "/DeviceRGB"
        default:
            return "/DeviceGray"
        }
    }

    /// The key colour of gray or RGB transparency (tRNS), one value per colour
    /// sample: stored as 16 bits, of which only the low `bitDepth` bits count.
    private var colorKey: [Int]? {
        guard let transparency, header.colorType == 0 || header.colorType == 2 else { return nil }
        let mask = header.bitDepth == 16 ? 0xFFFF : (1 << header.bitDepth) - 1
        return (0..<header.colorChannels).map { channel in
            (Int(transparency[2 * channel]) << 8 | Int(transparency[2 * channel + 1])) & mask
        }
    }
}
