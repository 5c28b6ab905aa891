import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A fast PNG writer for opaque cairo images (thumbnails and contact sheets).
///
/// `cairo_surface_write_to_png` leaves libpng at its defaults: five trial filters
/// per row and zlib level 6, which made writing the sheets cost more than
/// rendering the pages. Thumbnails are mostly flat colour, so this writer does
/// one cheap pass instead: the "Up" filter (row 0: "Sub"), then deflate with only
/// run matches (each byte equal to the one three bytes back: a run of equal
/// pixels) and per-block dynamic Huffman codes — zlib's `Z_RLE` strategy, which
/// zlib's documentation recommends for PNG data. Output is 8-bit RGB; alpha is
/// dropped (everything drawn here is on an opaque background).
enum PNGEncoder {
    /// The PNG bytes of a cairo image surface (`CAIRO_FORMAT_ARGB32` or `RGB24`).
    static func encode(surface: OpaquePointer, width: Int, height: Int) -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface), width > 0, height > 0 else { return [] }
        let filtered = filter(UnsafePointer(data), width: width, height: height, stride: stride)
        var zlib: [UInt8] = [0x78, 0x01]
        zlib.reserveCapacity(filtered.count / 8 + 1024)
        Deflate.compress(filtered, into: &zlib)
        let adler = adler32(filtered)
        zlib += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(zlib.count + 64)
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", zlib, to: &png)
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

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        png += bigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        png += typed
        png += bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                // 5552 is the largest n with 255n(n+1)/2 + (n+1)(65520) < 2^32 (zlib's NMAX).
                let end = min(index + 5552, bytes.count)
                while index < end {
                    a &+= UInt32(bytes[index])
                    b &+= a
                    index += 1
                }
                a %= 65521
                b %= 65521
            }
        }
        return b << 16 | a
    }
}

/// Deflate (RFC 1951) with run matches at distance 3 only and dynamic Huffman blocks.
enum Deflate {
    private static let distance = 3
    /// Symbols per block: enough to amortise a block header, small enough to adapt.
    private static let blockTokens = 1 << 16

    // Length symbols 257...285: base lengths and extra bits (RFC 1951, 3.2.5).
    private static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// For each match length 3...258, its index into `lengthBase`.
    private static let lengthIndex: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        for code in 0..<(lengthBase.count - 1) {
            for length in lengthBase[code]..<(lengthBase[code] + (1 << lengthExtra[code])) where length <= 257 {
                table[length] = UInt8(code)
            }
        }
        table[258] = UInt8(lengthBase.count - 1)  // 258 has a symbol of its own (285)
        return table
    }()
    /// The order code-length code lengths are written in.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Appends the deflate stream of `input` to `out`.
    static func compress(_ input: [UInt8], into out: inout [UInt8]) {
        // Tokens: a literal byte (0...255) or a match, stored as 256 + length.
        var tokens: [UInt16] = []
        tokens.reserveCapacity(input.count / 4 + 16)
        input.withUnsafeBufferPointer { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                if index >= distance {
                    var length = 0
                    while index + length < count, length < 258,
                        bytes[index + length] == bytes[index + length - distance]
                    {
                        length += 1
                    }
                    if length >= 3 {
                        tokens.append(UInt16(256 + length))
                        index += length
                        continue
                    }
                }
                tokens.append(UInt16(bytes[index]))
                index += 1
            }
        }
        var writer = BitWriter(out: out)
        out = []
        var start = 0
        repeat {
            let end = min(start + blockTokens, tokens.count)
            writeBlock(tokens[start..<end], last: end == tokens.count, writer: &writer)
            start = end
        } while start < tokens.count
        out = writer.finish()
    }

    private static func writeBlock(_ tokens: ArraySlice<UInt16>, last: Bool, writer: inout BitWriter) {
        var frequencies = [Int](repeating: 0, count: 286)
        for token in tokens {
            if token < 256 {
                frequencies[Int(token)] += 1
            } else {
                frequencies[257 + Int(lengthIndex[Int(token) - 256])] += 1
            }
        }
        frequencies[256] = 1  // end of block
        let literalLengths = Huffman.lengths(frequencies, limit: 15)
        // Two distance codes of one bit each (a complete code); only distance 3 (code 2) is used.
        var distanceLengths = [Int](repeating: 0, count: 3)
        distanceLengths[0] = 1
        distanceLengths[2] = 1
        let literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 256) + 1)
        let all = Array(literalLengths[0..<literalCount]) + distanceLengths

        var lengthFrequencies = [Int](repeating: 0, count: 19)
        for length in all { lengthFrequencies[length] += 1 }
        let lengthLengths = Huffman.lengths(lengthFrequencies, limit: 7)
        let lengthCodes = Huffman.codes(lengthLengths)
        let headerCount = max(4, (codeLengthOrder.lastIndex { lengthLengths[$0] > 0 } ?? 3) + 1)

        writer.write(last ? 1 : 0, bits: 1)
        writer.write(2, bits: 2)  // dynamic Huffman
        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceLengths.count - 1), bits: 5)
        writer.write(UInt64(headerCount - 4), bits: 4)
        for symbol in codeLengthOrder[0..<headerCount] { writer.write(UInt64(lengthLengths[symbol]), bits: 3) }
        for length in all { writer.write(lengthCodes[length], bits: lengthLengths[length]) }

        let literalCodes = Huffman.codes(literalLengths)
        let distanceCodes = Huffman.codes(distanceLengths)
        for token in tokens {
            if token < 256 {
                writer.write(literalCodes[Int(token)], bits: literalLengths[Int(token)])
            } else {
                let length = Int(token) - 256
                let code = Int(lengthIndex[length])
                writer.write(literalCodes[257 + code], bits: literalLengths[257 + code])
                if lengthExtra[code] > 0 { writer.write(UInt64(length - lengthBase[code]), bits: lengthExtra[code]) }
                writer.write(distanceCodes[2], bits: distanceLengths[2])
            }
        }
        writer.write(literalCodes[256], bits: literalLengths[256])
    }
}

