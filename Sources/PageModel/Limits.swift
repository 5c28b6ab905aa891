/// The documented limits that keep a hostile input, argument, environment value
/// or session field from ending the process with a signal or exhausting memory
/// (DESIGN.md, "Safety rules"). Every limit is checked *before* the work or the
/// allocation it guards. An input over a limit is refused with 65, an argument
/// over one with 64.
///
/// Each default can be overridden by an environment variable (a positive whole
/// number), read once by the kit with `Limits(environment:)`:
///
/// | limit | default | variable |
/// |---|---|---|
/// | items per document | 1,000,000 | `PDFEDIT_MAX_ITEMS` |
/// | pixels per image, rendered page or contact sheet | 2^28 | `PDFEDIT_MAX_PIXELS` |
/// | bytes one stream may inflate to | 1 GiB | `PDFEDIT_MAX_STREAM_BYTES` |
/// | levels of a tree (page tree, number trees, fields, outlines) | 1,024 | `PDFEDIT_MAX_DEPTH` |
public struct Limits: Sendable, Equatable {
    /// Items one document may hold (blank/placeholder counts, inserts, copies).
    public var itemsPerDocument: Int
    /// Pixels of one decoded image, one rendered page or one contact sheet.
    public var pixels: Int
    /// Bytes one PDF stream may inflate to when it is decoded.
    public var inflatedStreamBytes: Int
    /// Levels of nesting of any tree read from a file.
    public var treeDepth: Int

    public init(
        itemsPerDocument: Int = 1_000_000, pixels: Int = 1 << 28,
        inflatedStreamBytes: Int = 1 << 30, treeDepth: Int = 1_024
    ) {
        self.itemsPerDocument = itemsPerDocument
        self.pixels = pixels
        self.inflatedStreamBytes = inflatedStreamBytes
        self.treeDepth = treeDepth
    }

    /// The defaults above.
    public static let standard = Limits()

    /// The environment variables that override a default, by limit.
    public static let variables = ["PDFEDIT_MAX_ITEMS", "PDFEDIT_MAX_PIXELS", "PDFEDIT_MAX_STREAM_BYTES", "PDFEDIT_MAX_DEPTH"]

    private mutating func set(_ name: String, _ value: Int) {
        switch name {
        case "PDFEDIT_MAX_ITEMS": itemsPerDocument = value
        case "PDFEDIT_MAX_PIXELS": pixels = value
        case "PDFEDIT_MAX_STREAM_BYTES": inflatedStreamBytes = value
        default: treeDepth = value
        }
    }

    /// The defaults, with each variable of `variables` that holds a positive
    /// whole number taking its place. A value that is not one is an error naming
    /// the variable, so a typo does not silently lift or lower a limit.
    public init(environment: [String: String]) throws(LimitsError) {
        self = .standard
        for name in Self.variables {
            guard let text = environment[name] else { continue }
            guard let value = Int(text.trimmingCharacters(in: " \t")), value > 0 else {
                throw LimitsError.badVariable(name: name, value: text)
            }
            set(name, value)
        }
    }
}

/// A limit variable of the environment that is not a positive whole number (64).
public enum LimitsError: Error, Equatable, Sendable, CustomStringConvertible {
    case badVariable(name: String, value: String)

    public var description: String {
        switch self {
        case .badVariable(let name, let value):
            return "\(name)=\(escapingControlCharacters(value)): must be a positive whole number"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
