import PageModel

/// `history --script`: a session's steps as a script `run` and `apply` accept.
/// Each step's label is the command line that made it, so a replayable step
/// is its label; what the command line's script grammar cannot read (given as
/// `replayable`) becomes a comment, and a step naming items by id (`@p12`,
/// this session's own names) keeps its line under a warning.
package enum HistoryScript {
    package static func lines(
        of entries: [HistoryEntry], steps: String?, replayable: (String) -> Bool
    ) throws(PDFEditError) -> [String] {
        let done = entries.filter { !$0.isUndone }
        let chosen: [HistoryEntry]
        if let steps {
            let range = try Self.range(steps, count: done.count)
            chosen = done.filter { range.contains($0.index) }
        } else {
            chosen = done
        }
        var lines = ["# pdfedit history --script: \(chosen.count == 1 ? "1 step" : "\(chosen.count) steps"); replay with pdfedit run or apply"]
        for entry in chosen {
            let label = escapingControlCharacters(entry.label)
            if entry.label.contains("***") {
                lines.append("# step \(entry.index) used a password, which is not recorded: \(label)")
            } else if entry.label == "edit" || !replayable(entry.label) {
                lines.append("# step \(entry.index) cannot be a script line: \(label)")
            } else {
                if entry.label.split(separator: " ").contains(where: { Self.namesAnItem($0) }) {
                    lines.append("# warning: step \(entry.index) names items by id, which name nothing in another file")
                }
                lines.append(label)
            }
        }
        return lines
    }

    /// `N..M`, `N`: steps among the `count` done ones.
    private static func range(_ text: String, count: Int) throws(PDFEditError) -> ClosedRange<Int> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: true)
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, (1...2).contains(numbers.count),
            text.contains("..") == (numbers.count == 2),
            let first = numbers.first, let last = numbers.last, first >= 1, first <= last, last <= count
        else {
            throw PDFEditError.usage("\"\(escapingControlCharacters(text))\" is not a range of steps: give N or N..M within 1…\(count)")
        }
        return first...last
    }

    /// A word holding `@p12` (a selection or a position naming an item).
    private static func namesAnItem(_ word: Substring) -> Bool {
        word.split(separator: ",").contains { piece in
            let token = piece.drop { $0 == "\"" }
            return token.hasPrefix("@") && ItemID(String(token.dropFirst().prefix { $0 != "\"" })) != nil
        }
    }
}
