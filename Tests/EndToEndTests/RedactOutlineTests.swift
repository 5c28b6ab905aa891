import Foundation
import Testing

/// `show` and `thumbs` outline a session's pending redaction regions (issue
/// 45), and a thumbnail cached before a redaction is not shown after it. The
/// PNGs the commands write are decoded here by Python's zlib, not by poppler.
@Suite(.serialized) struct RedactOutlineTests {
    /// Width, height and RGB samples of a PNG (8 bits, RGB or RGBA, not interlaced).
    static func png(_ path: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let script = """
            import sys, zlib, struct
            data = open(sys.argv[1], 'rb').read()
            pos, idat = 8, b''
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                if kind == b'IHDR': w, h, depth, colour = struct.unpack('>IIBB', body[:10])
                if kind == b'IDAT': idat += body
                pos += 12 + length
            assert depth == 8 and colour in (2, 6)
            n = 3 if colour == 2 else 4
            raw, stride, rows, prev = zlib.decompress(idat), w * n, [], bytearray(w * n)
            for y in range(h):
                f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
                for i in range(stride):
                    a = line[i - n] if i >= n else 0
                    b = prev[i]
                    c = prev[i - n] if i >= n else 0
                    if f == 1: line[i] = (line[i] + a) & 255
                    elif f == 2: line[i] = (line[i] + b) & 255
                    elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
                    elif f == 4:
                        p = a + b - c
                        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                rows.append(bytes(line[j] for j in range(stride) if j % n < 3))
                prev = line
            open(sys.argv[2], 'wb').write(b'%d %d\\n' % (w, h) + b''.join(rows))
            """
        let decoded = path + ".rgb"
        let result = try run("python3", ["-c", script, path, decoded])
        #expect(result.status == 0, "\(result.stderr)")
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: decoded)))
        let newline = try #require(data.firstIndex(of: 0x0A))
        let size = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        return (size[0], size[1], Array(data[(newline + 1)...]))
    }

    static func isOutline(_ image: (width: Int, height: Int, rgb: [UInt8]), _ x: Int, _ y: Int) -> Bool {
        let i = (y * image.width + x) * 3
        return image.rgb[i] > 200 && image.rgb[i + 1] < 90 && image.rgb[i + 2] < 90
    }

    static func outlinePixels(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where isOutline(image, x, y) { count += 1 }
        }
        return count
    }

    @Test func thumbsAndShowOutlinePendingRegions() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path
        try RedactPDF.write(input, pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")])
        try pdfeditOK("open", input, in: directory)
        func thumbnail() throws -> (width: Int, height: Int, rgb: [UInt8]) {
            try pdfeditOK("thumbs", "t", "--size", "300", "--force", in: directory)
            let folder = directory.appendingPathComponent("t")
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".png") })
            return try Self.png(folder.appendingPathComponent(name).path)
        }
        // Cached before the redaction: the cache must not give it back after.
        let plain = try thumbnail()
        #expect(plain.width == 300 && plain.height == 200 && Self.outlinePixels(plain) == 0)
        try pdfeditOK("redact", "1", "--rect", "100,60,80,40", "--label", "names", in: directory)
        let marked = try thumbnail()
        // 300 px for 300 pt: the region is x 100…180, y 100…140 from the top.
        for (x, y) in [(100, 120), (180, 120), (140, 140), (130, 100)] {
            #expect(Self.isOutline(marked, x, y), "no outline at \(x),\(y)")
        }
        #expect(!Self.isOutline(marked, 140, 120) && !Self.isOutline(marked, 60, 170))
        // The label is written just above the box's top-left corner.
        var label = 0
        for y in 86..<99 {
            for x in 102..<150 where Self.isOutline(marked, x, y) { label += 1 }
        }
        #expect(label > 10, "\(label) label pixels")
        let sheet = directory.appendingPathComponent("sheet.png").path
        try pdfeditOK("show", "-o", sheet, in: directory)
        #expect(Self.outlinePixels(try Self.png(sheet)) > 100)
        // Undone: gone again from both.
        try pdfeditOK("undo", in: directory)
        #expect(Self.outlinePixels(try thumbnail()) == 0)
        try pdfeditOK("show", "-o", sheet, "--force", in: directory)
        #expect(Self.outlinePixels(try Self.png(sheet)) == 0)
    }
}
