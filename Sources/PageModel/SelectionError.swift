/// Why a selection or a position cannot be used. Every case names the
/// offending token; the ones found while resolving against a document also
/// carry its page count. Errors found while parsing, before any document is
/// known, carry `nil` until `inDocument(pageCount:)` fills it in.
public enum SelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace.
    case empty(pageCount: Int?)
    /// `1,,2`, a leading or a trailing comma; `after` is the token before it.
    case emptyToken(after: String?, pageCount: Int?)
    case malformed(token: String, pageCount: Int?)
    /// `5..3`: the first end is after the second.
    case descendingRange(token: String, pageCount: Int?)
    /// A position (or part of a range) below 1 or past the last page.
    case outOfRange(token: String, pageCount: Int)
    /// `position` (1-based) is selected by `token` and already by `firstToken`.
    case duplicate(token: String, position: Int, firstToken: String, pageCount: Int)
    /// `@ID` names no item of the document.
    case unknownID(token: String, pageCount: Int)
    /// A `text:` token where no page text is available.
    case textWithoutLookup(token: String)
    /// An `empty` token where pages cannot be rendered.
    case renderingWithoutLookup(token: String)
    /// A token that looks at the pages (`annotated`, `dup`, `landscape` …) where they cannot be read.
    case pagesWithoutLookup(token: String)
    /// `odd`, `even` or `all` that selects no page at all (an empty document, `even` of one page).
    case selectsNothing(token: String, pageCount: Int)
    /// Only page-dependent tokens (`text:`, `empty`, `landscape`, `dup` …), and none of them matched a
    /// page: not a mistake in the command but an answer about the pages. An edit
    /// then changes nothing and succeeds (DESIGN.md, "Selections that depend on
    /// the pages"): `Session.execute` turns this into a summary saying so.
    case matchedNothing(tokens: [String], pageCount: Int)
    /// `@ID` where a destination position is meant (`--to`, `--at`).
    case idNotAPosition(token: String)
    /// A destination position outside what this command allows.
    case positionOutOfRange(token: String, validRange: ClosedRange<Int>)

    /// The same error, naming the page count of the document it was meant for.
    public func inDocument(pageCount: Int) -> SelectionError {
        switch self {
        case .empty(nil): .empty(pageCount: pageCount)
        case .emptyToken(let after, nil): .emptyToken(after: after, pageCount: pageCount)
        case .malformed(let token, nil): .malformed(token: token, pageCount: pageCount)
        case .descendingRange(let token, nil): .descendingRange(token: token, pageCount: pageCount)
        default: self
        }
    }

    public var description: String {
        switch self {
        case .empty(let count):
            return "empty selection: give positions such as 1,3..5,last" + pagesNote(count)
        case .emptyToken(let after, let count):
            let place = after.map { "after \(quoted($0))" } ?? "at the start"
            return "empty token \(place) in the selection (a comma too many?)" + pagesNote(count)
        case .malformed(let token, let count):
            return "\(quoted(token)) is not a selection token (expected N, A..B, A-B, A.., ..B, last, last-K, "
                + "odd, even, all, @ID, text:WORDS, empty, empty:S%, landscape, portrait, size:SIZE, annotated, "
                + "image-only, label:L, label:L..L, outline:TITLE or dup)" + pagesNote(count)
        case .descendingRange(let token, let count):
            return "\(quoted(token)) is a descending range (write the smaller end first)" + pagesNote(count)
        case .outOfRange(let token, let count):
            return "\(quoted(token)) is out of range: the document has \(pagesPhrase(count))"
        case .duplicate(let token, let position, let firstToken, let count):
            return "\(quoted(token)) selects position \(position) again (already selected by \(quoted(firstToken)))"
                + pagesNote(count)
        case .unknownID(let token, let count):
            return "\(quoted(token)) is not an item of this document" + pagesNote(count)
        case .textWithoutLookup(let token):
            return "\(quoted(token)) needs the pages' text, which is not available here"
        case .renderingWithoutLookup(let token):
            return "\(quoted(token)) needs the pages rendered, which is not possible here"
        case .pagesWithoutLookup(let token):
            return "\(quoted(token)) needs to read the pages, which is not possible here"
        case .selectsNothing(let token, let count):
            return "\(quoted(token)) selects no page" + pagesNote(count)
        case .matchedNothing(let tokens, let count):
            return tokens.map(quoted).joined(separator: ", ") + " matches no page" + pagesNote(count)
        case .idNotAPosition(let token):
            return "\(quoted(token)) names an item, not a position: use --before or --after to place next to it"
        case .positionOutOfRange(let token, let validRange):
            let range =
                validRange.lowerBound == validRange.upperBound
                ? "the only valid position is \(validRange.lowerBound)"
                : "valid positions are \(validRange.lowerBound)…\(validRange.upperBound)"
            return "position \(quoted(token)) is out of range: \(range)"
        }
    }

    private func pagesNote(_ count: Int?) -> String {
        count.map { " (the document has \(pagesPhrase($0)))" } ?? ""
    }
}

/// "1 page", "7 pages".
package func pagesPhrase(_ count: Int) -> String {
    count == 1 ? "1 page" : "\(count) pages"
}

/// `text` in double quotes for a one-line message: line breaks and other control
/// characters a user can type into an argument (`$'1\n2'`) are shown escaped, so
/// an error stays one `pdfedit:` line whatever the token holds.
func quoted(_ text: String) -> String {
    "\"" + escapingControlCharacters(text) + "\""
}

/// `text` with line breaks and other control characters written as escapes
/// (`\n`, `\r`, `\t`, `\u{c}`), for messages that quote text from outside; the
/// command line passes every error line through it too.
package func escapingControlCharacters(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}

/// THE way a message lists things (documents, sources, positions, field
/// names): joined with ", ", at most `limit` of them, the rest counted —
/// "a, b, c … and 716 more" — so a warning about 726 fields stays a line a
/// person can read.
package func cappedList(_ items: [String], limit: Int = 10) -> String {
    guard items.count > limit else { return items.joined(separator: ", ") }
    return items.prefix(limit).joined(separator: ", ") + " … and \(items.count - limit) more"
}

/// "position 13", "positions 3, 13" (capped as `cappedList` caps).
package func positionsPhrase(_ positions: [Int]) -> String {
    (positions.count == 1 ? "position " : "positions ") + cappedList(positions.map(String.init))
}
