/// A size or a margin of a text stamp (`number`, `bates`, `watermark`): points
/// as seen — on a page with /UserUnit 10, 12 points are 1.2 of its units — or a
/// share of the shorter side of the page it is drawn on, as displayed (`--size
/// 2%` is `.percent(2)`), worked out for each page at export. A number literal
/// is points: `size: 12`.
public enum StampLength: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Points as seen.
    case points(Double)
    /// Percent of the page's shorter side as displayed: `.percent(2)` is 2%.
    case percent(Double)

    /// Points: `size: 12`.
    public init(integerLiteral value: Int) { self = .points(Double(value)) }

    /// Points: `size: 10.5`.
    public init(floatLiteral value: Double) { self = .points(value) }
}

extension TextMark {
    /// `length` as this mark's size: points, or a share (`sizeShare`); false when
    /// it is out of range (above 0 and at most 1000 pt, or above 0% and at most 50%).
    package mutating func setSize(_ length: StampLength) -> Bool {
        switch length {
        case .points(let points):
            guard points.isFinite, points > 0, points <= TextMark.maximumSize else { return false }
            size = points
            sizeShare = nil
        case .percent(let percent):
            let share = percent / 100
            guard share.isFinite, share > 0, share <= TextMark.maximumShare else { return false }
            sizeShare = share
        }
        return true
    }
}

extension StampPlacement {
    /// `length` as this placement's margin: points, or a share (`marginShare`);
    /// false when it is out of range (at least 0; at most 50%).
    package mutating func setMargin(_ length: StampLength) -> Bool {
        switch length {
        case .points(let points):
            guard points.isFinite, points >= 0 else { return false }
            margin = points
            marginShare = nil
        case .percent(let percent):
            let share = percent / 100
            guard share.isFinite, share >= 0, share <= TextMark.maximumShare else { return false }
            margin = 0
            marginShare = share
        }
        return true
    }
}
