#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed selection: which items of a document a command acts on.
///
/// Parsed once at the edge (`parse`), resolved against a document later
/// (`resolve(in:text:)`), so a script line sees the positions left by the
/// line before it.
public struct PageSelection: Hashable, Sendable, Codable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case single(SelectionBound)
        /// `A..B`, `A..` (upper nil), `..B` (lower nil), `A-B`.
        case range(SelectionBound?, SelectionBound?)
        case odd
        case even
        case all
        case id(ItemID)
        case text(String)
        /// `empty`, `empty:S%`: items whose page shows at most this share (0…1) of
        /// dark pixels and, unless `inkOnly` (`--ink-only`), has no extractable text.
        case empty(maximumShare: Double, inkOnly: Bool)
        /// `landscape` / `portrait`: items shown wider than tall / taller than wide.
        case landscape
        case portrait
        /// `size:a4`, `size:WxH`: items shown at this size, either way round (`PageSizeMatch`).
        case size(PageSize)
        /// `annotated`: items whose page carries an annotation (popups aside).
        case annotated
        /// `image-only`: page and image items with no extractable text (scans).
        case imageOnly
        /// `label:X`, `label:X..Y`: items labelled X, or from each one labelled X
        /// to the next labelled Y, as `list` shows labels.
        case label(String, through: String?)
        /// `outline:TITLE`: the items under the bookmarks with this title.
        case outline(String)
        /// `dup`: every later copy of an item an earlier item already shows.
        case duplicate

        /// A token whose meaning depends on what the pages hold, not on their
        /// places: it may match nothing, and such tokens may overlap.
        var dependsOnPages: Bool {
            switch self {
            case .text, .empty, .landscape, .portrait, .size, .annotated, .imageOnly, .label, .outline, .duplicate: true
            case .single, .range, .odd, .even, .all, .id: false
            }
        }
    }

    struct Token: Hashable, Sendable {
        var kind: Kind
        /// As the user wrote it (trimmed), for error messages.
        var text: String
    }

    let tokens: [Token]

    /// Every item of the document.
    public static let all = PageSelection(tokens: [Token(kind: .all, text: "all")])

    /// The given 1-based positions, one token each.
    public init(positions: [Int]) {
        tokens = positions.map { Token(kind: .single(.number($0)), text: "\($0)") }
    }

    /// The given items, one `@ID` token each.
    public init(ids: [ItemID]) {
        tokens = ids.map { Token(kind: .id($0), text: "@\($0)") }
    }

    init(tokens: [Token]) {
        self.tokens = tokens
    }

    /// The same selection with its `empty` tokens judging ink alone (`--ink-only`):
    /// a page whose text draws no ink (invisible or white text, an OCR layer over
    /// a blank scan) is empty too.
    public func judgingInkOnly() -> PageSelection {
        PageSelection(
            tokens: tokens.map { token in
                guard case .empty(let share, _) = token.kind else { return token }
                return Token(kind: .empty(maximumShare: share, inkOnly: true), text: token.text)
            })
    }

    /// Whether an `empty` token judges by ink alone.
    public var judgesInkOnly: Bool {
        tokens.contains { if case .empty(_, true) = $0.kind { true } else { false } }
    }

    /// Reads a selection.
    ///
    /// Grammar: a comma-separated list of tokens, whitespace around each ignored:
    ///
    ///     selection := token ("," token)*
    ///     token     := bound                    one position
    ///                | bound ".." bound         inclusive range, first ≤ second
    ///                | bound ".."               from bound to the last page
    ///                | ".." bound               from the first page to bound
    ///                | N "-" N                  two numbers: same as N..N
    ///                | "odd" | "even" | "all"   by 1-based position
    ///                | "@" ID                   an item by stable id (p12)
    ///                | "text:" WORDS            items whose text contains WORDS
    ///                | "empty" [":" S "%"]      items showing no ink (S: the dark share
    ///                                           allowed, default 0.1; see `EmptyPage`)
    ///                | "landscape" | "portrait" items shown wider / taller
    ///                | "size:" SIZE             items shown at SIZE either way round
    ///                                           (a4, letter, WxH[unit]; `PageSizeMatch`)
    ///                | "annotated"              items carrying an annotation
    ///                | "image-only"             page and image items without text
    ///                | "label:" L [".." L]      items by page label (as `list` shows it)
    ///                | "outline:" TITLE         the items under the bookmarks titled TITLE
    ///                | "dup"                    later copies of an item shown earlier
    ///     bound     := N                        1-based position
    ///                | "last" | "last-" K       the last, or the K-th before it
    ///
    /// Keywords are case-insensitive. `text:`, `label:` and `outline:` take
    /// everything up to the next comma, or a value in double quotes that may
    /// hold commas (`outline:"Rates, 2026"`; the quotes are not part of it);
    /// text matching ignores case and treats any run of whitespace as one
    /// space. A selection is a set: its positions come back in document order
    /// whatever order the tokens are in, and a position selected by two
    /// tokens is an error. Errors found here have no page count yet; resolving
    /// adds it (see `SelectionError.inDocument(pageCount:)`).
    public static func parse(_ text: String) throws(SelectionError) -> PageSelection {
        guard !text.allSatisfy(\.isWhitespace) else { throw .empty(pageCount: nil) }
        var tokens: [Token] = []
        for piece in splitTokens(text) {
            let trimmed = piece.trimmingWhitespace()
            guard !trimmed.isEmpty else { throw .emptyToken(after: tokens.last?.text, pageCount: nil) }
            tokens.append(Token(kind: try parseToken(trimmed), text: trimmed))
        }
        return PageSelection(tokens: tokens)
    }

    private static func parseToken(_ token: String) throws(SelectionError) -> Kind {
        let lower = token.lowercased()
        switch lower {
        case "all": return .all
        case "odd": return .odd
        case "even": return .even
        default: break
        }
        if lower.hasPrefix("text:") {
            guard let words = value(after: 5, in: token) else { throw .malformed(token: token, pageCount: nil) }
            return .text(words)
        }
        if let kind = try parsePageToken(token, lower: lower) { return kind }
        if lower == "empty" { return .empty(maximumShare: EmptyPage.defaultMaximumShare, inkOnly: false) }
        if lower.hasPrefix("empty:") {
            guard let share = EmptyPage.share(parsing: lower.dropFirst(6)) else {
                throw .malformed(token: token, pageCount: nil)
            }
            return .empty(maximumShare: share, inkOnly: false)
        }
        if token.hasPrefix("@") {
            guard let id = ItemID(String(token.dropFirst())) else { throw .malformed(token: token, pageCount: nil) }
            return .id(id)
        }
        if let bound = SelectionBound(parsing: token) {
            return .single(bound)
        }
        if let dots = token.firstRange(of: "..") {
            let lowerText = token[..<dots.lowerBound]
            let upperText = token[dots.upperBound...]
            let lowerBound = SelectionBound(parsing: lowerText)
            let upperBound = SelectionBound(parsing: upperText)
            guard lowerText.isEmpty || lowerBound != nil, upperText.isEmpty || upperBound != nil,
                lowerBound != nil || upperBound != nil
            else { throw .malformed(token: token, pageCount: nil) }
            try checkOrder(lowerBound, upperBound, token: token)
            return .range(lowerBound, upperBound)
        }
        let halves = token.split(separator: "-", omittingEmptySubsequences: false)
        if halves.count == 2, let a = parseCount(halves[0]), let b = parseCount(halves[1]) {
            try checkOrder(.number(a), .number(b), token: token)
            return .range(.number(a), .number(b))
        }
        throw .malformed(token: token, pageCount: nil)
    }

    /// The tokens that look at what pages show (other than `text:` and `empty`); nil: none of them.
    private static func parsePageToken(_ token: String, lower: String) throws(SelectionError) -> Kind? {
        switch lower {
        case "landscape": return .landscape
        case "portrait": return .portrait
        case "annotated": return .annotated
        case "image-only": return .imageOnly
        case "dup": return .duplicate
        default: break
        }
        if lower.hasPrefix("size:") {
            guard let spec = try? PageSize.parse(String(token.dropFirst(5))), case .fixed(let size) = spec else {
                throw .malformed(token: token, pageCount: nil)
            }
            return .size(size)
        }
        if lower.hasPrefix("outline:") {
            guard let title = value(after: 8, in: token) else { throw .malformed(token: token, pageCount: nil) }
            return .outline(title)
        }
        if lower.hasPrefix("label:") {
            let raw = token.dropFirst(6).trimmingWhitespace()
            if raw.hasPrefix("\"") {
                guard let label = value(after: 6, in: token) else { throw .malformed(token: token, pageCount: nil) }
                return .label(label, through: nil)
            }
            guard !raw.isEmpty else { throw .malformed(token: token, pageCount: nil) }
            if let dots = raw.firstRange(of: "..") {
                let first = raw[..<dots.lowerBound].trimmingWhitespace()
                let last = raw[dots.upperBound...].trimmingWhitespace()
                guard !first.isEmpty, !last.isEmpty else { throw .malformed(token: token, pageCount: nil) }
                return .label(first, through: last)
            }
            return .label(raw, through: nil)
        }
        return nil
    }

    /// The value of a `key:` token whose key is `keyLength` characters long:
    /// the rest, trimmed, without one pair of surrounding double quotes; nil when empty.
    private static func value(after keyLength: Int, in token: String) -> String? {
        var value = token.dropFirst(keyLength).trimmingWhitespace()
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return value.isEmpty ? nil : value
    }

    /// The pieces between commas, a comma inside double quotes not counting.
    private static func splitTokens(_ text: String) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var quoted = false
        for index in text.indices {
            switch text[index] {
            case "\"": quoted.toggle()
            case "," where !quoted:
                pieces.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        pieces.append(text[start...])
        return pieces
    }

    /// Descending ranges that are descending in any document; the mixed
    /// ones (`last..3`) can only be judged against a page count.
    private static func checkOrder(_ a: SelectionBound?, _ b: SelectionBound?, token: String) throws(SelectionError) {
        switch (a, b) {
        case (.number(let x)?, .number(let y)?) where x > y,
            (.fromEnd(let x)?, .fromEnd(let y)?) where x < y:
            throw .descendingRange(token: token, pageCount: nil)
        default:
            return
        }
    }

    public var description: String {
        tokens.map(\.text).joined(separator: ",")
    }

    /// Encoded as its text; a selection judging ink only (which its text cannot
    /// say) as `{"selection": TEXT, "inkOnly": true}`. Both forms are read.
    public init(from decoder: any Decoder) throws {
        let text: String
        let inkOnly: Bool
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self) {
            text = try keyed.decode(String.self, forKey: .selection)
            inkOnly = try keyed.decodeIfPresent(Bool.self, forKey: .inkOnly) ?? false
        } else {
            text = try decoder.singleValueContainer().decode(String.self)
            inkOnly = false
        }
        do {
            let parsed = try PageSelection.parse(text)
            self = inkOnly ? parsed.judgingInkOnly() : parsed
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if judgesInkOnly {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(description, forKey: .selection)
            try keyed.encode(true, forKey: .inkOnly)
        } else {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case selection, inkOnly
    }
}
