/// A rectangle in a page's default user space (points, unrotated), x0 < x1, y0 < y1.
package struct BoxRect: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    package var x0: Double
    package var y0: Double
    package var x1: Double
    package var y1: Double

    package init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    private enum CodingKeys: String, CodingKey {
        case x0, y0, x1, y1
    }

    // Encoded as synthesized; read through the session's number check.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x0 = try container.decodeSessionNumber(.x0)
        y0 = try container.decodeSessionNumber(.y0)
        x1 = try container.decodeSessionNumber(.x1)
        y1 = try container.decodeSessionNumber(.y1)
    }

    package var width: Double { x1 - x0 }
    package var height: Double { y1 - y0 }

    /// Finite corners no farther from the origin than the largest page side
    /// (`PageSize.maximumSide`), with a positive width and height.
    package var isValid: Bool {
        [x0, y0, x1, y1].allSatisfy { $0.isFinite && abs($0) <= PageSize.maximumSide } && x1 > x0 && y1 > y0
    }

    /// The same box with x0 <= x1 and y0 <= y1.
    package var normalised: BoxRect {
        BoxRect(x0: min(x0, x1), y0: min(y0, y1), x1: max(x0, x1), y1: max(y0, y1))
    }

    /// The box widened and heightened about its centre to at least `side` each way.
    package func grown(toAtLeast side: Double) -> BoxRect {
        let extraX = max(0, side - width) / 2
        let extraY = max(0, side - height) / 2
        return BoxRect(x0: x0 - extraX, y0: y0 - extraY, x1: x1 + extraX, y1: y1 + extraY)
    }

    /// The smallest box holding both.
    package func union(_ other: BoxRect) -> BoxRect {
        BoxRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// `[x0 y0 x1 y1]`, as a PDF writes a box.
    package var description: String {
        "[" + [x0, y0, x1, y1].map(BoxRect.number).joined(separator: " ") + "]"
    }

    static func number(_ value: Double) -> String {
        decimalText(value, decimals: 3)
    }
}

/// The four boxes a page item may set at export (`crop --box`).
package enum PageBoxKind: String, Codable, CaseIterable, Hashable, Sendable {
    case crop, trim, bleed, art

    /// The PDF key: `CropBox`, `TrimBox`, `BleedBox`, `ArtBox`.
    package var pdfKey: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() + "Box" }
}

/// The boxes an item sets on its page at export; nil: the source's own box.
/// In the session file `"boxes": {"crop": {"x0": …, "y0": …, "x1": …, "y1": …}}`
/// on an item written alone (session format 4).
package struct PageBoxes: Codable, Equatable, Hashable, Sendable {
    /// The four boxes out of line, nil when none is set: most items set none,
    /// and a document of 20,000 items carried 160 bytes of nothing for each,
    /// twice over at export (the session's items and the export plan's).
    private var storage: Storage?

    private final class Storage: Sendable {
        let crop: BoxRect?
        let trim: BoxRect?
        let bleed: BoxRect?
        let art: BoxRect?

        init(crop: BoxRect?, trim: BoxRect?, bleed: BoxRect?, art: BoxRect?) {
            self.crop = crop
            self.trim = trim
            self.bleed = bleed
            self.art = art
        }
    }

    package var crop: BoxRect? {
        get { storage?.crop }
        set { self[.crop] = newValue }
    }
    package var trim: BoxRect? {
        get { storage?.trim }
        set { self[.trim] = newValue }
    }
    package var bleed: BoxRect? {
        get { storage?.bleed }
        set { self[.bleed] = newValue }
    }
    package var art: BoxRect? {
        get { storage?.art }
        set { self[.art] = newValue }
    }

    package init(crop: BoxRect? = nil, trim: BoxRect? = nil, bleed: BoxRect? = nil, art: BoxRect? = nil) {
        let none = crop == nil && trim == nil && bleed == nil && art == nil
        storage = none ? nil : Storage(crop: crop, trim: trim, bleed: bleed, art: art)
    }

    // As the synthesized ones of four optional properties would be: the session
    // file's format is unchanged.
    private enum CodingKeys: String, CodingKey {
        case crop, trim, bleed, art
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            crop: try container.decodeIfPresent(BoxRect.self, forKey: .crop),
            trim: try container.decodeIfPresent(BoxRect.self, forKey: .trim),
            bleed: try container.decodeIfPresent(BoxRect.self, forKey: .bleed),
            art: try container.decodeIfPresent(BoxRect.self, forKey: .art))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(crop, forKey: .crop)
        try container.encodeIfPresent(trim, forKey: .trim)
        try container.encodeIfPresent(bleed, forKey: .bleed)
        try container.encodeIfPresent(art, forKey: .art)
    }

    package static func == (a: PageBoxes, b: PageBoxes) -> Bool {
        a.crop == b.crop && a.trim == b.trim && a.bleed == b.bleed && a.art == b.art
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(crop)
        hasher.combine(trim)
        hasher.combine(bleed)
        hasher.combine(art)
    }

    /// No box is set (there is no storage only then: see `init`).
    package var isEmpty: Bool { storage == nil }

    package subscript(kind: PageBoxKind) -> BoxRect? {
        get {
            switch kind {
            case .crop: crop
            case .trim: trim
            case .bleed: bleed
            case .art: art
            }
        }
        set {
            // A new storage: another PageBoxes may share this one.
            let values = PageBoxKind.allCases.map { $0 == kind ? newValue : self[$0] }
            self = PageBoxes(crop: values[0], trim: values[1], bleed: values[2], art: values[3])
        }
    }
}

