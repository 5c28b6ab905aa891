extension Session {
    /// The most columns or rows `split-page --grid` takes.
    package static let maximumGridSide = 20

    /// The cells of a page displayed turned `quarterTurns`, in reading order as
    /// displayed (left to right, top to bottom), each as margins on the page as
    /// displayed applied to `visible` (see `Margins.applied`).
    package static func gridCells(of visible: BoxRect, quarterTurns: Int, columns: Int, rows: Int) -> [BoxRect] {
        let turned = ((quarterTurns % 4) + 4) % 4 % 2 == 1
        let width = turned ? visible.height : visible.width
        let height = turned ? visible.width : visible.height
        var cells: [BoxRect] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let margins = Margins(
                    top: height * Double(row) / Double(rows),
                    right: width - width * Double(column + 1) / Double(columns),
                    bottom: height - height * Double(row + 1) / Double(rows),
                    left: width * Double(column) / Double(columns))
                cells.append(margins.applied(to: visible, quarterTurns: quarterTurns))
            }
        }
        return cells
    }

    /// `split-page SEL --grid CxR`: each selected item keeps the first cell (so
    /// bookmarks and labels that point at it stay) and is followed by copies
    /// showing the other cells; a cell is a crop box of the item's visible box.
    mutating func executeSplitPage(
        _ selection: PageSelection, columns: Int, rows: Int, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        guard (1...Session.maximumGridSide).contains(columns), (1...Session.maximumGridSide).contains(rows),
            columns * rows >= 2
        else { throw .invalidGrid(columns: columns, rows: rows) }
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        let cellCount = columns * rows
        var cellsOf: [[BoxRect]] = []
        for index in selected {
            let item = document.items[index]
            guard let frame = Session.frame(of: item, context: context) else {
                throw .pageSizeUnknown(position: index + 1, document: name)
            }
            cellsOf.append(
                Session.gridCells(
                    of: item.boxes.crop ?? frame.visibleBox, quarterTurns: frame.quarterTurns + item.rotation,
                    columns: columns, rows: rows))
        }
        // The copies, in document order, get their ids first (ascending).
        var contents: [ItemContent] = []
        var rotations: [Int] = []
        var stamps: [[Stamp]] = []
        var boxes: [PageBoxes] = []
        var resizes: [PageResize?] = []
        var finishes: [[PageFinish]] = []
        for (offset, index) in selected.enumerated() {
            let item = document.items[index]
            for cell in cellsOf[offset].dropFirst() {
                var itemBoxes = item.boxes
                itemBoxes.crop = cell
                contents.append(item.content)
                rotations.append(item.rotation)
                stamps.append(item.stamps)
                boxes.append(itemBoxes)
                resizes.append(item.resize)
                finishes.append(item.finish)
            }
        }
        let (copies, counter) = try makeItems(
            contents, rotations: rotations, stamps: stamps, boxes: boxes, resizes: resizes, finishes: finishes)
        var changes: [Change] = [.counters(items: counter, sources: unchangedSourceCounter)]
        // Last selected first, so the indices of the others do not move.
        for (offset, index) in selected.enumerated().reversed() {
            let item = document.items[index]
            var first = item.boxes
            first.crop = cellsOf[offset][0]
            let ownCopies = Array(copies[(offset * (cellCount - 1))..<((offset + 1) * (cellCount - 1))])
            changes.append(.rebox(document: name, at: IndexRuns(index..<(index + 1)), from: item.boxes, to: first))
            changes.append(
                .insert(document: name, at: IndexRuns((index + 1)..<(index + cellCount)), items: ownCopies))
        }
        try commit(changes)

        let result = try requireDocument(name)
        let positions = selected.enumerated().flatMap { offset, index in
            (0..<cellCount).map { index + offset * (cellCount - 1) + $0 + 1 }
        }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "split-page",
                description: "split \(countPhrase(selected.count, "page")) into \(columns)x\(rows) cells "
                    + "(\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: positions,
                ids: positions.map { result.items[$0 - 1].id }))
    }
}
