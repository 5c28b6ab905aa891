import Foundation
import PDFEditKit

/// A left-aligned text table; the last column may be long.
func table(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows
    var widths = [Int](repeating: 0, count: header.count)
    for row in all {
        for (index, cell) in row.enumerated() where index < widths.count - 1 {
            widths[index] = max(widths[index], cell.count)
        }
    }
    return all.map { row in
        row.enumerated().map { index, cell in
            index < widths.count - 1 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
}

extension String {
    /// Without trailing spaces: leading ones belong to an empty first column
    /// (the `*` marker of `docs`) and keep the columns aligned.
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// Points without a useless ".0".
func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
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
