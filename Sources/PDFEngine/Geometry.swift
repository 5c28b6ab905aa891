/// A rectangle in PDF user space (points), normalised so that x0 ≤ x1, y0 ≤ y1.
public struct PDFRect: Equatable, Hashable, Sendable, Codable {
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    public var width: Double { x1 - x0 }
    public var height: Double { y1 - y0 }

    /// The part of `self` inside `other`; nil when they do not overlap.
    public func intersection(_ other: PDFRect) -> PDFRect? {
        let rect = PDFRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return rect.width > 0 && rect.height > 0 ? rect : nil
    }
}
