/// The three standard 14 fonts a generated stamp may use (`--font`), regular
/// weight, with WinAnsi encoding: every PDF reader has them, nothing is embedded.
package enum StandardFont: String, Codable, CaseIterable, Hashable, Sendable {
    case helvetica, times, courier

    /// The /BaseFont name.
    package var baseFont: String {
        switch self {
        case .helvetica: "Helvetica"
        case .times: "Times-Roman"
        case .courier: "Courier"
        }
    }

    /// The number the bridge takes (`pe_stamp.font`).
    package var code: Int {
        switch self {
        case .helvetica: 0
        case .times: 1
        case .courier: 2
        }
    }

    /// Above and below the baseline, in thousandths of the size (the fonts' AFM Ascender and Descender).
    package var ascender: Double {
        switch self {
        case .helvetica: 718
        case .times: 683
        case .courier: 629
        }
    }

    package var descender: Double {
        switch self {
        case .helvetica: -207
        case .times: -217
        case .courier: -157
        }
    }

    /// The advance of WinAnsi-encoded `bytes` at `size` points.
    package func width(of bytes: [UInt8], size: Double) -> Double {
        let table = widths
        let units = bytes.reduce(0) { $0 + (($1 >= 32) ? Int(table[Int($1) - 32]) : 0) }
        return Double(units) * size / 1000
    }

    /// The box a line of `bytes` fills at `size`: from the start of the baseline,
    /// `width` along it, `descent` (negative) below and `ascent` above it.
    package func box(of bytes: [UInt8], size: Double) -> (width: Double, descent: Double, ascent: Double) {
        (width(of: bytes, size: size), descender * size / 1000, ascender * size / 1000)
    }

    /// Widths of WinAnsi codes 32…255 in thousandths of the size: Adobe's published
    /// metrics of the standard 14 fonts (the Euro from the later core-font AFMs);
    /// 0 where WinAnsi has no character.
    private var widths: [UInt16] {
        switch self {
        case .helvetica:
            [
            278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
            556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
            1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
            667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
            333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
            556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
            556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
            0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
            278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
            400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
            667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
            722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
            556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
            556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
            ]
        case .times:
            [
            250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278,
            500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444,
            921, 722, 667, 667, 722, 611, 556, 722, 722, 333, 389, 722, 611, 889, 722, 722,
            556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333, 278, 333, 469, 500,
            333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500,
            500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541, 0,
            500, 0, 333, 500, 444, 1000, 500, 500, 333, 1000, 556, 333, 889, 0, 611, 0,
            0, 333, 333, 444, 444, 350, 500, 1000, 333, 980, 389, 333, 722, 0, 444, 722,
            250, 333, 500, 500, 500, 500, 200, 500, 333, 760, 276, 500, 564, 333, 760, 333,
            400, 564, 300, 300, 333, 500, 453, 250, 333, 300, 310, 500, 750, 750, 750, 444,
            722, 722, 722, 722, 722, 722, 889, 667, 611, 611, 611, 611, 333, 333, 333, 333,
            722, 722, 722, 722, 722, 722, 722, 564, 722, 722, 722, 722, 722, 722, 556, 500,
            444, 444, 444, 444, 444, 444, 667, 444, 444, 444, 444, 444, 278, 278, 278, 278,
            500, 500, 500, 500, 500, 500, 500, 564, 500, 500, 500, 500, 500, 500, 500, 500,
            ]
        case .courier:
            [
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 0,
            600, 0, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 0, 600, 0,
            0, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 0, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600, 600,
            ]
        }
    }
}

/// PDF's WinAnsiEncoding (Windows code page 1252), which the standard fonts use.
package enum WinAnsi {
    /// The bytes of `text`, or the first character it cannot say.
    package static func encode(_ text: String) -> Result<[UInt8], UnencodableCharacter> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for character in text {
            guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
                let byte = byte(for: scalar.value)
            else { return .failure(UnencodableCharacter(character: character)) }
            bytes.append(byte)
        }
        return .success(bytes)
    }

    private static func byte(for value: UInt32) -> UInt8? {
        switch value {
        case 0x20...0x7E, 0xA0...0xFF: UInt8(value)
        default: special[value]
        }
    }

    /// Code page 1252's characters at 0x80…0x9F.
    private static let special: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98, 0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B, 0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]
}

/// A character the standard fonts' WinAnsi encoding has no code for.
public struct UnencodableCharacter: Error, Equatable, Sendable, CustomStringConvertible {
    public var character: Character

    /// `"→" (U+2192)`.
    public var description: String {
        let codes = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(4) }
        return "\"\(character)\" (\(codes.joined(separator: " ")))"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
