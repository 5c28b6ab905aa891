/// A page as export writes it, as a stamp is placed on it: its visible box in
/// its default user space, the clockwise quarter turns a reader shows it with
/// (its /Rotate), and its /UserUnit.
package struct ShownPage: Equatable, Sendable {
    package var visibleBox: BoxRect
    package var quarterTurns: Int
    package var userUnit: Double

    package init(visibleBox: BoxRect, quarterTurns: Int, userUnit: Double = 1) {
        self.visibleBox = visibleBox
        self.quarterTurns = quarterTurns
        self.userUnit = userUnit
    }

    /// A source page of geometry `frame` as an item shows it: turned
    /// `quarterTurns` more than its own /Rotate, and showing the item's `crop`
    /// (default user space) when it sets one (export grows the MediaBox to hold it).
    package init(page frame: PageFrame, quarterTurns: Int, crop: BoxRect?) {
        self.init(
            visibleBox: crop.map(\.normalised) ?? frame.visibleBox, quarterTurns: frame.quarterTurns + quarterTurns,
            userUnit: frame.userUnit)
    }

    /// A page export makes anew (a blank page, a sheet, a resized page) of
    /// `size` points, turned `quarterTurns`: MediaBox [0 0 W H] in its own units
    /// (`PageSize.userUnit`), and the item's `crop` (points) in them too.
    package init(newPage size: PageSize, quarterTurns: Int, crop: BoxRect?) {
        let unit = size.userUnit
        let box = crop.map(\.normalised) ?? BoxRect(x0: 0, y0: 0, x1: size.width, y1: size.height)
        self.init(
            visibleBox: BoxRect(x0: box.x0 / unit, y0: box.y0 / unit, x1: box.x1 / unit, y1: box.y1 / unit),
            quarterTurns: quarterTurns, userUnit: unit)
    }
}
