/// The parts of PNG decoding that come after inflating: undoing the scanline
/// filters, de-interlacing (Adam7) and splitting alpha from colour.
///
/// Works on the inflated data in place and writes the result into at most two new
/// planes (colour and alpha), so a decode holds about two copies of the pixels.
struct PNGDecoding {
    let header: PNGImage.Header

    /// One Adam7 pass (or the whole image, for a non-interlaced file): which
    /// pixels of the image it holds, and its size.
    struct Pass {
        var xStart: Int, yStart: Int, xStep: Int, yStep: Int
        var width: Int, height: Int
    }

    var passes: [Pass] {
        let steps: [(Int, Int, Int, Int)] =
            header.interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        return steps.map { xStart, yStart, xStep, yStep in
            Pass(
                xStart: xStart, yStart: yStart, xStep: xStep, yStep: yStep,
                width: header.width > xStart ? (header.width - xStart + xStep - 1) / xStep : 0,
                height: header.height > yStart ? (header.height - yStart + yStep - 1) / yStep : 0)
        }
    }

    /// Bytes of inflated data the image needs: every non-empty pass's rows, each
    /// with its filter byte. Nil when the size does not fit in memory sensibly.
    var inflatedSize: Int? {
        var total = 0
        for pass in passes where pass.width > 0 && pass.height > 0 {
            let (row, o1) = (header.rowBytes(width: pass.width)).addingReportingOverflow(1)
            let (size, o2) = row.multipliedReportingOverflow(by: pass.height)
            let (sum, o3) = total.addingReportingOverflow(size)
            if o1 || o2 || o3 { return nil }
            total = sum
        }
        return total
    }

    /// Bytes of one output row of colour samples (packed, as PDF wants them).
    var colorRowBytes: Int { (header.width * header.colorChannels * header.bitDepth + 7) / 8 }

    /// Undoes the five scanline filters (None, Sub, Up, Average, Paeth) of every
    /// pass, in place. Each row's filter byte stays where it was. `data` must hold
    /// at least `inflatedSize` bytes.
    func unfilter(_ data: UnsafeMutableBufferPointer<UInt8>) throws(PNGDecodingError) {
        guard let base = data.baseAddress, let needed = inflatedSize, data.count >= needed else {
            throw PNGDecodingError(reason: "truncated image data")
        }
        let stride = header.filterStride
        var offset = 0
        for pass in passes where pass.width > 0 && pass.height > 0 {
            let rowBytes = header.rowBytes(width: pass.width)
            let leftStart = min(stride, rowBytes)
            for row in 0..<pass.height {
                let filter = base[offset]
                let current = base + offset + 1
                let previous = row == 0 ? nil : current - rowBytes - 1
                switch (filter, previous) {
                case (0, _), (2, nil):
                    break
                case (1, _), (4, nil):  // Paeth with no row above predicts from the left
                    for i in leftStart..<rowBytes { current[i] &+= current[i - stride] }
                case (2, let above?):
                    for i in 0..<rowBytes { current[i] &+= above[i] }
                case (3, nil):
                    for i in leftStart..<rowBytes { current[i] &+= current[i - stride] >> 1 }
                case (3, let above?):
                    for i in 0..<leftStart { current[i] &+= above[i] >> 1 }
                    for i in leftStart..<rowBytes {
                        current[i] &+= UInt8((Int(current[i - stride]) + Int(above[i])) >> 1)
                    }
                case (4, let above?):
                    for i in 0..<leftStart { current[i] &+= above[i] }  // Paeth(0, b, 0) = b
                    for i in leftStart..<rowBytes {
                        current[i] &+= Self.paeth(current[i - stride], above[i], above[i - stride])
                    }
                default:
                    throw PNGDecodingError(reason: "corrupt: unknown scanline filter \(filter)")
                }
                offset += 1 + rowBytes
            }
        }
    }

    private static func paeth(_ left: UInt8, _ above: UInt8, _ aboveLeft: UInt8) -> UInt8 {
        let a = Int(left), b = Int(above), c = Int(aboveLeft)
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? left : pb <= pc ? above : aboveLeft
    }

