#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

/// The text `pdfedit edit` opens in the user's editor — one line per item —
/// and how the edited text is read back into the lines of a `rearrange` edit.
///
/// A line the program writes starts with the item's id; the rest (position,
/// source and page, size, rotation, label, first words) is there to read and
/// is ignored when read back. What a line may be, read back:
///
///     [r90|r180|r270] ID ...     the item (@p12 or p12); a turn before it turns it
///     blank [SIZE]               a new blank page (SIZE as --size takes it)
///     placeholder [LABEL]        a new placeholder
///     # ...                      a comment; blank lines are ignored too
package enum EditFile {
    /// One item as the file shows it.
    package struct Line: Equatable, Sendable {
        package var id: String
        package var position: Int
        /// `alpha.pdf p.3`, `blank`, `placeholder "Appendix"`, `image logo.png`, `sheet`.
        package var what: String
        package var width: Double?
        package var height: Double?
        /// Degrees, the item's own.
        package var rotation: Int
        package var label: String?
        package var text: String?
    }

    /// The lines of the items `list` describes.
    package static func lines(of listing: Listing) -> [Line] {
        listing.items.map { item in
            let what: String
            switch item.kind {
            case "page": what = "\(item.source.map { Paths.name(of: $0) } ?? "?") p.\(item.sourcePage ?? 0)"
            case "image": what = "image \(item.source.map { Paths.name(of: $0) } ?? "?")"
            case "placeholder": what = "placeholder" + (item.placeholderLabel.map { " \"\($0)\"" } ?? "")
            default: what = item.kind
            }
            return Line(
                id: item.id, position: item.position, what: what, width: item.width, height: item.height,
                rotation: item.rotation, label: item.label, text: item.text)
        }
    }

    /// The lines of a file's pages, as direct mode numbers its items (`p1` is page 1).
    package static func lines(of info: FileInfo) -> [Line] {
        info.pages.map { page in
            Line(
                id: "p\(page.number)", position: page.number, what: "\(Paths.name(of: info.file)) p.\(page.number)",
                width: page.width, height: page.height, rotation: 0, label: page.label, text: page.text)
        }
    }

    /// The file's text: a heading, one line per item, and how to edit it.
    package static func text(_ lines: [Line], document: String) -> String {
        var text = "# pdfedit edit: \"\(document)\", \(pagesPhrase(lines.count)). Reorder the lines, then save and quit.\n"
        for line in lines {
            var columns = [padded(line.id, 5), padded(String(line.position), 3), line.what]
            if let width = line.width, let height = line.height {
                columns.append("\(formatted(width))x\(formatted(height))")
            }
            if line.rotation != 0 { columns.append("rot \(line.rotation)") }
            if let label = line.label { columns.append("label \(label)") }
            if let words = line.text, !words.isEmpty { columns.append("| " + oneLine(words)) }
            text += columns.joined(separator: "  ") + "\n"
        }
        text += """
            #
            # One line per page, in the order the document will have:
            #   move a line to move its page, delete it to remove the page,
            #   copy a line to add a copy of the page (the first line keeps it);
            #   r90, r180 or r270 before the id turns the page clockwise;
            #   a line "blank [SIZE]" or "placeholder [LABEL]" inserts one.
            # Only the id counts (p12 or @p12); the rest of a line is for reading.
            # Lines starting with # are ignored. The whole file is one step: undo takes it back.
            # Save the file unchanged, or remove every line, to change nothing.

            """
        return text
    }

    /// What went wrong reading the file back: its 1-based line and why.
    package struct Problem: Error, Equatable, Sendable {
        package var line: Int
        package var reason: String
    }

    /// The edit the text asks for, checked against the ids the document has.
    /// Empty when the text lists no page at all (which changes nothing).
    package static func read(_ text: String, knownIDs: Set<ItemID>, document: String) throws(Problem)
        -> [ArrangedItem]
    {
        var arranged: [ArrangedItem] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = trimmed(raw)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            var turns = 0
            if let first = words.first, let found = ["r90": 1, "r180": 2, "r270": 3, "r-90": 3][first.lowercased()] {
                turns = found
                words.removeFirst()
                guard !words.isEmpty else { throw Problem(line: number, reason: "\(first) turns a page: give its id after it") }
            }
            let head = words[0]
            switch head.lowercased() {
            case "blank", "placeholder":
                guard turns == 0 else {
                    throw Problem(line: number, reason: "a new \(head.lowercased()) cannot be turned: give it a size instead")
                }
                if head.lowercased() == "blank" {
                    arranged.append(.blank(try size(words.dropFirst().joined(separator: " "), line: number)))
                } else {
                    var label = trimmed(line.dropFirst(head.count))
                    if label.count >= 2, label.hasPrefix("\""), label.hasSuffix("\"") {
                        label = String(label.dropFirst().dropLast())
                    }
                    arranged.append(.placeholder(label: label.isEmpty ? nil : label, size: nil))
                }
            default:
                let idText = head.hasPrefix("@") ? String(head.dropFirst()) : head
                guard let id = ItemID(idText) else {
                    throw Problem(
                        line: number,
                        reason: "\"\(escapingControlCharacters(head))\" is not a page id (p12), blank or placeholder")
                }
                guard knownIDs.contains(id) else {
                    throw Problem(line: number, reason: "\(id) is not a page of \"\(document)\"")
                }
                arranged.append(.item(id, quarterTurns: turns))
            }
        }
        return arranged
    }

    private static func size(_ text: String, line: Int) throws(Problem) -> PageSize? {
        guard !text.isEmpty else { return nil }
        let spec: PageSizeSpec
        do throws(SizeError) { spec = try PageSize.parse(text) } catch {
            throw Problem(line: line, reason: error.description)
        }
        guard case .fixed(let size) = spec else {
            throw Problem(line: line, reason: "a blank page takes a size such as a4 or 210x297mm, not like:P")
        }
        return size
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    private static func formatted(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths.rounded() == tenths ? String(Int(tenths)) : String(tenths)
    }

    private static func oneLine(_ text: String) -> String {
        escapingControlCharacters(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
