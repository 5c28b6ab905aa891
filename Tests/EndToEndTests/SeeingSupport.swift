import Foundation
import Testing

/// Reading pictures without the code under test: PNG pixels through a small Python
/// decoder (zlib from the standard library), PPM from `pdftoppm` parsed here.
enum Pixels {
    typealias RGB = (red: Int, green: Int, blue: Int)

    /// A binary PGM (`pdftoppm -gray`): width, height and the grey samples
    /// (header: magic, width, height, maxval, each followed by one white space).
    static func pgm(_ data: [UInt8]) -> (width: Int, height: Int, pixels: [UInt8]) {
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < data.count {
            var word = ""
            while index < data.count, data[index] != 0x20, data[index] != 0x0A {
                word.append(Character(UnicodeScalar(data[index])))
                index += 1
            }
            index += 1
            if !word.isEmpty { fields.append(word) }
        }
        guard fields.count == 4, index <= data.count else { return (0, 0, []) }
        return (Int(fields[1]) ?? 0, Int(fields[2]) ?? 0, Array(data[index...]))
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ path: String) throws -> (width: Int, height: Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try #require(data.count > 24 && data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let bytes = [UInt8](data.prefix(24))
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        try #require(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        return (number(16), number(20))
    }

    /// The colours of a PNG at the given points (8-bit RGB or RGBA, any filter).
    static func png(_ path: String, at points: [(x: Int, y: Int)]) throws -> [RGB] {
        let arguments = ["-c", decoder, path] + points.map { "\($0.x),\($0.y)" }
        let result = try run("python3", arguments)
        try #require(result.status == 0, "python PNG decoder: \(result.stderr)")
        return result.stdout.split(separator: "\n").map { line in
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            return (numbers[0], numbers[1], numbers[2])
        }
    }

    /// The colour `pdftoppm` (an independent renderer) gives at a fraction of a page.
    static func reference(_ pdf: String, page: Int, fraction: [Double]) throws -> RGB {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = directory.appendingPathComponent("page").path
        let result = try run(
            "pdftoppm", ["-r", "20", "-f", "\(page)", "-l", "\(page)", "-cropbox", "-singlefile", pdf, prefix])
        try #require(result.status == 0, "pdftoppm: \(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        // P6 header: "P6\nW H\n255\n" then RGB bytes. pdftoppm writes no comments.
        var fields: [Int] = []
        var index = 2
        var current = ""
        while fields.count < 3, index < bytes.count {
            let character = Character(UnicodeScalar(bytes[index]))
            if character.isWhitespace {
                if let value = Int(current) { fields.append(value) }
                current = ""
            } else {
                current.append(character)
            }
            index += 1
        }
        try #require(fields.count == 3)
        let (width, height) = (fields[0], fields[1])
        let x = min(width - 1, Int(Double(width) * fraction[0]))
        let y = min(height - 1, Int(Double(height) * fraction[1]))
        let offset = index + (y * width + x) * 3
        return (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
    }

    static func close(_ a: RGB, _ b: RGB, within tolerance: Int = 16) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    static func isDark(_ color: RGB) -> Bool { color.red < 90 && color.green < 90 && color.blue < 90 }
    static func isLight(_ color: RGB) -> Bool { color.red > 215 && color.green > 215 && color.blue > 215 }

    private static let decoder = #"""
        import sys, zlib, struct
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n'
        pos, idat = 8, b''
        while pos < len(data):
            n = struct.unpack('>I', data[pos:pos + 4])[0]
            kind = data[pos + 4:pos + 8]
            if kind == b'IHDR':
                w, h, depth, ctype = struct.unpack('>IIBB', data[pos + 8:pos + 18])
            elif kind == b'IDAT':
                idat += data[pos + 8:pos + 8 + n]
            pos += 12 + n
        assert depth == 8 and ctype in (2, 6)
        bpp = 3 if ctype == 2 else 4
        raw = zlib.decompress(idat)
        points = [tuple(map(int, p.split(','))) for p in sys.argv[2:]]
        last = max(y for _, y in points)
        stride = w * bpp
        prev = bytearray(stride)
        rows = []
        for y in range(last + 1):
            f = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            if f == 1:
                for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
            elif f == 2:
                line = bytearray((a + b) & 255 for a, b in zip(line, prev))
            elif f == 3:
                for i in range(stride):
                    left = line[i - bpp] if i >= bpp else 0
                    line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
            elif f == 4:
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b = prev[i]
                    c = prev[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            prev = line
        for x, y in points:
            px = rows[y][x * bpp:x * bpp + 3]
            print(px[0], px[1], px[2])
        """#
}

/// The fixtures' documented facts (Fixtures/fixtures.json), as far as these tests need them.
struct FixturePage: Decodable {
    var page: Int
    var colorRGB: [Int]
    var probeFraction: [Double]
    var markerFraction: [Double]

    enum CodingKeys: String, CodingKey {
        case page
        case colorRGB = "color_rgb"
        case probeFraction = "probe_fraction"
        case markerFraction = "marker_fraction"
    }

    var color: Pixels.RGB { (colorRGB[0], colorRGB[1], colorRGB[2]) }

    static func pages(of file: String) throws -> [FixturePage] {
        struct File: Decodable { var pages: [FixturePage] }
        let data = try Data(contentsOf: Paths.fixtures.appendingPathComponent("fixtures.json"))
        let all = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try JSONSerialization.data(withJSONObject: try #require(all[file]))
        return try JSONDecoder().decode(File.self, from: entry).pages
    }
}

/// `show --json`, `thumbs --json`, `find --json` and `list --json` as the tests read them.
struct SheetJSON: Decodable {
    struct Cell: Decodable {
        var position: Int
        var id: String
        var kind: String
        var label: String?
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }
    struct Sheet: Decodable {
        var file: String
        var width: Int
        var height: Int
        var columns: Int
        var rows: Int
        var items: [Cell]
    }
    var document: String
    var itemCount: Int
    var thumbnailSize: Int
    var sheets: [Sheet]
    var rendered: Int
    var cached: Int
    var reusedSheets: Int
}

struct ThumbsJSON: Decodable {
    struct File: Decodable {
        var position: Int
        var id: String
        var kind: String
        var file: String
        var width: Int
        var height: Int
    }
    var document: String
    var directory: String
    var files: [File]
    var rendered: Int
    var cached: Int
}

struct FindJSON: Decodable {
    struct Match: Decodable {
        var position: Int
        var id: String
        var source: String?
        var sourcePage: Int?
        var label: String?
        var excerpt: String
    }
    var document: String
    var query: String
    var caseSensitive: Bool
    var matches: [Match]
}

struct ListJSON: Decodable {
    struct Item: Decodable {
        var position: Int
        var id: String
        var kind: String
        var sourcePage: Int?
        var rotation: Int
        var label: String?
        var text: String?
    }
    var document: String
    var items: [Item]
}

/// Decodes a command's JSON output, failing the test with its stderr when it is not JSON.
func decode<T: Decodable>(_ type: T.Type, _ result: Run) throws -> T {
    #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
    do {
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    } catch {
        Issue.record("not \(T.self): \(result.stdout) \(result.stderr)")
        throw error
    }
}

/// A temporary directory holding copies of some fixtures, with a session opened on them.
func sessionDirectory(opening files: String...) throws -> URL {
    let directory = try temporaryDirectory()
    for file in files {
        try FileManager.default.copyItem(
            atPath: Paths.fixture(file), toPath: directory.appendingPathComponent(file).path)
    }
    let opened = try pdfedit(args: ["open"] + files, in: directory)
    #expect(opened.status == 0, "\(opened.stderr)")
    return directory
}
