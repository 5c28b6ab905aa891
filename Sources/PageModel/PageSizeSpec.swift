/// A `--size` argument: a fixed size, or "like the item at P".
package enum PageSizeSpec: Codable, Equatable, Sendable {
    case fixed(PageSize)
    case like(position: Position)
}

/// A `--size` argument that cannot be read.
public enum SizeError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// Neither a known name, nor `WxH`, nor `like:P`.
    case malformed(String)
    case unknownUnit(text: String, unit: String)
    /// A side outside 3…14,400 points, the range PDF readers accept.
    case outOfBounds(text: String, size: PageSize)
    case badPosition(text: String, SelectionError)

    public var description: String {
        let expected = "expected a4, a5, letter, … , WxH in pt, mm, cm or in (e.g. 210x297mm), or like:P"
        switch self {
        case .empty:
            return "empty page size (\(expected))"
        case .malformed(let text):
            return "\(quoted(text)) is not a page size (\(expected))"
        case .unknownUnit(let text, let unit):
            return "\(quoted(text)): unknown unit \(quoted(unit)) (use pt, mm, cm or in)"
        case .outOfBounds(let text, let size):
            return "\(quoted(text)) is \(formatPoints(size.width))×\(formatPoints(size.height)) pt: "
                + "each side must be between 3 and 1080000000 pt (15,000,000 in)"
        case .badPosition(let text, let error):
            return "\(quoted(text)): \(error)"
        }
    }
}

extension PageSize {
    /// Reads a `--size` argument.
    ///
    /// Grammar (case-insensitive, spaces ignored):
    /// - a name: `a3 a4 a5 a6 b5 letter legal tabloid`, optionally followed by
    ///   `-landscape` / `-portrait`, or `l` for the ISO names (`a4l`);
    /// - `WxH` with an optional unit after the height that applies to both
    ///   (`595x842`, `210x297mm`, `8.5x11in`, `21x29.7cm`, `595x842pt`), or a
    ///   unit after each number (`8.5inx297mm`); `×` works as well as `x`;
    /// - `like:P` where P is `N`, `last`, `last-K` or `@ID`.
    package static func parse(_ text: String) throws(SizeError) -> PageSizeSpec {
        let compact = String(text.lowercased().filter { !$0.isWhitespace })
        guard !compact.isEmpty else { throw .empty }

        if compact.hasPrefix("like:") {
            do {
                return .like(position: try Position.parse(String(compact.dropFirst(5))))
            } catch {
                throw .badPosition(text: text, error)
            }
        }
        if let size = namedSize(compact) {
            return .fixed(size)
        }
        let size = try dimensions(compact, original: text)
        guard size.isValidPageSize else { throw .outOfBounds(text: text, size: size) }
        return .fixed(size)
    }

    private static func namedSize(_ compact: String) -> PageSize? {
        var name = compact
        var landscape = false
        if name.hasSuffix("-landscape") {
            name.removeLast("-landscape".count)
            landscape = true
        } else if name.hasSuffix("-portrait") {
            name.removeLast("-portrait".count)
        }
        var entry = named.first { $0.name == name }
        // `a4l`: only for the short ISO names, where it cannot be mistaken for a word.
        if entry == nil, !landscape, name.count == 3, name.hasSuffix("l") {
            entry = named.first { $0.name == String(name.dropLast()) && $0.name.count == 2 }
            landscape = entry != nil
        }
        guard let entry else { return nil }
        return landscape ? entry.size.swapped : entry.size
    }

    private static func dimensions(_ compact: String, original: String) throws(SizeError) -> PageSize {
        let parts = compact.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "×" }
        guard parts.count == 2 else { throw .malformed(original) }
        let (widthNumber, widthUnit) = try splitNumber(parts[0], original: original)
        let (heightNumber, heightUnit) = try splitNumber(parts[1], original: original)
        // "210mmx297" is ambiguous (is 297 in mm or points?), so refuse it.
        if widthUnit != nil && heightUnit == nil { throw .malformed(original) }
        let heightFactor = try pointsPerUnit(heightUnit, original: original)
        let widthFactor = widthUnit == nil ? heightFactor : try pointsPerUnit(widthUnit, original: original)
        return PageSize(width: widthNumber * widthFactor, height: heightNumber * heightFactor)
    }

    private static func splitNumber(_ part: Substring, original: String) throws(SizeError) -> (Double, String?) {
        let numberEnd = part.firstIndex { !($0.isASCIIDigit || $0 == ".") } ?? part.endIndex
        let numberText = part[..<numberEnd]
        let unit = part[numberEnd...]
        guard !numberText.isEmpty, numberText.first != ".", numberText.last != ".",
            let number = Double(numberText), number.isFinite
        else { throw .malformed(original) }
        return (number, unit.isEmpty ? nil : String(unit))
    }

    private static func pointsPerUnit(_ unit: String?, original: String) throws(SizeError) -> Double {
        switch unit {
        case nil, "pt": 1
        case "mm": 72 / 25.4
        case "cm": 72 / 2.54
        case "in": 72
        case let other?:
            if other.allSatisfy(\.isLetter) { throw .unknownUnit(text: original, unit: other) }
            throw .malformed(original)
        }
    }
}
