/// The range every fractional number of a session file must fall in (box and
/// cell coordinates, sizes, offsets, margins, font sizes, angles, opacities,
/// colours): finite and at most 2^40 either way. That is far beyond any page
/// (PDF's largest is 1.08e9 pt a side, `PageSize.maximumSide`) and small enough
/// that the sums, differences and scalings the model and the messages make of
/// such numbers never leave the range of an `Int` or of finite doubles.
package enum SessionNumber {
    package static let limit: Double = 1_099_511_627_776  // 2^40

    /// Whether `value` may stand in a session file.
    package static func isAcceptable(_ value: Double) -> Bool {
        value.isFinite && abs(value) <= limit
    }
}

extension KeyedDecodingContainer {
    /// THE conversion of a number read from a session file: a JSON number that
    /// is not finite or beyond `SessionNumber.limit` (a damaged `1e308`, `2^63`)
    /// is a decoding error naming its place in the file, never a value that a
    /// later computation or message could trap on.
    func decodeSessionNumber(_ key: Key) throws -> Double {
        try checkedSessionNumber(decode(Double.self, forKey: key), key)
    }

    func decodeSessionNumberIfPresent(_ key: Key) throws -> Double? {
        try decodeIfPresent(Double.self, forKey: key).map { try checkedSessionNumber($0, key) }
    }

    /// A list of numbers (an offset, a colour), each checked as `decodeSessionNumber` does.
    func decodeSessionNumbersIfPresent(_ key: Key) throws -> [Double]? {
        try decodeIfPresent([Double].self, forKey: key).map { values in
            try values.map { try checkedSessionNumber($0, key) }
        }
    }

    private func checkedSessionNumber(_ value: Double, _ key: Key) throws -> Double {
        guard SessionNumber.isAcceptable(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(value) is not a number from -2^40 to 2^40")
        }
        return value
    }
}

/// `value` with at most `decimals` decimals and no trailing zeros, as messages
/// and tables write numbers: 595.28, 612, -0.5. Never traps: a value no page
/// reaches (beyond 10^18 once scaled, or not finite) is written as Swift writes it.
package func decimalText(_ value: Double, decimals: Int) -> String {
    let places = max(0, min(decimals, 6))
    var unit = 1
    for _ in 0..<places { unit *= 10 }
    let scaled = (value * Double(unit)).rounded()
    guard scaled.isFinite, abs(scaled) < 1e18 else { return "\(value)" }
    let count = Int(scaled)
    let magnitude = abs(count)
    var text = (count < 0 ? "-" : "") + String(magnitude / unit)
    var fraction = magnitude % unit
    guard fraction != 0 else { return text }
    var digits = places
    while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
    }
    let fractionText = String(fraction)
    text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    return text
}
