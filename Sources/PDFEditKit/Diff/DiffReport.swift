/// `diff`'s answer as text: one line per page that is not the same, in the
/// order of `DocumentDiff.pages`, then one line of summary.
///
///     3 -> 1  moved
///     7 -> -  removed
///     - -> 5  inserted
///     2 -> 2  rotated 90
///     9 -> 9  changed at 72,90-540,180 (points from the top left)
extension DocumentDiff {
    /// The answer as `pdfedit diff` prints it: one line per page that differs, then the summary.
    public var reportLines: [String] {
        var lines: [String] = []
        for entry in pages where entry.status != ["same"] {
            let left = entry.leftLabel ?? entry.left.map { String($0) } ?? "-"
            let right = entry.right.map { String($0) } ?? "-"
            let words = entry.status.map { word -> String in
                switch word {
                case "rotated": return "rotated \(entry.rotation ?? 0)"
                case "changed":
                    let regions = (entry.regions ?? []).map { region in
                        "\(Self.number(region.x0)),\(Self.number(region.y0))-\(Self.number(region.x1)),\(Self.number(region.y1))"
                    }
                    return regions.isEmpty ? "changed (text only)" : "changed at " + regions.joined(separator: " ")
                default: return word
                }
            }
            lines.append("\(left) -> \(right)  \(words.joined(separator: ", "))")
        }
        lines.append(summary)
        return lines
    }

    /// `a.pdf (5 pages) and b.pdf (4 pages) differ: 1 removed, 1 rotated`, or that they are the same.
    public var summary: String {
        let sides = "\(left.name) (\(Self.pages(left.pages))) and \(right.name) (\(Self.pages(right.pages)))"
        if same { return "\(sides) are the same" }
        let parts = [
            (counts.moved, "moved"), (counts.removed, "removed"), (counts.inserted, "inserted"),
            (counts.rotated, "rotated"), (counts.changed, "changed"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return "\(sides) differ: " + parts.joined(separator: ", ")
    }

    private static func pages(_ count: Int) -> String { count == 1 ? "1 page" : "\(count) pages" }

    private static func number(_ value: Double) -> String { String(Int(value.rounded())) }
}