/// Margins on the page AS DISPLAYED: `top` is the reader's top whatever the
/// page's rotation. Points; negative values add margin.
package struct Margins: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    package var top: Double
    package var right: Double
    package var bottom: Double
    package var left: Double

    package init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// CSS order: one value for all sides, two for top/bottom and left/right,
    /// four for top, right, bottom, left. Nil for any other count.
    package init?(values: [Double]) {
        switch values.count {
        case 1: self.init(top: values[0], right: values[0], bottom: values[0], left: values[0])
        case 2: self.init(top: values[0], right: values[1], bottom: values[0], left: values[1])
        case 4: self.init(top: values[0], right: values[1], bottom: values[2], left: values[3])
        default: return nil
        }
    }

    package var description: String {
        [top, right, bottom, left].map(BoxRect.number).joined(separator: ",")
    }

    /// THE conversion from the reader's sides to user space: the box `visible`
    /// (default user space) moved inward by these margins, for a page displayed
    /// turned `quarterTurns` clockwise (its /Rotate plus the item's rotation).
    /// Turned once clockwise, the reader's top is the user-space left edge (x0),
    /// their right the top edge (y1), and so on round the page.
    package func applied(to visible: BoxRect, quarterTurns: Int) -> BoxRect {
        // Insets of the user-space edges in clockwise order: y1 (top), x1, y0, x0.
        let displayed = [top, right, bottom, left]
        let turns = ((quarterTurns % 4) + 4) % 4
        // Displayed side i sits on user edge (i - turns) mod 4, so user edge e
        // shows as displayed side (e + turns) mod 4.
        func inset(_ edge: Int) -> Double { displayed[(edge + turns) % 4] }
        return BoxRect(
            x0: visible.x0 + inset(3), y0: visible.y0 + inset(2),
            x1: visible.x1 - inset(1), y1: visible.y1 - inset(0))
    }
}

/// What `crop` does to the chosen box.
package enum CropSpec: Codable, Equatable, Hashable, Sendable {
    /// Inward from the current visible box, on the page as displayed.
    case margins(Margins)
    /// Absolute, in the page's default user space.
    case rect(BoxRect)
    /// Back to the source's own box.
    case reset
    /// To the ink of the page (`EditContext.pageInk`), grown by `pad` points on every side.
    case auto(pad: Double)
}

/// What rendering a page finds (`crop --auto`): no ink at all, or the box
/// around it in the page's default user space.
package enum PageInk: Equatable, Sendable {
    case none
    case box(BoxRect)
}

/// A page's geometry as its source gives it: the MediaBox, the visible box
/// (the CropBox clipped to it), the page's own /Rotate in quarter turns and its /UserUnit.
package struct PageFrame: Equatable, Sendable {
    package var mediaBox: BoxRect
    package var visibleBox: BoxRect
    package var quarterTurns: Int
    /// Points per default user space unit (/UserUnit).
    package var userUnit: Double

    package init(mediaBox: BoxRect, visibleBox: BoxRect, quarterTurns: Int, userUnit: Double = 1) {
        self.mediaBox = mediaBox
        self.visibleBox = visibleBox
        self.quarterTurns = quarterTurns
        self.userUnit = userUnit
    }
}
