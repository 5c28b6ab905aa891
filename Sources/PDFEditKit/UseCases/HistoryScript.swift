import PageModel

/// `history --script`: a session's steps as a script `run` and `apply` accept.
/// Each step's label is the command line that made it, so a replayable step
/// is its label; what the command line's script grammar cannot read (given as
/// `replayable`) becomes a comment, and a step naming items by id (`@p12`,
/// this session's own names) keeps its line under a warning.
package enum HistoryScript {
    /// `selection(id, step, doc)`: a selection token naming item `id` as it
    /// was before step `step` in document `doc` (nil: the current one then),
    /// which replaces `@id` in the step's selections (not in positions:
    /// `--before @p3`); nil keeps the id, under the warning.
    package static func lines(
        of entries: [HistoryEntry], steps: String?, replayable: (String) -> Bool,
        selection: (ItemID, Int, String?) -> String? = { _, _, _ in nil }
    ) throws(PDFEditError) -> [String] {
        let count = entries.filter { !$0.isUndone }.count
        return try lines(
            of: entries, range: try steps.map { (text) throws(PDFEditError) in try Self.range(text, count: count) },
            replayable: replayable, selection: selection)
    }

    /// As `lines(of:steps:replayable:selection:)`, the steps given as a range
    /// (nil: every step done), which must lie within the steps done.
    package static func lines(
        of entries: [HistoryEntry], range: ClosedRange<Int>?, replayable: (String) -> Bool,
        selection: (ItemID, Int, String?) -> String? = { _, _, _ in nil }
    ) throws(PDFEditError) -> [String] {
        let done = entries.filter { !$0.isUndone }
        let chosen: [HistoryEntry]
        if let range {
            guard range.lowerBound >= 1, range.upperBound <= done.count else {
                throw PDFEditError.usage(
                    "\"\(range.lowerBound)..\(range.upperBound)\" is not a range of steps: give N or N..M within 1…\(done.count)")
            }
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
                let (line, converted) = Self.convertingIDs(entry.label, step: entry.index, selection: selection)
                if line.split(separator: " ").contains(where: { Self.namesAnItem($0) }) {
                    lines.append("# warning: step \(entry.index) names items by id, which name nothing in another file")
                } else if !converted.isEmpty {
                    lines.append(
                        "# step \(entry.index): " + converted.map { "\($0.id) written as \($0.token)" }.joined(separator: ", ")
                            + " (the same pages in this session)")
                }
                lines.append(escapingControlCharacters(line))
            }
        }
        return lines
    }

    /// `label` with each `@id` of its selections replaced by `selection`'s
    /// token, and what was replaced. Words after `--before`, `--after`, `--to`
    /// and `--at` are positions, which take no `text:` or `label:`.
    static func convertingIDs(
        _ label: String, step: Int, selection: (ItemID, Int, String?) -> String?
    ) -> (String, [(id: String, token: String)]) {
        var words = label.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let doc = words.firstIndex(of: "--doc").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
        var converted: [(id: String, token: String)] = []
        for index in words.indices {
            if index > 0, ["--before", "--after", "--to", "--at", "--doc"].contains(words[index - 1]) { continue }
            guard Self.namesAnItem(Substring(words[index])) else { continue }
            var pieces: [String] = []
            var replaced: [(id: String, token: String)] = []
            var all = true
            for piece in words[index].split(separator: ",", omittingEmptySubsequences: false) {
                guard piece.hasPrefix("@"), let id = ItemID(String(piece.dropFirst())), let token = selection(id, step, doc)
                else {
                    all = all && !piece.hasPrefix("@")
                    pieces.append(String(piece))
                    continue
                }
                pieces.append(token)
                replaced.append((String(piece), token))
            }
            // All of a selection's ids or none: a half-converted word would still name this session's items.
            if all {
                words[index] = ScriptText.quotedWord(pieces.joined(separator: ","))
                converted += replaced
            }
        }
        return (words.joined(separator: " "), converted)
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
