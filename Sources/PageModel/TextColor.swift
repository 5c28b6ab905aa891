/// A colour of a text stamp (`--color`, `--background`, `--outline`): RGB
/// (three parts) or, for print, CMYK (four), each part 0…1. In the session
/// file an array of those numbers (format 7).
public struct TextColor: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Three (red, green, blue) or four (cyan, magenta, yellow, black) parts, each 0…1.
    public let components: [Double]

    /// Three parts (RGB) or four (CMYK), each 0…1; nil for anything else.
    public init?(components: [Double]) {
        guard components.count == 3 || components.count == 4,
            components.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 })
        else { return nil }
        self.components = components
    }

    /// An RGB colour, each part 0…1; nil when one is outside.
    public init?(red: Double, green: Double, blue: Double) { self.init(components: [red, green, blue]) }

    /// A CMYK colour for print, each part 0…1; nil when one is outside.
    public init?(cyan: Double, magenta: Double, yellow: Double, black: Double) {
        self.init(components: [cyan, magenta, yellow, black])
    }

    /// A colour as the command line writes it: a name (`red`, `navy`), `#rrggbb`,
    /// or CMYK as `c,m,y,k` (each 0…1 or a percentage); nil for anything else.
    public init?(_ text: String) {
        guard let parsed = TextColor.parse(text) else { return nil }
        self = parsed
    }

    /// Whether it is CMYK (four parts) rather than RGB.
    public var isCMYK: Bool { components.count == 4 }

    /// The RGB a screen (or cairo, which writes no CMYK) shows for it: CMYK
    /// by the naive conversion (1 - C)(1 - K)…, not a colour-managed one.
    package var rgb: (red: Double, green: Double, blue: Double) {
        if isCMYK {
            let black = 1 - components[3]
            return ((1 - components[0]) * black, (1 - components[1]) * black, (1 - components[2]) * black)
        }
        return (components[0], components[1], components[2])
    }

    /// The colour names `parse` knows, as RGB.
    package static let names: [String: [Double]] = [
        "black": [0, 0, 0], "white": [1, 1, 1], "gray": [0.5, 0.5, 0.5], "grey": [0.5, 0.5, 0.5],
        "red": [1, 0, 0], "green": [0, 0.5, 0], "blue": [0, 0, 1], "yellow": [1, 1, 0], "orange": [1, 0.65, 0],
        "cyan": [0, 1, 1], "magenta": [1, 0, 1], "navy": [0, 0, 0.5], "maroon": [0.5, 0, 0], "purple": [0.5, 0, 0.5],
    ]

    /// `red` (a name of `names`), `#rrggbb`, or CMYK as `c,m,y,k` (each 0…1,
    /// or a percentage: `0,100%,100%,0`); nil for anything else.
    package static func parse(_ text: String) -> TextColor? {
        let lowered = text.lowercased()
        if let rgb = names[lowered] { return TextColor(components: rgb) }
        if lowered.hasPrefix("#"), lowered.count == 7 {
            let hex = Array(lowered.dropFirst())
            var parts: [Double] = []
            for index in stride(from: 0, to: 6, by: 2) {
                guard let value = UInt8(String(hex[index...index + 1]), radix: 16) else { return nil }
                parts.append(Double(value) / 255)
            }
            return TextColor(components: parts)
        }
        let pieces = lowered.split(separator: ",", omittingEmptySubsequences: false)
        guard pieces.count == 4 else { return nil }
        var parts: [Double] = []
        for piece in pieces {
            let trimmed = piece.trimmingCharacters(in: " ")
            if trimmed.hasSuffix("%") {
                guard let value = Double(trimmed.dropLast()) else { return nil }
                parts.append(value / 100)
            } else {
                guard let value = Double(trimmed) else { return nil }
                parts.append(value)
            }
        }
        return TextColor(components: parts)
    }

    /// Reads the array of its parts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let parts = try container.decode([Double].self)
        guard let color = TextColor(components: parts) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a colour is 3 (RGB) or 4 (CMYK) numbers from 0 to 1")
        }
        self = color
    }

    /// Writes the array of its parts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(components)
    }

    /// `#ff0000`, `cmyk 0,1,1,0`.
    public var description: String {
        if isCMYK { return "cmyk " + components.map { formatPoints($0) }.joined(separator: ",") }
        let hex = components.map { part -> String in
            let value = String(Int((part * 255).rounded()), radix: 16)
            return value.count == 1 ? "0" + value : value
        }
        return "#" + hex.joined()
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}
