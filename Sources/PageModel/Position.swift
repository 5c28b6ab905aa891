/// One position, as written on the command line: `N`, `last`, `last-K`, or
/// `@ID` for an existing item.
///
/// Used for destinations (`--to`, `--at`: resolved against the largest valid
/// position with `resolve(maxPosition:)`) and for references to an existing
/// item (`--before`, `--after`, `fill P`, `like:P`: resolved with `index(in:)`).
public enum Position: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A 1-based position.
    case number(Int)
    /// `last` (0) or `last-K` (K): the K-th before the last.
    case fromEnd(Int)
    /// An existing item, by its stable id.
    case item(ItemID)

    /// `last`: the largest valid position.
    public static let last = Position.fromEnd(0)

    /// Reads `N`, `last`, `last-K` or `@ID` (keywords case-insensitive,
    /// surrounding whitespace ignored).
    public static func parse(_ text: String) throws(SelectionError) -> Position {
        let token = text.trimmingWhitespace()
        guard !token.isEmpty else { throw .empty(pageCount: nil) }
        if token.hasPrefix("@") {
            guard let id = ItemID(String(token.dropFirst())) else { throw .malformed(token: token, pageCount: nil) }
            return .item(id)
        }
        switch SelectionBound(parsing: token) {
        case .number(let n)?: return .number(n)
        case .fromEnd(let k)?: return .fromEnd(k)
        case nil: throw .malformed(token: token, pageCount: nil)
        }
    }

    /// The 1-based position this names when positions 1…`maxPosition` are
    /// valid (`last` is `maxPosition`). An `@ID` is not a destination and is refused.
    public func resolve(maxPosition: Int) throws(SelectionError) -> Int {
        let valid = 1...max(maxPosition, 1)
        let resolved: Int
        switch self {
        case .number(let n): resolved = n
        case .fromEnd(let k): resolved = maxPosition - k
        case .item: throw .idNotAPosition(token: description)
        }
        guard maxPosition >= 1, valid.contains(resolved) else {
            throw .positionOutOfRange(token: description, validRange: valid)
        }
        return resolved
    }

    /// The 0-based index of the existing item this names in `document`.
    package func index(in document: Document) throws(SelectionError) -> Int {
        let count = document.items.count
        switch self {
        case .number(let n):
            guard n >= 1, n <= count else { throw .outOfRange(token: description, pageCount: count) }
            return n - 1
        case .fromEnd(let k):
            guard k < count else { throw .outOfRange(token: description, pageCount: count) }
            return count - 1 - k
        case .item(let id):
            guard let index = document.index(of: id) else { throw .unknownID(token: description, pageCount: count) }
            return index
        }
    }

    public var description: String {
        switch self {
        case .number(let n): "\(n)"
        case .fromEnd(0): "last"
        case .fromEnd(let k): "last-\(k)"
        case .item(let id): "@\(id)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Position.parse(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One end of a range, or a single position: `N`, `last`, `last-K`.
enum SelectionBound: Hashable, Sendable {
    case number(Int)
    case fromEnd(Int)

    /// Nil unless the whole text is a bound. Numbers too large for `Int`
    /// saturate, so they are reported as out of range rather than malformed.
    init?(parsing text: some StringProtocol) {
        if let n = parseCount(text) {
            self = .number(n)
            return
        }
        let lower = text.lowercased()
        if lower == "last" {
            self = .fromEnd(0)
        } else if lower.hasPrefix("last-"), let k = parseCount(lower.dropFirst(5)) {
            self = .fromEnd(k)
        } else {
            return nil
        }
    }

    /// 1-based position in a document of `count` pages; may be out of range.
    func position(count: Int) -> Int {
        switch self {
        case .number(let n): n
        case .fromEnd(let k): k >= count ? 0 : count - k
        }
    }
}

/// ASCII digits only; saturates at `Int.max`.
func parseCount(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else { return nil }
    return Int(text) ?? Int.max
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
            let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
