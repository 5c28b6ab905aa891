import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ImageCodecs

/// The image files `render` writes.
package enum ImageFileFormat: String, Sendable, CaseIterable, Codable {
    case png, jpeg, tiff

    /// The format a file name's extension names (`.png`, `.jpg`/`.jpeg`, `.tif`/`.tiff`,
    /// any case), nil for any other.
    package init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "tif", "tiff": self = .tiff
        default: return nil
        }
    }
}

/// The colours an image file keeps.
package enum PixelColors: String, Sendable, Codable {
    /// RGB, 8 bits a sample.
    case color
    /// Luminance (Rec. 601 weights), 8 bits.
    case gray
    /// 1 bit a pixel: white where the luminance is at least half, else black (no dithering).
    case mono
}

/// A rendered page's pixels packed in the layout an image file takes (see
/// `pe_pixels_convert`): RGB, RGBA, gray, gray and alpha, or 1-bit.
package struct PackedPixels {
    let layout: pe_pixel_layout
    package let width: Int
    package let height: Int
    let rowBytes: Int
    let bytes: [UInt8]
}

extension RasterImage {
    /// The pixels in `colors`, with alpha (not premultiplied) when `alpha`.
    /// Mono has no alpha; the caller refuses that pair.
    package func packed(colors: PixelColors, alpha: Bool) -> PackedPixels {
        let layout: pe_pixel_layout =
            switch colors {
            case .color: alpha ? PE_PIXELS_RGBA : PE_PIXELS_RGB
            case .gray: alpha ? PE_PIXELS_GRAY_ALPHA : PE_PIXELS_GRAY
            case .mono: PE_PIXELS_MONO
            }
        cairo_surface_flush(surface)
        let rowBytes = pe_pixels_row_bytes(layout, Int32(width))
        let stride = cairo_image_surface_get_stride(surface)
        let data = cairo_image_surface_get_data(surface)
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            if let data, let base = buffer.baseAddress {
                pe_pixels_convert(data, Int32(width), Int32(height), stride, layout, base)
                count = rowBytes * height
            } else {
                count = 0
            }
        }
        return PackedPixels(layout: layout, width: width, height: height, rowBytes: rowBytes, bytes: bytes)
    }
}

/// Encoding packed pixels as PNG (`PNGEncoder`) and JPEG (libjpeg-turbo).
package enum ImageEncoding {
    /// The PNG of an opaque colour picture, straight from cairo's pixels (one
    /// pass: no packed copy first), its resolution recorded.
    package static func png(_ image: RasterImage, dpi: Double) -> [UInt8] {
        PNGEncoder.encode(surface: image.surface, width: image.width, height: image.height, dpi: dpi)
    }

    /// PNG bytes: 8-bit RGB, RGBA, gray, gray+alpha or 1-bit gray, with the
    /// resolution `dpi` recorded (pHYs) when it is positive.
    package static func png(_ pixels: PackedPixels, dpi: Double) -> [UInt8] {
        let (colorType, bitDepth): (UInt8, UInt8) =
            switch pixels.layout {
            case PE_PIXELS_RGBA: (6, 8)
            case PE_PIXELS_GRAY: (0, 8)
            case PE_PIXELS_GRAY_ALPHA: (4, 8)
            case PE_PIXELS_MONO: (0, 1)
            default: (2, 8)
            }
        let bytesPerPixel = max(1, Int(pe_pixels_samples(pixels.layout)) * Int(pe_pixels_bits(pixels.layout)) / 8)
        return PNGEncoder.encode(
            rows: pixels.bytes, width: pixels.width, height: pixels.height, rowBytes: pixels.rowBytes,
            bytesPerPixel: bytesPerPixel, colorType: colorType, bitDepth: bitDepth, dpi: dpi)
    }

    /// JPEG bytes at `quality` (1 to 100) from RGB or gray pixels (`file` names
    /// the output in an error).
    package static func jpeg(_ pixels: PackedPixels, quality: Int, dpi: Double, file: String) throws(EngineError)
        -> [UInt8]
    {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = pixels.bytes.withUnsafeBufferPointer { rows in
            pe_jpeg_encode(
                rows.baseAddress, Int32(pixels.width), Int32(pixels.height), pixels.layout, Int32(quality), dpi,
                &output, &size, &message, message.count)
        }
        guard ok == 1, let output else {
            throw EngineError.cannotWrite(file: file, reason: "libjpeg: " + cText(message))
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}

/// A TIFF file written page by page through libtiff (Deflate; CCITT Group 4
/// for 1-bit pages), closed by `close()` (or, unfinished, in `deinit`).
package final class TIFFWriter {
    private var handle: OpaquePointer?
    private let path: String

    /// Creates (truncates) the file at `path`: the caller's temporary.
    package init(path: String) throws(EngineError) {
        self.path = path
        var message = [CChar](repeating: 0, count: 512)
        guard let handle = FileNames.withCString(path, { pe_tiff_open($0, &message, message.count) }) else {
            throw EngineError.cannotWrite(file: path, reason: "libtiff: " + cText(message))
        }
        self.handle = handle
    }

    /// Appends one page.
    package func add(_ pixels: PackedPixels, dpi: Double) throws(EngineError) {
        guard let handle else { throw EngineError.cannotWrite(file: path, reason: "the TIFF file is closed") }
        var message = [CChar](repeating: 0, count: 512)
        let ok = pixels.bytes.withUnsafeBufferPointer { rows in
            pe_tiff_add_page(
                handle, rows.baseAddress, Int32(pixels.width), Int32(pixels.height), pixels.layout, dpi, &message,
                message.count)
        }
        guard ok == 1 else { throw EngineError.cannotWrite(file: path, reason: "libtiff: " + cText(message)) }
    }

    /// Finishes the file.
    package func close() throws(EngineError) {
        guard let handle else { return }
        self.handle = nil
        var message = [CChar](repeating: 0, count: 512)
        guard pe_tiff_close(handle, &message, message.count) == 1 else {
            throw EngineError.cannotWrite(file: path, reason: "libtiff: " + cText(message))
        }
    }

    deinit {
        if let handle {
            var message = [CChar](repeating: 0, count: 64)
            _ = pe_tiff_close(handle, &message, message.count)
        }
    }
}

/// A C library's message from a NUL-terminated buffer.
private func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
