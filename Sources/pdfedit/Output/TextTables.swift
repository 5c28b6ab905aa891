#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PDFEditKit
import PageModel

/// A left-aligned text table; the last column may be long. Each cell is one
/// line: control characters in it (a file name's line break or escape
/// sequence) are escaped (`shown`).
func table(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows.map { $0.map(shown) }
    var widths = [Int](repeating: 0, count: header.count)
    for row in all {
        for (index, cell) in row.enumerated() where index < widths.count - 1 {
            widths[index] = max(widths[index], cell.count)
        }
    }
    return all.map { row in
        row.enumerated().map { index, cell in
            index < widths.count - 1 ? cell.padded(to: widths[index]) : cell
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
}

extension String {
    /// Cut or filled with spaces to `length` characters (as Foundation's
    /// `padding(toLength:withPad:startingAt:)` with one space).
    func padded(to length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }

    /// Without trailing spaces: leading ones belong to an empty first column
    /// (the `*` marker of `docs`) and keep the columns aligned. One backward
    /// scan of the bytes: a row whose last cells are empty ends in as many
    /// spaces as a 40,000-character label is wide, and dropping them one
    /// `Character` at a time took time quadratic in that width.
    func trimmingTrailingSpaces() -> String {
        let bytes = utf8
        guard let last = bytes.lastIndex(where: { $0 != UInt8(ascii: " ") }) else { return "" }
        // A space is one byte and never inside another character's bytes.
        return String(decoding: bytes[...last], as: UTF8.self)
    }
}

/// Points without a useless ".0".
func format(_ value: Double) -> String {
    // Whole numbers up to 2^53 as integers; anything else through printf, which
    // takes any double (a size read from a damaged file may be 1e20 or infinite:
    // `Int(value)` trapped on those).
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int(value)) }
    // printf's "%.2f" (String(format:) is full Foundation's); "%.6g" past 10^15.
    let pattern = abs(value) < 1e15 ? "%.2f" : "%.6g"
    var buffer = [UInt8](repeating: 0, count: 64)
    let length = buffer.withUnsafeMutableBytes { bytes in
        withVaList([value]) { vsnprintf(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count, pattern, $0) }
    }
    return String(decoding: buffer.prefix(max(0, min(Int(length), buffer.count - 1))), as: UTF8.self)
}

/// A short description of an item's stamps for `list`'s table: each stamp's file
/// name, `:K` for a page other than 1, or its kind and text as written on this
/// page (`number "Page 3 of 5"`), then its options (`under`, `fit`, `30%`, the
/// position when not centred).
func stampMarker(_ stamps: [ListedStamp]) -> String {
    stamps.map { stamp in
        var words: [String]
        if let text = stamp.text {
            words = [stamp.kind, "\"\(text)\""]
        } else {
            let page = stamp.page ?? 1
            words = [Paths.name(of: stamp.source ?? "") + (page == 1 ? "" : ":\(page)")]
        }
        if stamp.under { words.append("under") }
        if stamp.fit { words.append("fit") }
        if stamp.opacity != 1 { words.append("\(format(stamp.opacity * 100))%") }
        if stamp.position != StampPosition.center.rawValue { words.append(stamp.position) }
        if stamp.offset.contains(where: { $0 != 0 }) { words.append(stamp.offset.map { format($0) }.joined(separator: ",")) }
        return words.joined(separator: " ")
    }.joined(separator: ", ")
}
