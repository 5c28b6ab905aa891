/// The stable id of a page item, shown as `p12` and written `@p12` in selections.
///
/// Ids are deterministic: a session keeps a counter (`Session.nextItemNumber`)
/// and every new item, including a copy, takes `p<counter>` and advances it.
/// Undo restores the counter together with everything else, so undoing a step
/// and doing the same command again (or redoing it) hands out the very same ids.
public struct ItemID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The number after the `p`; always ≥ 1.
    public let number: Int

    public init(number: Int) {
        self.number = number
    }

    /// Reads `p12` (case-insensitive); nil for anything else.
    public init?(_ text: String) {
        guard let number = parsePrefixedNumber(text, prefix: "p") else { return nil }
        self.number = number
    }

    public var description: String { "p\(number)" }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.number < rhs.number }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ItemID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(quoted(text)) is not an item id (expected p<number>)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The id of an imported source file: `s1`, `s2`, … in order of import.
public struct SourceID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let number: Int

    public init(number: Int) {
        self.number = number
    }

    /// Reads `s3` (case-insensitive); nil for anything else.
    public init?(_ text: String) {
        guard let number = parsePrefixedNumber(text, prefix: "s") else { return nil }
        self.number = number
    }

    public var description: String { "s\(number)" }

    public static func < (lhs: SourceID, rhs: SourceID) -> Bool { lhs.number < rhs.number }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = SourceID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(quoted(text)) is not a source id (expected s<number>)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// `p12` → 12. Only ASCII digits, no sign, no leading zeros beyond a lone digit,
/// so every id has exactly one spelling.
private func parsePrefixedNumber(_ text: String, prefix: Character) -> Int? {
    guard let first = text.first, first.lowercased() == String(prefix) else { return nil }
    let digits = text.dropFirst()
    guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
    guard digits.first != "0" else { return nil }
    guard let number = Int(digits), number >= 1 else { return nil }
    return number
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
