import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import QPDFCore

/// A fast PNG writer for opaque cairo images (thumbnails and contact sheets).
///
/// `cairo_surface_write_to_png` leaves libpng at its defaults: five trial filters
/// per row and zlib's default strategy, which made writing the sheets cost more
/// than rendering the pages. Thumbnails are mostly flat colour, so this writer
/// does one cheap pass instead: the "Up" filter (row 0: "Sub"), which turns flat
/// colour into runs of zeros, then zlib with its `Z_RLE` strategy
/// (`pe_deflate_rle`), which zlib's manual recommends for PNG data. The chunk
/// framing is all that is written here; zlib makes the stream and the CRCs.
/// Output is 8-bit RGB; alpha is dropped (everything drawn here is on an opaque
/// background).
enum PNGEncoder {
    /// The PNG bytes of a cairo image surface (`CAIRO_FORMAT_ARGB32` or `RGB24`);
    /// empty when zlib fails (short of memory).
    static func encode(surface: OpaquePointer, width: Int, height: Int, dpi: Double = 0) -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface), width > 0, height > 0 else { return [] }
        let filtered = filter(UnsafePointer(data), width: width, height: height, stride: stride)
        var size = 0
        guard let deflated = filtered.withUnsafeBufferPointer({ pe_deflate_rle($0.baseAddress, $0.count, &size) })
        else { return [] }
        defer { free(deflated) }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(size + 64)
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendResolution(dpi, to: &png)
        appendChunk("IDAT", UnsafeBufferPointer(start: deflated, count: size), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The PNG bytes of packed rows (`rowBytes` each, no filter bytes) of
    /// `colorType` and `bitDepth`, filtered as above ("Sub" on the first row,
    /// "Up" after it, `bytesPerPixel` apart: 1 for sub-byte depths, as PNG
    /// says), with a pHYs chunk for `dpi` when it is positive. What `render`
    /// writes; empty when zlib fails.
    static func encode(
        rows: [UInt8], width: Int, height: Int, rowBytes: Int, bytesPerPixel: Int, colorType: UInt8, bitDepth: UInt8,
        dpi: Double
    ) -> [UInt8] {
        guard width > 0, height > 0, rows.count >= rowBytes * height else { return [] }
        let lineBytes = rowBytes + 1
        let filtered = [UInt8](unsafeUninitializedCapacity: lineBytes * height) { out, count in
            rows.withUnsafeBufferPointer { source in
                guard let out = out.baseAddress, let data = source.baseAddress else { return }
                for y in 0..<height {
                    let row = data + y * rowBytes
                    let target = out + y * lineBytes + 1
                    if y == 0 {
                        out[0] = 1  // Sub
                        for x in 0..<min(bytesPerPixel, rowBytes) { target[x] = row[x] }
                        if rowBytes > bytesPerPixel {
                            for x in bytesPerPixel..<rowBytes { target[x] = row[x] &- row[x - bytesPerPixel] }
                        }
                    } else {
                        out[y * lineBytes] = 2  // Up
                        let above = row - rowBytes
                        for x in 0..<rowBytes { target[x] = row[x] &- above[x] }
                    }
                }
            }
            count = lineBytes * height
        }
        var size = 0
        guard let deflated = filtered.withUnsafeBufferPointer({ pe_deflate_rle($0.baseAddress, $0.count, &size) })
        else { return [] }
        defer { free(deflated) }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(size + 96)
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [bitDepth, colorType, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        appendResolution(dpi, to: &png)
        appendChunk("IDAT", UnsafeBufferPointer(start: deflated, count: size), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Rows as PNG scanlines: a filter byte, then R G B per pixel, filtered. Reads
    /// the surface directly: cairo keeps native-endian 32-bit pixels, B G R A in
    /// memory on a little-endian machine.
    private static func filter(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt8] {
        let lineBytes = width * 3 + 1
        return [UInt8](unsafeUninitializedCapacity: lineBytes * height) { out, count in
            guard let out = out.baseAddress else { return }
            for y in 0..<height {
                let row = data + y * stride
                var target = out + y * lineBytes
                if y == 0 {
                    target.pointee = 1  // Sub: each pixel minus the one on its left
                    target += 1
                    var left: (UInt8, UInt8, UInt8) = (0, 0, 0)
                    for x in 0..<width {
                        let pixel = row + 4 * x
                        let red = pixel[2]
                        let green = pixel[1]
                        let blue = pixel[0]
                        target[0] = red &- left.0
                        target[1] = green &- left.1
                        target[2] = blue &- left.2
                        left = (red, green, blue)
                        target += 3
                    }
                } else {
                    target.pointee = 2  // Up: each pixel minus the one above it
                    target += 1
                    let above = row - stride
                    for x in 0..<width {
                        let pixel = row + 4 * x
                        let over = above + 4 * x
                        target[0] = pixel[2] &- over[2]
                        target[1] = pixel[1] &- over[1]
                        target[2] = pixel[0] &- over[0]
                        target += 3
                    }
                }
            }
            count = lineBytes * height
        }
    }

    /// A pHYs chunk recording `dpi` (as pixels a metre), when it is positive.
    private static func appendResolution(_ dpi: Double, to png: inout [UInt8]) {
        guard dpi > 0, dpi.isFinite else { return }
        let perMetre = bigEndian(UInt32(min(Double(UInt32.max), (dpi / 0.0254).rounded())))
        appendChunk("pHYs", perMetre + perMetre + [1], to: &png)
    }

    private static func appendChunk<Data: Collection<UInt8>>(_ type: String, _ data: Data, to png: inout [UInt8]) {
        png += bigEndian(UInt32(data.count))
        let typeStart = png.count
        png += Array(type.utf8)
        png += data
        let crc = png.withUnsafeBufferPointer { bytes in
            pe_crc32(0, bytes.baseAddress.map { $0 + typeStart }, bytes.count - typeStart)
        }
        png += bigEndian(UInt32(truncatingIfNeeded: crc))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
