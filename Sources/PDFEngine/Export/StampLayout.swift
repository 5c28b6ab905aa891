import PageModel

extension ExportStamp {
    /// `stamps`, and the stamps of the sheets' cells in `items`, each with the
    /// matrix it is drawn with (`matrix`), worked out by the model
    /// (`StampPlacement.matrix`) from the geometry of the page it goes on (as
    /// export writes that page: `ShownPage`) and of the stamp; `frame` gives
    /// the geometry of page `page` (0-based) of `sources[source]`, as the
    /// bridge reads it. Export draws only placed stamps.
    package static func place<Failure: Error>(
        _ stamps: inout [ExportStamp], items: inout [ExportItem],
        frame: (_ source: Int, _ page: Int) throws(Failure) -> PageFrame
    ) throws(Failure) {
        for index in stamps.indices where items.indices.contains(stamps[index].item) {
            let page = try shownPage(of: items[stamps[index].item], frame: frame)
            try stamps[index].place(on: page, frame: frame)
        }
        for item in items.indices {
            guard items[item].hasCellStamps, case .sheet(let width, let height, let turns, let boxes, var cells) = items[item]
            else { continue }
            for cell in cells.indices where !cells[cell].stamps.isEmpty {
                guard let source = cells[cell].source else { continue }
                let page = ShownPage(
                    page: try frame(source, cells[cell].index), quarterTurns: cells[cell].quarterTurns,
                    crop: cells[cell].crop)
                for stamp in cells[cell].stamps.indices {
                    try cells[cell].stamps[stamp].place(on: page, frame: frame)
                }
            }
            items[item] = .sheet(width: width, height: height, quarterTurns: turns, boxes: boxes, cells: cells)
        }
    }

    /// The page `item` makes, as a stamp is placed on it.
    static func shownPage<Failure: Error>(
        of item: ExportItem, frame: (Int, Int) throws(Failure) -> PageFrame
    ) throws(Failure) -> ShownPage {
        switch item {
        case .page(let source, let index, let turns, let boxes, let resize):
            if let resize { return ShownPage(newPage: resize.size, quarterTurns: turns, crop: boxes.crop) }
            return ShownPage(page: try frame(source, index), quarterTurns: turns, crop: boxes.crop)
        case .blank(let width, let height, let turns, let boxes), .sheet(let width, let height, let turns, let boxes, _):
            return ShownPage(newPage: PageSize(width: width, height: height), quarterTurns: turns, crop: boxes.crop)
        }
    }

    private mutating func place<Failure: Error>(
        on page: ShownPage, frame: (Int, Int) throws(Failure) -> PageFrame
    ) throws(Failure) {
        if let text {
            let box = text.font.box(of: text.bytes, size: text.size)
            let pad = text.padding
            matrix = placement.matrix(
                on: page, stamp: BoxRect(x0: -pad, y0: box.descent - pad, x1: box.width + pad, y1: box.ascent + pad),
                angle: text.angle)
        } else {
            let stampFrame = try frame(source, self.page)
            matrix = placement.matrix(
                on: page, stamp: stampFrame.visibleBox, quarterTurns: stampFrame.quarterTurns,
                userUnit: stampFrame.userUnit, angle: angle, fit: fit)
        }
    }
}

extension ExportItem {
    /// A sheet with a cell that carries stamps.
    package var hasCellStamps: Bool {
        if case .sheet(_, _, _, _, let cells) = self { return cells.contains { !$0.stamps.isEmpty } }
        return false
    }
}
