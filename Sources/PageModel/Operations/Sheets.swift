extension Session {
    /// `nup SEL --grid CxR …`: the selected items, in order, fill sheets of
    /// C×R cells (the last may be partly empty); the sheets take the place of
    /// the first selected item. One step: the items are removed and the sheets
    /// inserted, so undo gives the items back with their ids.
    mutating func executeNup(
        _ selection: PageSelection, columns: Int, rows: Int, size: PageSizeSpec?, order: SheetOrder, gutter: Double,
        in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        guard (1...Imposition.maximumGridSide).contains(columns), (1...Imposition.maximumGridSide).contains(rows)
        else {
            throw .invalidSheet(
                "a grid of \(columns)x\(rows) cannot make sheets: each side takes 1 to \(Imposition.maximumGridSide)")
        }
        guard gutter.isFinite, gutter >= 0 else { throw .invalidSheet("the gutter must be 0 or more (got \(gutter))") }
        let document = try requireDocument(name)
        let selected = try sheetSelection(selection, in: document, context: context)
        let sheetSize = try sheetSize(size, document: document, first: selected[0], doubled: false, context: context)
        guard
            let rects = Imposition.gridCells(
                size: sheetSize, columns: columns, rows: rows, gutter: gutter, order: order)
        else {
            throw .invalidSheet("a gutter of \(BoxRect.number(gutter)) pt leaves no room for \(columns)x\(rows) cells "
                + "on a sheet of \(sheetSize)")
        }
        let items = selected.map { document.items[$0] }
        var sheets: [Sheet] = []
        for start in stride(from: 0, to: items.count, by: rects.count) {
            let cells = rects.enumerated().map { offset, rect in
                SheetCell(rect: rect, item: start + offset < items.count ? items[start + offset] : nil)
            }
            sheets.append(Sheet(size: sheetSize, cells: cells))
        }
        return try replace(
            selected, with: sheets, in: name, action: "nup",
            description: "put \(countPhrase(items.count, "page")) on \(countPhrase(sheets.count, "sheet")) of "
                + "\(columns)x\(rows) (\(sheetSize))")
    }

    /// `booklet SEL [--size SIZE]`: saddle-stitch imposition, two pages per
    /// sheet side by side in folding order, padded with empty cells to a
    /// multiple of 4 pages.
    mutating func executeBooklet(
        _ selection: PageSelection, size: PageSizeSpec?, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try sheetSelection(selection, in: document, context: context)
        let sheetSize = try sheetSize(size, document: document, first: selected[0], doubled: true, context: context)
        let rects = Imposition.bookletCells(size: sheetSize)
        let items = selected.map { document.items[$0] }
        let sheets = Imposition.bookletSides(count: items.count).map { side in
            Sheet(
                size: sheetSize,
                cells: [
                    SheetCell(rect: rects[0], item: side.left.map { items[$0] }),
                    SheetCell(rect: rects[1], item: side.right.map { items[$0] }),
                ])
        }
        let padded = sheets.count * 2 - items.count
        let pads = padded == 0 ? "" : ", \(countPhrase(padded, "blank")) added"
        return try replace(
            selected, with: sheets, in: name, action: "booklet",
            description: "made a booklet of \(countPhrase(items.count, "page")) on "
                + "\(countPhrase(sheets.count, "sheet side")) (\(sheetSize))\(pads)")
    }

    /// The selected items; a sheet cannot go into another sheet.
    private func sheetSelection(
        _ selection: PageSelection, in document: Document, context: EditContext
    ) throws(EditError) -> [Int] {
        let selected = try resolve(selection, in: document, context: context)
        guard !selected.isEmpty else { throw .emptyDocument(document.name) }
        if let index = selected.first(where: { document.items[$0].content.sheet != nil }) {
            throw .invalidSheet(
                "the item at position \(index + 1) is already a sheet: a sheet cannot go into another sheet "
                    + "(undo the first nup or booklet, then impose all pages at once)")
        }
        if let index = selected.first(where: { document.items[$0].content.isPlaceholder }) {
            throw .invalidSheet("the item at position \(index + 1) is a placeholder: fill it before putting it on a sheet")
        }
        if let index = selected.first(where: { document.items[$0].resize != nil }) {
            throw .invalidSheet(
                "the item at position \(index + 1) is resized: a sheet scales its pages itself "
                    + "(undo the resize: nup and booklet --size set the sheets' paper)")
        }
        if let index = selected.first(where: { document.items[$0].stamps.contains { $0.text != nil } }) {
            throw .invalidSheet(
                "the item at position \(index + 1) has a page number, Bates number or watermark: "
                    + "put the pages on sheets first, then number the sheets (or unstamp it)")
        }
        return selected
    }

    /// The sheet size: given, or the first item's size as displayed (its crop
    /// and rotations applied), twice as wide for a booklet.
    private func sheetSize(
        _ spec: PageSizeSpec?, document: Document, first: Int, doubled: Bool, context: EditContext
    ) throws(EditError) -> PageSize {
        let size: PageSize
        switch spec {
        case .fixed(let fixed)?:
            size = fixed
        case .like(let position)?:
            let index = try inDocument(document) { () throws(SelectionError) in try position.index(in: document) }
            size = try shownSize(of: index, in: document, context: context)
        case nil:
            let page = try shownSize(of: first, in: document, context: context)
            size = doubled ? PageSize(width: page.width * 2, height: page.height) : page
        }
        return try checkedPageSize(size)
    }

    /// The item's size as the reader sees it: its visible box (crop) turned by
    /// the page's /Rotate and the item's rotation.
    func shownSize(of index: Int, in document: Document, context: EditContext) throws(EditError) -> PageSize {
        let item = document.items[index]
        guard let frame = Session.frame(of: item, context: context) else {
            throw .pageSizeUnknown(position: index + 1, document: document.name)
        }
        let box = item.boxes.crop ?? frame.visibleBox
        let turned = (frame.quarterTurns + item.rotation) % 2 == 1
        return turned ? PageSize(width: box.height, height: box.width) : PageSize(width: box.width, height: box.height)
    }

    /// Takes the `selected` items out and puts `sheets` (new ids) where the first was.
    private mutating func replace(
        _ selected: [Int], with sheets: [Sheet], in name: String, action: String, description: String
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let (made, counter) = try makeItems(sheets.map { .sheet($0) }, freshCells: false)
        let first = selected[0]
        let changes: [Change] = [
            .counters(items: counter, sources: unchangedSourceCounter),
            .remove(document: name, at: IndexRuns(ascending: selected), items: selected.map { document.items[$0] }),
            .insert(document: name, at: IndexRuns(first..<(first + made.count)), items: made),
        ]
        try commit(changes)
        let result = try requireDocument(name)
        let positions = Array((first + 1)...(first + made.count))
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: action, description: "\(description) (now \(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: positions, ids: made.map(\.id)))
    }
}