    /// Gathers the unfiltered passes into one image: a colour plane (rows packed,
    /// `colorRowBytes` each) and, for colour types 4 and 6, an alpha plane at the
    /// same bit depth. Samples keep their stored bit depth (16-bit stays 16-bit).
    /// `data` must have passed `unfilter`.
    /// The planes are allocated with `calloc`: nil when memory is short (a Swift
    /// array would end the process instead).
    func planes(_ data: UnsafeMutableBufferPointer<UInt8>) -> (color: MallocBuffer, alpha: MallocBuffer?)? {
        let width = header.width
        let depth = header.bitDepth
        let hasAlpha = header.hasAlphaChannel
        let sampleBytes = max(1, depth / 8)
        guard let color = MallocBuffer.zeroed(count: colorRowBytes * header.height),
            let alpha = MallocBuffer.zeroed(count: hasAlpha ? width * header.height * sampleBytes : 0)
        else { return nil }
        guard let source = data.baseAddress else { return (color, nil) }
        let colorBuffer = color.bytes, alphaBuffer = alpha.bytes
        guard let colorOut = colorBuffer.baseAddress else { return nil }
        var offset = 0
        for pass in passes where pass.width > 0 && pass.height > 0 {
            let rowBytes = header.rowBytes(width: pass.width)
            for row in 0..<pass.height {
                let line = source + offset + 1
                let y = pass.yStart + row * pass.yStep
                let outLine = colorOut + y * colorRowBytes
                if !header.interlaced && !hasAlpha {
                    outLine.update(from: line, count: rowBytes)
                } else if depth < 8 {
                    // Gray or palette at 1, 2 or 4 bits: one sample per pixel, no alpha.
                    let mask = (1 << depth) - 1
                    for column in 0..<pass.width {
                        let bit = column * depth
                        let value = Int(line[bit / 8]) >> (8 - depth - bit % 8) & mask
                        let outBit = (pass.xStart + column * pass.xStep) * depth
                        outLine[outBit / 8] |= UInt8(value << (8 - depth - outBit % 8))
                    }
                } else {
                    let colorBytes = header.colorChannels * sampleBytes
                    let pixelBytes = header.channels * sampleBytes
                    for column in 0..<pass.width {
                        let x = pass.xStart + column * pass.xStep
                        let pixel = line + column * pixelBytes
                        (outLine + x * colorBytes).update(from: pixel, count: colorBytes)
                        if hasAlpha, let alphaOut = alphaBuffer.baseAddress {
                            (alphaOut + (y * width + x) * sampleBytes)
                                .update(from: pixel + colorBytes, count: sampleBytes)
                        }
                    }
                }
                offset += 1 + rowBytes
            }
        }
        return (color, hasAlpha ? alpha : nil)
    }

    /// An 8-bit alpha plane for a palette image from its tRNS chunk: each pixel's
    /// index looked up in `alphas` (entries past its end are opaque).
    func paletteAlpha(indices: MallocBuffer, alphas: [UInt8]) -> MallocBuffer? {
        let depth = header.bitDepth
        let mask = (1 << depth) - 1
        var lookup = [UInt8](repeating: 255, count: 256)
        for (index, value) in alphas.enumerated() { lookup[index] = value }
        guard let alpha = MallocBuffer.zeroed(count: header.width * header.height) else { return nil }
        let out = alpha.bytes, indices = indices.bytes
        for y in 0..<header.height {
            for x in 0..<header.width {
                let bit = x * depth
                let index = Int(indices[y * colorRowBytes + bit / 8]) >> (8 - depth - bit % 8) & mask
                out[y * header.width + x] = lookup[index]
            }
        }
        return alpha
    }
}

extension PNGDecoding {
    /// An 8-bit alpha plane for 16-bit gray or RGB with a key colour (tRNS): 0 where
    /// all of a pixel's 16-bit samples equal `key`, 255 elsewhere.
    func keyAlpha(color: MallocBuffer, key: [Int]) -> MallocBuffer? {
        let channels = header.colorChannels
        guard let alpha = MallocBuffer.zeroed(count: header.width * header.height) else { return nil }
        let out = alpha.bytes, color = color.bytes
        for pixel in 0..<out.count {
            var matches = true
            for channel in 0..<channels {
                let offset = (pixel * channels + channel) * 2
                if Int(color[offset]) << 8 | Int(color[offset + 1]) != key[channel] {
                    matches = false
                    break
                }
            }
            out[pixel] = matches ? 0 : 255
        }
        return alpha
    }
}

struct PNGDecodingError: Error {
    var reason: String
}
