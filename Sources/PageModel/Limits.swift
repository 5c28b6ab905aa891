/// The documented limits that keep a hostile input, argument, environment value
/// or session field from ending the process with a signal or exhausting memory
/// (DESIGN.md, "Safety rules"). Every limit is checked *before* the work or the
/// allocation it guards. An input over a limit is refused with 65, an argument
/// over one with 64.
///
/// Each default can be overridden by an environment variable (a whole number
/// from 1 to the variable's ceiling), read once by the kit with
/// `Limits(environment:)`:
///
/// | limit | default | variable | ceiling |
/// |---|---|---|---|
/// | items per document | 1,000,000 | `PDFEDIT_MAX_ITEMS` | 10,000,000 |
/// | pixels per image, rendered page or contact sheet | 2^28 | `PDFEDIT_MAX_PIXELS` | 2^30 |
/// | bytes one stream may inflate to | 1 GiB | `PDFEDIT_MAX_STREAM_BYTES` | 4 GiB |
/// | levels of a tree (page tree, number trees, fields, outlines) | 1,024 | `PDFEDIT_MAX_DEPTH` | 2,048 |
/// | content operators drawing one page runs (a form counted each time it is drawn, as 100) | 5,000,000 | `PDFEDIT_MAX_OPERATORS` | 2^40 |
/// | bytes of a script (`run`, `apply`; a file or standard input) | 16 MiB | `PDFEDIT_MAX_SCRIPT_BYTES` | 1 GiB |
/// | bytes of one line of a script | 64 KiB | `PDFEDIT_MAX_LINE_BYTES` | 16 MiB |
/// | bytes of a file read from standard input (`-`) | 4 GiB | `PDFEDIT_MAX_STDIN_BYTES` | 1 TiB |
///
/// The ceilings keep a variable from lifting a limit past what the limit
/// protects: qpdf walks a page tree recursively, a few hundred bytes of stack a
/// level, so `PDFEDIT_MAX_DEPTH=100000000` brought back the stack overflow the
/// depth limit exists to prevent; cairo draws at most 32,767 pixels a side
/// (2^30 in all); the last three keep a pipe of `/dev/zero` from taking all
/// memory or disk.
package struct Limits: Sendable, Equatable {
    /// Items one document may hold (blank/placeholder counts, inserts, copies).
    package var itemsPerDocument: Int
    /// Pixels of one decoded image, one rendered page or one contact sheet.
    package var pixels: Int
    /// Bytes one PDF stream may inflate to when it is decoded.
    package var inflatedStreamBytes: Int
    /// Levels of nesting of any tree read from a file.
    package var treeDepth: Int
    /// Content operators drawing one page may run, each form XObject counted as
    /// often as it is drawn (and as 100 operators: what drawing one costs poppler).
    package var operatorsPerPage: Int
    /// Bytes of a script (`run SCRIPT`, `apply SCRIPT`, either from standard input).
    package var scriptBytes: Int = 16 << 20
    /// Bytes of one line of a script (its line break not counted).
    package var scriptLineBytes: Int = 64 << 10
    /// Bytes of a file read from standard input (`-` as an input), spooled to disk.
    package var standardInputBytes: Int = 4 << 30

    package init(
        itemsPerDocument: Int = 1_000_000, pixels: Int = 1 << 28,
        inflatedStreamBytes: Int = 1 << 30, treeDepth: Int = 1_024, operatorsPerPage: Int = 5_000_000
    ) {
        self.itemsPerDocument = itemsPerDocument
        self.pixels = pixels
        self.inflatedStreamBytes = inflatedStreamBytes
        self.treeDepth = treeDepth
        self.operatorsPerPage = operatorsPerPage
    }

    /// The defaults above.
    package static let standard = Limits()

    /// The environment variables that override a default, by limit.
    package static let variables = [
        "PDFEDIT_MAX_ITEMS", "PDFEDIT_MAX_PIXELS", "PDFEDIT_MAX_STREAM_BYTES", "PDFEDIT_MAX_DEPTH",
        "PDFEDIT_MAX_OPERATORS", "PDFEDIT_MAX_SCRIPT_BYTES", "PDFEDIT_MAX_LINE_BYTES", "PDFEDIT_MAX_STDIN_BYTES",
    ]

    /// The largest value each variable may set (see the table above).
    package static let ceilings: [String: Int] = [
        "PDFEDIT_MAX_ITEMS": 10_000_000, "PDFEDIT_MAX_PIXELS": 1 << 30,
        "PDFEDIT_MAX_STREAM_BYTES": 1 << 32, "PDFEDIT_MAX_DEPTH": 2_048, "PDFEDIT_MAX_OPERATORS": 1 << 40,
        "PDFEDIT_MAX_SCRIPT_BYTES": 1 << 30, "PDFEDIT_MAX_LINE_BYTES": 16 << 20, "PDFEDIT_MAX_STDIN_BYTES": 1 << 40,
    ]

    private mutating func set(_ name: String, _ value: Int) {
        switch name {
        case "PDFEDIT_MAX_ITEMS": itemsPerDocument = value
        case "PDFEDIT_MAX_PIXELS": pixels = value
        case "PDFEDIT_MAX_STREAM_BYTES": inflatedStreamBytes = value
        case "PDFEDIT_MAX_OPERATORS": operatorsPerPage = value
        case "PDFEDIT_MAX_SCRIPT_BYTES": scriptBytes = value
        case "PDFEDIT_MAX_LINE_BYTES": scriptLineBytes = value
        case "PDFEDIT_MAX_STDIN_BYTES": standardInputBytes = value
        default: treeDepth = value
        }
    }

    /// The defaults, with each variable of `variables` that holds a whole number
    /// from 1 to its ceiling taking its place. Any other value is an error naming
    /// the variable, so a typo does not silently lift or lower a limit.
    package init(environment: [String: String]) throws(LimitsError) {
        self = .standard
        for name in Self.variables {
            guard let text = environment[name] else { continue }
            let ceiling = Self.ceilings[name] ?? Int.max
            guard let value = Int(text.trimmingCharacters(in: " \t")), (1...ceiling).contains(value) else {
                throw LimitsError.badVariable(name: name, value: text, ceiling: ceiling)
            }
            set(name, value)
        }
    }
}

/// A limit variable of the environment that is not a positive whole number (64).
package enum LimitsError: Error, Equatable, Sendable, CustomStringConvertible {
    case badVariable(name: String, value: String, ceiling: Int)

    package var description: String {
        switch self {
        case .badVariable(let name, let value, let ceiling):
            return "\(name)=\(escapingControlCharacters(value)): must be a whole number from 1 to \(ceiling)"
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
