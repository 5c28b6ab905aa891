/// A page size in PDF points (1/72 inch), as the reader sees the page.
public struct PageSize: Codable, Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    private enum CodingKeys: String, CodingKey {
        case width, height
    }

    // Encoded as synthesized; read through the session's number check.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decodeSessionNumber(.width)
        height = try container.decodeSessionNumber(.height)
    }

    /// The same page turned a quarter.
    public var swapped: PageSize { PageSize(width: height, height: width) }

    /// THE rule for the size of a page pdfedit makes (blank pages and
    /// placeholders, sizes `like:` a page, sheets of `nup` and `booklet`,
    /// resized pages, image pages, the page a crop leaves): 3 points a side at
    /// least, and at most 14,400 user space units of the largest /UserUnit
    /// Acrobat accepts (75,000), i.e. 15,000,000 inches. A side over 14,400 pt
    /// is written with a /UserUnit (`userUnit`).
    public var isValidPageSize: Bool {
        width.isFinite && height.isFinite && PageSize.sideRange.contains(width) && PageSize.sideRange.contains(height)
    }

    /// Points per user space unit of a page pdfedit makes of this size (its
    /// /UserUnit): 1 when both sides fit in `maximumUnits`, else the smallest
    /// integer that brings both sides (points / unit) within it. THE rule: the
    /// bridge writes the unit it is given.
    public var userUnit: Double {
        let largest = max(width, height)
        guard largest.isFinite, largest > PageSize.maximumUnits else { return 1 }
        return (largest / PageSize.maximumUnits).rounded(.up)
    }

    /// The smallest side of a page, in points (PDF: 3 units).
    public static let minimumSide = 3.0
    /// The largest side of a page's boxes in its own units (PDF 32000-1, annex C).
    public static let maximumUnits = 14_400.0
    /// The largest /UserUnit, Acrobat's.
    public static let maximumUserUnit = 75_000.0
    /// The largest side of a page, in points.
    public static let maximumSide = maximumUnits * maximumUserUnit

    static let sideRange: ClosedRange<Double> = minimumSide...maximumSide

    public var description: String {
        let dimensions = "\(formatPoints(width))×\(formatPoints(height)) pt"
        if let name = PageSize.commonName(width: width, height: height) {
            return "\(name), \(dimensions)"
        }
        return dimensions
    }

    // ISO sizes are defined in millimetres; converting keeps them exact to the point.
    public static let a3 = PageSize(millimetresWidth: 297, height: 420)
    public static let a4 = PageSize(millimetresWidth: 210, height: 297)
    public static let a5 = PageSize(millimetresWidth: 148, height: 210)
    public static let a6 = PageSize(millimetresWidth: 105, height: 148)
    public static let b5 = PageSize(millimetresWidth: 176, height: 250)
    public static let letter = PageSize(width: 612, height: 792)
    public static let legal = PageSize(width: 612, height: 1008)
    public static let tabloid = PageSize(width: 792, height: 1224)

    /// The named sizes `PageSize.parse` accepts, portrait, by lowercase name.
    static let named: [(name: String, displayName: String, size: PageSize)] = [
        ("a3", "A3", .a3), ("a4", "A4", .a4), ("a5", "A5", .a5), ("a6", "A6", .a6),
        ("b5", "B5", .b5), ("letter", "Letter", .letter), ("legal", "Legal", .legal),
        ("tabloid", "Tabloid", .tabloid),
    ]

    init(millimetresWidth width: Double, height: Double) {
        self.init(width: width * 72 / 25.4, height: height * 72 / 25.4)
    }

    /// The usual name of a size, for `info` and `list`: "A4", "Letter",
    /// "A4 landscape"; nil when no named size is within `tolerance` points on both sides.
    public static func commonName(width: Double, height: Double, tolerance: Double = 1) -> String? {
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= tolerance }
        for entry in named {
            if near(width, entry.size.width) && near(height, entry.size.height) {
                return entry.displayName
            }
            if near(width, entry.size.height) && near(height, entry.size.width) {
                return "\(entry.displayName) landscape"
            }
        }
        return nil
    }
}

/// Points with at most two decimals, without trailing zeros: 595.28, 612.
func formatPoints(_ value: Double) -> String {
    decimalText(value, decimals: 2)
}
