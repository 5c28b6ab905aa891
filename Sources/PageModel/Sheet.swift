/// A sheet (`nup`, `booklet`): one output page of `size` holding other items'
/// pages, each scaled to fit its cell upright as displayed. The cells keep the
/// original items whole (ids, rotations, boxes, stamps), so `undo` gives them back.
package struct Sheet: Codable, Equatable, Hashable, Sendable {
    /// The sheet's page size (MediaBox `[0 0 W H]`).
    package var size: PageSize
    /// In the order they were laid out; an empty cell has no item.
    package var cells: [SheetCell]

    package init(size: PageSize, cells: [SheetCell]) {
        self.size = size
        self.cells = cells
    }

    /// The items of the cells, in cell order.
    package var items: [PageItem] { cells.compactMap(\.item) }
}

/// One cell of a sheet: a rectangle on the sheet (sheet user space, points,
/// origin at the bottom left) and the item drawn into it, if any.
package struct SheetCell: Codable, Equatable, Hashable, Sendable {
    package var rect: BoxRect
    package var item: PageItem?

    package init(rect: BoxRect, item: PageItem?) {
        self.rect = rect
        self.item = item
    }

    // In the session file a cell is `{"rect": {…}, "item": {…}}`, the item
    // written as the document's items are; an empty cell has no "item".
    private enum CodingKeys: String, CodingKey {
        case rect, item
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rect = try container.decode(BoxRect.self, forKey: .rect)
        switch try container.decodeIfPresent(ItemRecord.self, forKey: .item) {
        case .single(let item)?: self.item = item
        case nil: item = nil
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .item, in: container, debugDescription: "a sheet's cell holds one item, not a run")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rect, forKey: .rect)
        try container.encodeIfPresent(item.map(ItemRecord.single), forKey: .item)
    }
}

/// The order `nup` fills a sheet's cells in.
package enum SheetOrder: String, Codable, CaseIterable, Sendable {
    /// Left to right, then top to bottom.
    case rows
    /// Top to bottom, then left to right.
    case columns
}

/// The layout rules of sheets, pure so they can be property-tested.
package enum Imposition {
    /// The most columns or rows `nup --grid` takes.
    package static let maximumGridSide = 20

    /// The `columns` × `rows` cells of a sheet of `size` in filling order, with
    /// `gutter` points between neighbouring cells (not at the sheet's edges).
    /// Nil when the gutter leaves no room for a cell.
    package static func gridCells(
        size: PageSize, columns: Int, rows: Int, gutter: Double, order: SheetOrder
    ) -> [BoxRect]? {
        guard columns >= 1, rows >= 1, gutter >= 0, gutter.isFinite else { return nil }
        let width = (size.width - gutter * Double(columns - 1)) / Double(columns)
        let height = (size.height - gutter * Double(rows - 1)) / Double(rows)
        guard width > 0, height > 0 else { return nil }
        func cell(column: Int, row: Int) -> BoxRect {
            let x0 = Double(column) * (width + gutter)
            // Row 0 is the top row: PDF's y grows upwards.
            let y1 = size.height - Double(row) * (height + gutter)
            // Rounding must not put the last row or column a hair off the sheet.
            return BoxRect(
                x0: x0, y0: max(0, y1 - height), x1: min(size.width, x0 + width), y1: y1)
        }
        var cells: [BoxRect] = []
        switch order {
        case .rows:
            for row in 0..<rows { for column in 0..<columns { cells.append(cell(column: column, row: row)) } }
        case .columns:
            for column in 0..<columns { for row in 0..<rows { cells.append(cell(column: column, row: row)) } }
        }
        return cells
    }

    /// Saddle-stitch order for `count` pages: the pages (0-based; nil = a blank
    /// pad) of each sheet side, left then right, for `count` rounded up to a
    /// multiple of 4. For 8 pages: 8|1, 2|7, 6|3, 4|5 (1-based).
    package static func bookletSides(count: Int) -> [(left: Int?, right: Int?)] {
        let padded = (count + 3) / 4 * 4
        func page(_ index: Int) -> Int? { index < count ? index : nil }
        var sides: [(left: Int?, right: Int?)] = []
        for side in 0..<(padded / 2) {
            let low = side
            let high = padded - 1 - side
            // Fronts (even sides) have the high page on the left; backs the low one.
            sides.append(side % 2 == 0 ? (page(high), page(low)) : (page(low), page(high)))
        }
        return sides
    }

    /// The two cells of a booklet side: left and right halves of the sheet.
    package static func bookletCells(size: PageSize) -> [BoxRect] {
        let half = size.width / 2
        return [
            BoxRect(x0: 0, y0: 0, x1: half, y1: size.height),
            BoxRect(x0: half, y0: 0, x1: size.width, y1: size.height),
        ]
    }

    /// The placement of a page in a cell: the matrix taking the page's default
    /// user space to sheet space so that its `visible` box, displayed turned
    /// `quarterTurns` clockwise (its /Rotate plus the item's rotation), is
    /// scaled to fit `cell` keeping its aspect ratio, centred and upright —
    /// the one placement rule (`PlacementMatrix.placing`).
    package static func cellMatrix(cell: BoxRect, visible: BoxRect, quarterTurns: Int) -> PlacementMatrix {
        PlacementMatrix.placing(visible, quarterTurns: quarterTurns, in: cell, fill: false)
    }

    /// What export draws a cell's page with (the bridge only writes it): the
    /// page of geometry `frame`, turned `quarterTurns` more by its item and cut
    /// to the item's `crop`, fitted to `cell` (points) on a sheet of `size`
    /// written in its own units (`PageSize.userUnit`). With `stamped`, the page
    /// is drawn from a copy that carries the crop as its crop box (a cell with
    /// stamps: the stamps are centred on what the reader sees), so the crop is
    /// the whole form and nothing is clipped.
    package static func cellPlacement(
        cell: BoxRect, sheet size: PageSize, frame: PageFrame, quarterTurns: Int, crop: BoxRect?, stamped: Bool
    ) -> FormPlacement {
        let unit = size.userUnit
        let target = BoxRect(x0: cell.x0 / unit, y0: cell.y0 / unit, x1: cell.x1 / unit, y1: cell.y1 / unit)
        let turns = frame.quarterTurns + quarterTurns
        if stamped, let crop {
            let box = BoxRect(
                x0: min(crop.x0, crop.x1), y0: min(crop.y0, crop.y1), x1: max(crop.x0, crop.x1),
                y1: max(crop.y0, crop.y1))
            return FormPlacement(matrix: cellMatrix(cell: target, visible: box, quarterTurns: turns))
        }
        let shown = FormPlacement.shown(frame.visibleBox, croppedTo: crop)
        return FormPlacement(
            matrix: cellMatrix(cell: target, visible: shown, quarterTurns: turns),
            clip: shown == frame.visibleBox ? nil : shown)
    }
}

extension PageItem {
    /// The ids of this item and, for a sheet, of its cells' items.
    public var idsWithCells: [ItemID] {
        if case .sheet(let sheet) = content { return [id] + sheet.items.map(\.id) }
        return [id]
    }
}

extension Document {
    /// Every id the document holds, its sheets' cells' included.
    package var idsWithCells: Set<ItemID> { Set(items.flatMap(\.idsWithCells)) }
}
