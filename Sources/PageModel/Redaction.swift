/// One region `redact` takes out of an item's page at export: everything the
/// page draws there (text, images, paths, annotations) is removed from the
/// file, not covered, and the region is filled. The model records it; export
/// carries it out (QPDFCore/Redact.cpp) and proves it afterwards.
public struct Redaction: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The region in the default user space of the page export writes for the
    /// item (unrotated; a resized item's or a sheet's new page), so that it
    /// stays on the same content when the item is rotated or moved.
    package var rect: BoxRect
    /// The fill colour (RGB; CMYK written as its RGB).
    package var fill: TextColor
    /// What `show` and `redact --list` print beside the box.
    package var label: String?
    /// The text of the occurrence `redact --text` found there.
    package var text: String?

    package init(rect: BoxRect, fill: TextColor, label: String? = nil, text: String? = nil) {
        self.rect = rect
        self.fill = fill
        self.label = label
        self.text = text
    }

    package static let black = TextColor(components: [0, 0, 0])!

    public var description: String { "redact \(rect)" + (label.map { " \"\($0)\"" } ?? "") }
}

/// What `redact` was asked for on the command line, resolved per item when
/// the edit is applied: a rectangle on the page as displayed, or the boxes of
/// a text's occurrences.
package enum RedactTarget: Codable, Equatable, Hashable, Sendable {
    /// X,Y (lower-left corner), W, H on the page as displayed (its visible box
    /// after rotation, y upward), in `units`.
    case rect(x: Double, y: Double, width: Double, height: Double, units: RedactUnits)
    /// Every occurrence of `words` (`regex`: a regular expression; `caseSensitive`).
    case text(String, regex: Bool, caseSensitive: Bool)
}

/// The units of `redact --rect`.
public enum RedactUnits: String, Codable, CaseIterable, Hashable, Sendable {
    case pt, mm
    /// Percent of the displayed page's width (X, W) and height (Y, H).
    case percent = "%"
}

/// One occurrence of a text on a page, as the text layout finds it: its
/// box in the page's default user space and the text it covers.
package struct TextHit: Equatable, Sendable {
    package var rect: BoxRect
    package var text: String

    package init(rect: BoxRect, text: String) {
        self.rect = rect
        self.text = text
    }
}

extension BoxRect {
    /// This rectangle, given on a page shown with visible box `visible` turned
    /// `quarterTurns` clockwise (coordinates from the displayed page's
    /// lower-left corner, y upward), in the page's default user space.
    package func fromDisplayed(visible: BoxRect, quarterTurns: Int) -> BoxRect {
        let turns = ((quarterTurns % 4) + 4) % 4
        let w = visible.width
        let h = visible.height
        func point(_ x: Double, _ y: Double) -> (Double, Double) {
            switch turns {
            case 1: return (visible.x0 + w - y, visible.y0 + x)  // the displayed top is the user-space left edge
            case 2: return (visible.x0 + w - x, visible.y0 + h - y)
            case 3: return (visible.x0 + y, visible.y0 + h - x)
            default: return (visible.x0 + x, visible.y0 + y)
            }
        }
        let a = point(x0, y0)
        let b = point(x1, y1)
        return BoxRect(x0: min(a.0, b.0), y0: min(a.1, b.1), x1: max(a.0, b.0), y1: max(a.1, b.1))
    }
}

extension BoxRect {
    /// The inverse of `fromDisplayed`: this user-space rectangle on the page
    /// as displayed (from its lower-left corner, y upward).
    package func toDisplayed(visible: BoxRect, quarterTurns: Int) -> BoxRect {
        let turns = ((quarterTurns % 4) + 4) % 4
        let w = visible.width
        let h = visible.height
        func point(_ ux: Double, _ uy: Double) -> (Double, Double) {
            let x = ux - visible.x0
            let y = uy - visible.y0
            switch turns {
            case 1: return (y, w - x)
            case 2: return (w - x, h - y)
            case 3: return (h - y, x)
            default: return (x, y)
            }
        }
        let a = point(x0, y0)
        let b = point(x1, y1)
        return BoxRect(x0: min(a.0, b.0), y0: min(a.1, b.1), x1: max(a.0, b.0), y1: max(a.1, b.1))
    }
}
