/// How `resize` scales what a page shows onto the new paper.
package enum ResizeMode: String, Codable, CaseIterable, Hashable, Sendable {
    /// Inside the paper, aspect ratio kept, centred (margins where the shapes differ).
    case fit
    /// Covering the paper, aspect ratio kept, centred (what overflows is clipped).
    case fill
}

/// What `resize` froze into an item: the new paper, and what the item showed
/// then — its rotation and its crop — which the resized page draws upright. The
/// item itself then has rotation 0 and no boxes, so later turns and crops act
/// on the resized page. In the session file `"resize": {"size": …, "mode":
/// "fit", "quarterTurns": 1, "crop": {…}}` (session format 5).
package struct PageResize: Codable, Equatable, Hashable, Sendable {
    /// The new page, points (MediaBox `[0 0 W H]`).
    package var size: PageSize
    package var mode: ResizeMode
    /// The item's clockwise quarter turns when it was resized (added to the page's own /Rotate).
    package var quarterTurns: Int
    /// The item's crop box when it was resized (default user space); nil: the source's visible box.
    package var crop: BoxRect?

    package init(size: PageSize, mode: ResizeMode, quarterTurns: Int = 0, crop: BoxRect? = nil) {
        self.size = size
        self.mode = mode
        self.quarterTurns = quarterTurns
        self.crop = crop
    }

    /// The matrix the resized page draws its source page with, for a source page
    /// of geometry `frame`: its visible box (or the frozen crop, clipped to it),
    /// turned by its /Rotate plus the frozen turns, placed in `[0 0 W H]`.
    package func matrix(for frame: PageFrame) -> PlacementMatrix {
        PlacementMatrix.placing(
            shownBox(for: frame), quarterTurns: frame.quarterTurns + quarterTurns,
            in: BoxRect(x0: 0, y0: 0, x1: size.width, y1: size.height), fill: mode == .fill)
    }

    /// The part of the source page the resized page shows: the frozen crop
    /// clipped to the page's visible box (the visible box when they miss).
    package func shownBox(for frame: PageFrame) -> BoxRect {
        FormPlacement.shown(frame.visibleBox, croppedTo: crop)
    }

    /// What export draws the resized page with (the bridge only writes it): the
    /// matrix of `matrix(for:)` in the new page's own units (a side over
    /// 14,400 pt is written with a /UserUnit, `PageSize.userUnit`), clipped to
    /// the shown box when the frozen crop cuts the visible box.
    package func placement(for frame: PageFrame) -> FormPlacement {
        let shown = shownBox(for: frame)
        let unit = size.userUnit
        return FormPlacement(
            matrix: PlacementMatrix.placing(
                shown, quarterTurns: frame.quarterTurns + quarterTurns,
                in: BoxRect(x0: 0, y0: 0, x1: size.width / unit, y1: size.height / unit), fill: mode == .fill),
            clip: shown == frame.visibleBox ? nil : shown)
    }
}

/// A source page drawn onto a new page as a form XObject whose /BBox is the
/// page's visible box (a resized page, a sheet's cell): the matrix from the
/// source page's default user space to the new page's user space, and the box
/// (source space) to clip to when only part of the visible box is shown. The
/// whole of the geometry: export hands it to the bridge as numbers
/// (`pe_placement`), which only writes them.
package struct FormPlacement: Equatable, Sendable {
    package var matrix: PlacementMatrix
    /// nil: the whole visible box is drawn.
    package var clip: BoxRect?

    package init(matrix: PlacementMatrix, clip: BoxRect? = nil) {
        self.matrix = matrix
        self.clip = clip
    }

    /// What a page shows of its `visible` box when `crop` (an item's crop, or
    /// none) limits it: the part inside the crop, or `visible` when there is no
    /// crop or it misses the visible box.
    package static func shown(_ visible: BoxRect, croppedTo crop: BoxRect?) -> BoxRect {
        guard let crop else { return visible }
        let inside = BoxRect(
            x0: max(min(crop.x0, crop.x1), visible.x0), y0: max(min(crop.y0, crop.y1), visible.y0),
            x1: min(max(crop.x0, crop.x1), visible.x1), y1: min(max(crop.y0, crop.y1), visible.y1))
        return inside.isValid ? inside : visible
    }
}

/// An affine transformation as a PDF `cm` writes it:
/// (x, y) → (a x + c y + e, b x + d y + f).
package struct PlacementMatrix: Equatable, Sendable, CustomStringConvertible {
    package var a: Double
    package var b: Double
    package var c: Double
    package var d: Double
    package var e: Double
    package var f: Double

    package init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    package static let identity = PlacementMatrix(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)

    /// THE placement rule (resized pages and sheet cells, shown and exported:
    /// the bridge receives the matrix): the box `box` of a page shown turned
    /// `quarterTurns` clockwise, drawn upright and centred in `target`, scaled
    /// uniformly to fit inside it, or (`fill`) to cover it.
    package static func placing(_ box: BoxRect, quarterTurns: Int, in target: BoxRect, fill: Bool) -> PlacementMatrix {
        let turns = ((quarterTurns % 4) + 4) % 4
        let sideways = turns % 2 == 1
        let shownWidth = sideways ? box.height : box.width
        let shownHeight = sideways ? box.width : box.height
        var scale = 1.0
        if shownWidth > 0 && shownHeight > 0 {
            let across = target.width / shownWidth
            let up = target.height / shownHeight
            scale = fill ? max(across, up) : min(across, up)
        }
        // A viewer turns the page clockwise; so does the matrix.
        let cosine: Double = turns == 0 ? 1 : turns == 2 ? -1 : 0
        let sine: Double = turns == 1 ? -1 : turns == 3 ? 1 : 0  // of the counter-clockwise angle
        var m = PlacementMatrix(a: scale * cosine, b: scale * sine, c: -scale * sine, d: scale * cosine, e: 0, f: 0)
        let cx = (box.x0 + box.x1) / 2
        let cy = (box.y0 + box.y1) / 2
        m.e = (target.x0 + target.x1) / 2 - (m.a * cx + m.c * cy)
        m.f = (target.y0 + target.y1) / 2 - (m.b * cx + m.d * cy)
        return m
    }

    package func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + e, b * x + d * y + f)
    }

    /// The bounding box of `rect` transformed.
    package func apply(_ rect: BoxRect) -> BoxRect {
        let corners = [(rect.x0, rect.y0), (rect.x1, rect.y0), (rect.x1, rect.y1), (rect.x0, rect.y1)].map {
            apply(x: $0.0, y: $0.1)
        }
        return BoxRect(
            x0: corners.map(\.x).min()!, y0: corners.map(\.y).min()!,
            x1: corners.map(\.x).max()!, y1: corners.map(\.y).max()!)
    }

    /// The transformation undoing this one (nil when it flattens the plane).
    package var inverse: PlacementMatrix? {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return nil }
        let ia = d / determinant
        let ib = -b / determinant
        let ic = -c / determinant
        let id = a / determinant
        return PlacementMatrix(a: ia, b: ib, c: ic, d: id, e: -(ia * e + ic * f), f: -(ib * e + id * f))
    }

    package var description: String {
        [a, b, c, d, e, f].map(BoxRect.number).joined(separator: " ")
    }
}
