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
/// The rule (`frame`) is stated once here, for `show` and for export, whose
/// bridge draws with the matrix `matrix(on:stamp:…)` makes of it.
package struct StampPlacement: Hashable, Sendable, CustomStringConvertible {
    package var position: StampPosition
    package var offsetX: Double
    package var offsetY: Double
    package var margin: Double
    /// `--margin 3%`: the margin is this share (0.03) of the shorter side of
    /// the page as displayed; nil: `margin` points (format 8).
    package var marginShare: Double?

    package init(position: StampPosition = .center, offsetX: Double = 0, offsetY: Double = 0, margin: Double = 0) {
        self.position = position
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.margin = margin
    }

    /// Where a stamp lands: its centre in points from the displayed page's
    /// bottom-left corner (+y up), and the factor it is drawn at.
    package struct Frame: Equatable, Sendable {
        package var centreX: Double
        package var centreY: Double
        package var scale: Double

        package init(centreX: Double, centreY: Double, scale: Double) {
            self.centreX = centreX
            self.centreY = centreY
            self.scale = scale
        }
    }

    /// The frame of a stamp whose upright bounding box is `stamp` (its own
    /// rotation and its angle applied: see `boundingSize`) on a page displayed
    /// as `page`: at `naturalScale` (its /UserUnit over the page's), or with `fit`
    /// as large as the page allows; never larger than the page inside the margin.
    package func frame(page: PageSize, stamp: PageSize, naturalScale: Double = 1, fit: Bool = false) -> Frame {
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
    package static func boundingSize(_ size: PageSize, degrees: Double) -> PageSize {
        let (sine, cosine) = sineCosine(degrees: degrees)
        return PageSize(
            width: abs(size.width * cosine) + abs(size.height * sine),
            height: abs(size.width * sine) + abs(size.height * cosine))
    }

    /// sin and cos of an angle in degrees, exact at multiples of 90°.
    package static func sineCosine(degrees: Double) -> (sine: Double, cosine: Double) {
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
    package var description: String {
        var words: [String] = []
        if position != .center { words.append(position.rawValue) }
        if offsetX != 0 || offsetY != 0 { words.append("\(signed(offsetX)),\(signed(offsetY))") }
        if let share = marginShare {
            words.append("margin \(formatPoints(share * 100))%")
        } else if margin != 0 {
            words.append("margin \(formatPoints(margin))")
        }
        return words.isEmpty ? "center" : words.joined(separator: " ")
    }

    private func signed(_ value: Double) -> String { (value < 0 ? "" : "+") + formatPoints(value) }
}

extension StampPlacement {
    /// Finite offsets and a finite margin of at least 0.
    package var isValid: Bool {
        offsetX.isFinite && offsetY.isFinite && margin.isFinite && margin >= 0
            && (marginShare.map { $0.isFinite && $0 >= 0 && $0 <= TextMark.maximumShare } ?? true)
    }

    /// This placement on a page `page` large as displayed (points as seen):
    /// with `marginShare`, its margin that share of the page's shorter side;
    /// else itself. `frame` and `matrix` take the result.
    package func resolved(on page: PageSize) -> StampPlacement {
        guard let share = marginShare else { return self }
        var resolved = self
        let side = min(page.width, page.height)
        resolved.margin = side.isFinite && side > 0 ? share * side : 0
        resolved.marginShare = nil
        return resolved
    }
}

extension StampPlacement {
    /// The `cm` matrix export draws a stamp with on `page` (the bridge only
    /// writes it): the stamp's `box` in its own default user space (a page's
    /// visible box, or a text's box from its baseline origin), displayed turned
    /// `quarterTurns` by its own /Rotate, at its /UserUnit `userUnit`, turned
    /// `angle` degrees counter-clockwise as displayed, placed by `frame` on the
    /// page as displayed (points) and taken back into the page's default user
    /// space: upright for the reader whatever either page's /Rotate.
    package func matrix(
        on page: ShownPage, stamp box: BoxRect, quarterTurns stampTurns: Int = 0, userUnit stampUnit: Double = 1,
        angle: Double = 0, fit: Bool = false
    ) -> PlacementMatrix {
        let turns = ((page.quarterTurns % 4) + 4) % 4
        let unit = page.userUnit
        let visible = page.visibleBox
        let sideways = turns % 2 == 1
        let shown = PageSize(
            width: (sideways ? visible.height : visible.width) * unit,
            height: (sideways ? visible.width : visible.height) * unit)
        let stampSideways = ((stampTurns % 4) + 4) % 2 == 1
        let upright = PageSize(
            width: (stampSideways ? box.height : box.width) * stampUnit,
            height: (stampSideways ? box.width : box.height) * stampUnit)
        let placed = frame(page: shown, stamp: Self.boundingSize(upright, degrees: angle), fit: fit)
        // In the page's units, from its displayed bottom-left corner; then the same
        // point in default user space: a reader turns the page clockwise by its
        // /Rotate, so that corner is the box's bottom-left (0), bottom-right (1),
        // top-right (2) or top-left (3).
        let x = placed.centreX / unit
        let y = placed.centreY / unit
        let (u, v): (Double, Double) =
            switch turns {
            case 1: (visible.x1 - y, visible.y0 + x)
            case 2: (visible.x1 - x, visible.y1 - y)
            case 3: (visible.x0 + y, visible.y1 - x)
            default: (visible.x0 + x, visible.y0 + y)
            }
        // p -> scale * R(p - stamp centre) + (u, v), R turning counter-clockwise by
        // the page's /Rotate (which the reader's clockwise turn undoes), less the
        // stamp page's own (which its reader would apply), plus the stamp's angle.
        let scale = placed.scale * stampUnit / unit
        let (sine, cosine) = Self.sineCosine(degrees: Double(turns * 90 - stampTurns * 90) + angle)
        let a = scale * cosine
        let b = scale * sine
        let cx = (box.x0 + box.x1) / 2
        let cy = (box.y0 + box.y1) / 2
        return PlacementMatrix(a: a, b: b, c: -b, d: a, e: u - (a * cx - b * cy), f: v - (b * cx + a * cy))
    }
}
