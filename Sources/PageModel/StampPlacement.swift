#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Where on the page as displayed a stamp sits (`--position`): one of nine anchors.
public enum StampPosition: String, Codable, CaseIterable, Hashable, Sendable {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// -1 left, 0 centre, +1 right.
    public var horizontal: Int {
        switch self {
        case .left, .topLeft, .bottomLeft: -1
        case .right, .topRight, .bottomRight: 1
        case .center, .top, .bottom: 0
        }
    }

    /// -1 bottom, 0 centre, +1 top.
    public var vertical: Int {
        switch self {
        case .bottom, .bottomLeft, .bottomRight: -1
        case .top, .topLeft, .topRight: 1
        case .center, .left, .right: 0
        }
    }

    /// The number the bridge takes (`pe_stamp.position`): 3 × (vertical + 1) + horizontal + 1.
    public var code: Int { 3 * (vertical + 1) + horizontal + 1 }
}

/// How a stamp is placed on the page as displayed (upright for the reader): its
/// bounding box, flush with the page's edges inset by `margin` at the anchor
/// `position`, then moved by (`offsetX`, `offsetY`) points (+x right, +y up).
///
/// The rule (`frame`) is stated once here for the model and `show`; the bridge's
/// `Stamps.cpp` states it again for export, and a property test holds the two
/// together.
public struct StampPlacement: Hashable, Sendable, CustomStringConvertible {
    public var position: StampPosition
    public var offsetX: Double
    public var offsetY: Double
    public var margin: Double

    public init(position: StampPosition = .center, offsetX: Double = 0, offsetY: Double = 0, margin: Double = 0) {
        self.position = position
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.margin = margin
    }

    /// Where a stamp lands: its centre in points from the displayed page's
    /// bottom-left corner (+y up), and the factor it is drawn at.
    public struct Frame: Equatable, Sendable {
        public var centreX: Double
        public var centreY: Double
        public var scale: Double

        public init(centreX: Double, centreY: Double, scale: Double) {
            self.centreX = centreX
            self.centreY = centreY
            self.scale = scale
        }
    }

    /// The frame of a stamp whose upright bounding box is `stamp` (its own
    /// rotation and its angle applied: see `boundingSize`) on a page displayed
    /// as `page`: at `naturalScale` (its /UserUnit over the page's), or with `fit`
    /// as large as the page allows; never larger than the page inside the margin.
    public func frame(page: PageSize, stamp: PageSize, naturalScale: Double = 1, fit: Bool = false) -> Frame {
        // A margin that leaves no room is ignored rather than turning the stamp over.
        let inset = margin > 0 && page.width > 2 * margin && page.height > 2 * margin ? margin : 0
        let roomWidth = page.width - 2 * inset
        let roomHeight = page.height - 2 * inset
        var scale = naturalScale
        if stamp.width > 0, stamp.height > 0 {
            let fitting = min(roomWidth / stamp.width, roomHeight / stamp.height)
            scale = fit ? fitting : min(scale, fitting)
        }
        let halfWidth = stamp.width * scale / 2
        let halfHeight = stamp.height * scale / 2
        let x: Double =
            switch position.horizontal {
            case -1: inset + halfWidth
            case 1: page.width - inset - halfWidth
            default: page.width / 2
            }
        let y: Double =
            switch position.vertical {
            case -1: inset + halfHeight
            case 1: page.height - inset - halfHeight
            default: page.height / 2
            }
        return Frame(centreX: x + offsetX, centreY: y + offsetY, scale: scale)
    }

    /// The upright bounding box of a `size` box turned by `degrees` (counter-clockwise).
    public static func boundingSize(_ size: PageSize, degrees: Double) -> PageSize {
        let (sine, cosine) = sineCosine(degrees: degrees)
        return PageSize(
            width: abs(size.width * cosine) + abs(size.height * sine),
            height: abs(size.width * sine) + abs(size.height * cosine))
    }

    /// sin and cos of an angle in degrees, exact at multiples of 90°.
    public static func sineCosine(degrees: Double) -> (sine: Double, cosine: Double) {
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        switch (turned < 0 ? turned + 360 : turned) {
        case 0: return (0, 1)
        case 90: return (1, 0)
        case 180: return (0, -1)
        case 270: return (-1, 0)
        default:
            let radians = degrees * .pi / 180
            return (sin(radians), cos(radians))
        }
    }

    /// `bottom-right +0,+12 margin 24`: what differs from the defaults.
    public var description: String {
        var words: [String] = []
        if position != .center { words.append(position.rawValue) }
        if offsetX != 0 || offsetY != 0 { words.append("\(signed(offsetX)),\(signed(offsetY))") }
        if margin != 0 { words.append("margin \(formatPoints(margin))") }
        return words.isEmpty ? "center" : words.joined(separator: " ")
    }

    private func signed(_ value: Double) -> String { (value < 0 ? "" : "+") + formatPoints(value) }
}

extension StampPlacement {
    /// Finite offsets and a finite margin of at least 0.
    public var isValid: Bool {
        offsetX.isFinite && offsetY.isFinite && margin.isFinite && margin >= 0
    }
}