/// Canonical Huffman codes (RFC 1951, 3.2.2), bit-reversed for an LSB-first stream.
enum Huffman {
    /// Code lengths for `frequencies`, none longer than `limit`. Symbols with no
    /// occurrences get 0; if only one symbol occurs, a second one is given a code
    /// too, so that the code is complete.
    static func lengths(_ frequencies: [Int], limit: Int) -> [Int] {
        var weights = frequencies
        var used = weights.indices.filter { weights[$0] > 0 }
        if used.isEmpty {
            weights[0] = 1
            used = [0]
        }
        if used.count == 1 {
            let other = used[0] == 0 ? 1 : 0
            weights[other] = 1
            used.append(other)
        }
        while true {
            let lengths = unlimitedLengths(weights, used: used)
            if lengths.max() ?? 0 <= limit { return lengths }
            // Flatten the distribution and try again: rare symbols get shorter codes.
            for symbol in used { weights[symbol] = max(1, weights[symbol] / 2) }
        }
    }

    private static func unlimitedLengths(_ weights: [Int], used: [Int]) -> [Int] {
        // Nodes: leaves first, then merged nodes; parent links give each leaf's depth.
        var weight = used.map { weights[$0] }
        var parent = [Int](repeating: -1, count: used.count * 2)
        var queue = Array(used.indices).sorted { weight[$0] < weight[$1] }
        var merged: [Int] = []
        var leafIndex = 0
        var mergedIndex = 0
        func takeSmallest() -> Int {
            if leafIndex < queue.count,
                mergedIndex >= merged.count || weight[queue[leafIndex]] <= weight[merged[mergedIndex]]
            {
                leafIndex += 1
                return queue[leafIndex - 1]
            }
            mergedIndex += 1
            return merged[mergedIndex - 1]
        }
        while (queue.count - leafIndex) + (merged.count - mergedIndex) > 1 {
            let a = takeSmallest()
            let b = takeSmallest()
            let node = weight.count
            weight.append(weight[a] + weight[b])
            parent[a] = node
            parent[b] = node
            merged.append(node)
        }
        queue.removeAll()
        var depth = [Int](repeating: 0, count: weight.count)
        for node in stride(from: weight.count - 2, through: 0, by: -1) where parent[node] >= 0 {
            depth[node] = depth[parent[node]] + 1
        }
        var lengths = [Int](repeating: 0, count: weights.count)
        for (leaf, symbol) in used.enumerated() { lengths[symbol] = depth[leaf] }
        return lengths
    }

    /// The canonical code of each symbol, bits reversed (deflate sends codes MSB first
    /// into an LSB-first stream).
    static func codes(_ lengths: [Int]) -> [UInt64] {
        let maxLength = lengths.max() ?? 0
        var counts = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        for bits in 1...max(1, maxLength) {
            code = (code + (bits - 1 < counts.count ? counts[bits - 1] : 0)) << 1
            next[bits] = code
        }
        var codes = [UInt64](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            var value = next[length]
            next[length] += 1
            var reversed: UInt64 = 0
            for _ in 0..<length {
                reversed = reversed << 1 | UInt64(value & 1)
                value >>= 1
            }
            codes[symbol] = reversed
        }
        return codes
    }
}

/// Collects bits least significant first, as deflate wants them.
struct BitWriter {
    private var out: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(out: [UInt8]) { self.out = out }

    mutating func write(_ value: UInt64, bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        while count >= 8 {
            out.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func finish() -> [UInt8] {
        if count > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
        return out
    }
}
