import Foundation
import PageModel
import PropertyBased
import Testing

/// `nup` and `booklet`: the layout rules (property tests), the edits, undo and
/// the session file.
@Suite struct SheetTests {
    /// Pages 600×800 at origin (100, 50), page k turned (k-1) quarter turns by its own /Rotate.
    let context = EditContext(pageFrame: { item in
        guard case .page(_, let page) = item.content else { return nil }
        let box = BoxRect(x0: 100, y0: 50, x1: 700, y1: 850)
        return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: (page - 1) % 4)
    })

    func items(_ s: Session) -> [PageItem] { s.document(named: s.current)?.items ?? [] }

    // MARK: layout properties

    @Test func bookletSidesHoldEveryPageOnceInFoldingOrder() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...400)) { count in
            let sides = Imposition.bookletSides(count: count)
            let padded = (count + 3) / 4 * 4
            #expect(sides.count == padded / 2)
            let pages = sides.flatMap { [$0.left, $0.right] }.compactMap { $0 }
            #expect(pages.sorted() == Array(0..<count))
            // Naive reference: sheet k (0-based) of a stack folded in half carries
            // on its front n-2k | 2k+1 and on its back 2k+2 | n-2k-1 (1-based).
            for k in 0..<(padded / 4) {
                let front = (padded - 2 * k, 2 * k + 1)
                let back = (2 * k + 2, padded - 2 * k - 1)
                func shown(_ page: Int) -> Int? { page <= count ? page - 1 : nil }
                #expect(sides[2 * k].left == shown(front.0) && sides[2 * k].right == shown(front.1))
                #expect(sides[2 * k + 1].left == shown(back.0) && sides[2 * k + 1].right == shown(back.1))
            }
        }
    }

    @Test func eightPagesFoldAs81_27_63_45() {
        let sides = Imposition.bookletSides(count: 8).map { [$0.left! + 1, $0.right! + 1] }
        #expect(sides == [[8, 1], [2, 7], [6, 3], [4, 5]])
        let five = Imposition.bookletSides(count: 5).map { [$0.left.map { $0 + 1 }, $0.right.map { $0 + 1 }] }
        #expect(five == [[nil, 1], [2, nil], [nil, 3], [4, 5]])
    }

    @Test func gridCellsAreOnTheSheetApartByTheGutterAndInOrder() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 100...3000).array(of: 2), Gen.int(in: 1...6), Gen.int(in: 1...6),
            Gen.int(in: 0...30), Gen.bool
        ) { size, columns, rows, gutter, byColumns in
            let sheet = PageSize(width: Double(size[0]), height: Double(size[1]))
            let order: SheetOrder = byColumns ? .columns : .rows
            guard
                let cells = Imposition.gridCells(
                    size: sheet, columns: columns, rows: rows, gutter: Double(gutter), order: order)
            else {
                #expect(Double(gutter * (columns - 1)) >= sheet.width || Double(gutter * (rows - 1)) >= sheet.height)
                return
            }
            #expect(cells.count == columns * rows)
            let epsilon = 1e-6
            for cell in cells {
                #expect(cell.x0 >= -epsilon && cell.y0 >= -epsilon)
                #expect(cell.x1 <= sheet.width + epsilon && cell.y1 <= sheet.height + epsilon)
                #expect(cell.isValid)
            }
            // No two cells overlap; neighbours are at least the gutter apart.
            for i in cells.indices {
                for j in cells.indices where i < j {
                    let a = cells[i]
                    let b = cells[j]
                    let apartX = max(b.x0 - a.x1, a.x0 - b.x1)
                    let apartY = max(b.y0 - a.y1, a.y0 - b.y1)
                    #expect(max(apartX, apartY) >= Double(gutter) - epsilon)
                }
            }
            // Rows: left to right, then downwards; columns: downwards, then right.
            for k in cells.indices.dropFirst() {
                let previous = cells[k - 1]
                let cell = cells[k]
                let sameLine = order == .rows ? k % columns != 0 : k % rows != 0
                if order == .rows {
                    #expect(sameLine ? cell.x0 > previous.x0 && cell.y0 == previous.y0 : cell.y1 < previous.y1)
                } else {
                    #expect(sameLine ? cell.y1 < previous.y1 && cell.x0 == previous.x0 : cell.x0 > previous.x0)
                }
            }
        }
    }

    /// The cell matrix shows the page upright, scaled to fit, centred: each
    /// corner of the visible box lands where the reader's corner of the cell's
    /// fitted rectangle is (checked with the independent /Rotate rule of CropTests).
    @Test func cellMatrixFitsThePageUprightIntoItsCell() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: -2000...2000).array(of: 2), Gen.int(in: 50...3000).array(of: 2),
            Gen.int(in: -8...8), Gen.int(in: 0...2000).array(of: 2), Gen.int(in: 20...1000).array(of: 2)
        ) { origin, size, turns, cellOrigin, cellSize in
            let v = BoxRect(
                x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + size[0]),
                y1: Double(origin[1] + size[1]))
            let cell = BoxRect(
                x0: Double(cellOrigin[0]), y0: Double(cellOrigin[1]), x1: Double(cellOrigin[0] + cellSize[0]),
                y1: Double(cellOrigin[1] + cellSize[1]))
            let m = Imposition.cellMatrix(cell: cell, visible: v, quarterTurns: turns)
            let q = ((turns % 4) + 4) % 4
            let shownWidth = q % 2 == 0 ? v.width : v.height
            let shownHeight = q % 2 == 0 ? v.height : v.width
            let scale = min(cell.width / shownWidth, cell.height / shownHeight)
            let left = cell.x0 + (cell.width - shownWidth * scale) / 2
            let top = cell.y1 - (cell.height - shownHeight * scale) / 2
            for (x, y) in [(v.x0, v.y0), (v.x0, v.y1), (v.x1, v.y0), (v.x1, v.y1)] {
                let shown = CropTests.displayed(x, y, in: v, turns: q)
                let placed = m.apply(x: x, y: y)
                #expect(abs(placed.x - (left + shown.x * scale)) < 1e-6)
                #expect(abs(placed.y - (top - shown.y * scale)) < 1e-6)
            }
        }
    }

    /// What export hands the bridge for a cell: the cell matrix of the shown
    /// box (the crop clipped to the visible box, clipped in when it cuts), in
    /// the sheet's own units; a stamped cell draws the copy carrying the crop,
    /// so the whole crop is the form and nothing is clipped.
    @Test func cellPlacementIsTheCellMatrixOfTheShownBoxInTheSheetsUnits() throws {
        let visible = BoxRect(x0: 100, y0: 50, x1: 700, y1: 850)
        let frame = PageFrame(mediaBox: visible, visibleBox: visible, quarterTurns: 1)
        let cell = BoxRect(x0: 10, y0: 20, x1: 410, y1: 620)
        let plain = Imposition.cellPlacement(
            cell: cell, sheet: .a3, frame: frame, quarterTurns: 1, crop: nil, stamped: false)
        #expect(plain == FormPlacement(matrix: Imposition.cellMatrix(cell: cell, visible: visible, quarterTurns: 2)))

        let crop = BoxRect(x0: 50, y0: 100, x1: 500, y1: 900)  // past the visible box on two sides
        let cut = Imposition.cellPlacement(
            cell: cell, sheet: .a3, frame: frame, quarterTurns: 0, crop: crop, stamped: false)
        let shown = BoxRect(x0: 100, y0: 100, x1: 500, y1: 850)
        #expect(cut == FormPlacement(matrix: Imposition.cellMatrix(cell: cell, visible: shown, quarterTurns: 1), clip: shown))

        let stamped = Imposition.cellPlacement(
            cell: cell, sheet: .a3, frame: frame, quarterTurns: 0, crop: crop, stamped: true)
        #expect(stamped == FormPlacement(matrix: Imposition.cellMatrix(cell: cell, visible: crop, quarterTurns: 1)))

        // A sheet of 30,000 pt is written in units of 3 points: the cell with it.
        let huge = PageSize(width: 30_000, height: 20_000)
        let big = BoxRect(x0: 3000, y0: 6000, x1: 15000, y1: 18000)
        let inUnits = Imposition.cellPlacement(
            cell: big, sheet: huge, frame: frame, quarterTurns: 0, crop: nil, stamped: false)
        let expected = Imposition.cellMatrix(
            cell: BoxRect(x0: 1000, y0: 2000, x1: 5000, y1: 6000), visible: visible, quarterTurns: 1)
        #expect(inUnits == FormPlacement(matrix: expected))
    }

    // MARK: edits

    @Test func nupReplacesTheItemsBySheetsAtTheFirstsPlaceAndUndoGivesThemBack() throws {
        var s = try session(pages: 7)
        try s.apply(.rotate(try selection("3"), quarterTurns: 1), label: "rotate")
        try s.apply(.crop(try selection("2"), .rect(BoxRect(x0: 100, y0: 50, x1: 400, y1: 450))), label: "crop")
        let before = s
        let summary = try s.apply(
            .nup(try selection("2..6"), columns: 2, rows: 2, size: nil, order: .rows, gutter: 10),
            label: "nup 2..6 --grid 2x2 --gutter 10", context: context)
        #expect(summary.description == "put 5 pages on 2 sheets of 2x2 (400×300 pt) (now 4 pages)")
        #expect(summary.positions == [2, 3])
        #expect(ids(s) == ["p1", "p8", "p9", "p7"])
        let sheets = items(s)[1...2].compactMap(\.content.sheet)
        #expect(sheets.count == 2)
        // The first item's size as displayed: its crop, upright (page 2 turned 90° by its own /Rotate).
        #expect(sheets[0].size == PageSize(width: 400, height: 300))
        #expect(sheets[0].items.map(\.id.description) == ["p2", "p3", "p4", "p5"])
        #expect(sheets[0].items[1].rotation == 1)
        #expect(sheets[0].items[0].boxes.crop == BoxRect(x0: 100, y0: 50, x1: 400, y1: 450))
        #expect(sheets[1].cells.map { $0.item?.id.description } == ["p6", nil, nil, nil])
        #expect(sheets[0].cells[0].rect == BoxRect(x0: 0, y0: 155, x1: 195, y1: 300))
        _ = try s.undo()
        #expect(s.documents == before.documents)
        _ = try s.redo()
        #expect(ids(s) == ["p1", "p8", "p9", "p7"])
    }

    @Test func bookletPadsToFourAndOrdersForFolding() throws {
        var s = try session(pages: 6)
        let summary = try s.apply(
            .booklet(try selection("all"), size: .fixed(.a4)), label: "booklet all --size a4", context: context)
        #expect(summary.description.hasPrefix("made a booklet of 6 pages on 4 sheet sides"))
        #expect(summary.description.contains("2 blanks added"))
        let sides = items(s).compactMap(\.content.sheet).map { sheet in
            sheet.cells.map { $0.item.map { pageNumbers(of: $0) } ?? 0 }
        }
        #expect(sides == [[0, 1], [2, 0], [6, 3], [4, 5]])
        // Default size: twice the first page's width as displayed.
        var t = try session(pages: 4)
        try t.apply(.booklet(try selection("all"), size: nil), label: "booklet", context: context)
        #expect(items(t).first?.content.sheet?.size == PageSize(width: 1200, height: 800))
        #expect(items(t).first?.content.sheet?.cells.map(\.rect.x1) == [600, 1200])
    }

    func pageNumbers(of item: PageItem) -> Int {
        if case .page(_, let page) = item.content { return page }
        return -1
    }

    @Test func aSheetIsOneItemAndCannotGoOnASheet() throws {
        var s = try session(pages: 5)
        try s.apply(
            .nup(try selection("1..4"), columns: 2, rows: 1, size: .fixed(.a4), order: .columns, gutter: 0),
            label: "nup", context: context)
        #expect(ids(s) == ["p6", "p7", "p5"])
        try s.apply(.rotate(try selection("1"), quarterTurns: 1), label: "rotate 1")
        #expect(rotations(s) == [1, 0, 0])
        #expect(
            editError {
                try s.apply(.booklet(try selection("1..3"), size: nil), label: "x", context: context)
            }
                == .invalidSheet(
                    "the item at position 1 is already a sheet: a sheet cannot go into another sheet "
                        + "(undo the first nup or booklet, then impose all pages at once)"))
        #expect(
            editError {
                try s.apply(
                    .nup(try selection("3"), columns: 2, rows: 1, size: .fixed(.a4), order: .rows, gutter: 600),
                    label: "x", context: context)
            } == .invalidSheet("a gutter of 600 pt leaves no room for 2x1 cells on a sheet of A4, 595.28×841.89 pt"))
        #expect(
            editError {
                try s.apply(
                    .nup(try selection("3"), columns: 0, rows: 1, size: nil, order: .rows, gutter: 0), label: "x",
                    context: context)
            } == .invalidSheet("a grid of 0x1 cannot make sheets: each side takes 1 to 20"))
        try s.apply(.remove(try selection("2")), label: "remove 2")
        #expect(ids(s) == ["p6", "p5"])

        // Resized pages and pages with generated text stamps stay off sheets; a sheet is not resized.
        try s.apply(.resize(try selection("2"), to: .a5), label: "resize 2", context: context)
        #expect(
            editError {
                try s.apply(.booklet(try selection("2"), size: nil), label: "x", context: context)
            }
                == .invalidSheet(
                    "the item at position 2 is resized: a sheet scales its pages itself "
                        + "(undo the resize: nup and booklet --size set the sheets' paper)"))
        #expect(
            editError {
                try s.apply(.resize(try selection("1"), to: .a5), label: "x", context: context)
            }
                == .invalidSheet(
                    "the item at position 1 is a sheet: its paper is set by nup or booklet --size "
                        + "(undo it and impose again with --size)"))
        _ = try s.undo()
        let number = Stamp(
            text: TextMark(kind: .number, format: "{n}", size: 10), placement: StampPlacement(position: .bottom, margin: 24))
        try s.apply(.textStamp(try selection("2"), number), label: "number 2", context: context)
        #expect(
            editError {
                try s.apply(
                    .nup(try selection("2"), columns: 2, rows: 1, size: nil, order: .rows, gutter: 0), label: "x",
                    context: context)
            }
                == .invalidSheet(
                    "the item at position 2 has a page number, Bates number or watermark: "
                        + "put the pages on sheets first, then number the sheets (or unstamp it)"))
    }

    @Test func sheetsSurviveTheSessionFileAndOlderFilesLoad() throws {
        var s = try session(pages: 6)
        try s.apply(.stamp(try selection("2"), Stamp(source: SourceID(number: 1), page: 3), newSources: []), label: "st")
        try s.apply(
            .nup(try selection("1..5"), columns: 3, rows: 1, size: .fixed(.a4), order: .rows, gutter: 5),
            label: "nup", context: context)
        let data = try s.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"version\" : 8"))
        #expect(text.contains("\"sheet\" : {"))
        let decoded = try Session.decode(data)
        #expect(decoded == s)
        #expect(try decoded.encoded() == data)
        var undone = decoded
        _ = try undone.undo()
        #expect(ids(undone) == ["p1", "p2", "p3", "p4", "p5", "p6"])
        #expect(items(undone)[1].stamps.count == 1)
    }

    @Test func copiesOfASheetGetCellsOfTheirOwn() throws {
        var s = try session(pages: 3)
        try s.apply(
            .nup(try selection("1,2"), columns: 2, rows: 1, size: .fixed(.a4), order: .rows, gutter: 0),
            label: "nup", context: context)
        try s.apply(.duplicate(try selection("1")), label: "duplicate 1")
        try s.apply(.copy(try selection("1"), to: .position(.last)), label: "copy 1 --to last")
        try s.apply(.splitPage(try selection("1"), columns: 1, rows: 2), label: "split-page 1", context: context)
        let all = items(s).flatMap(\.idsWithCells)
        #expect(Set(all).count == all.count, "no id twice: \(all)")
        #expect(items(s).compactMap(\.content.sheet).map { $0.items.map(\.id.description) }.first == ["p1", "p2"])
        let decoded = try Session.decode(try s.encoded())
        #expect(decoded == s)
        _ = try s.undo(3)
        #expect(ids(s) == ["p4", "p3"])
        #expect(s.nextItemNumber == 5)
    }

    @Test func aLabelRangeStartingOnACellStartsAtItsSheet() throws {
        var s = try session(pages: 6)
        try s.apply(.labels([try LabelSpec.parse("1:r"), try LabelSpec.parse("3:D"), try LabelSpec.parse("5:A")]), label: "labels")
        try s.apply(
            .nup(try selection("1..4"), columns: 2, rows: 2, size: .fixed(.a4), order: .rows, gutter: 0),
            label: "nup", context: context)
        let ranges = try #require(s.document(named: s.current)?.labelRanges)
        // p1's range starts at the sheet (p7); p3's, on the same sheet, goes; p5's stays.
        #expect(ranges.map(\.start.description) == ["p7", "p5"])
        _ = try s.undo()
        #expect(s.document(named: s.current)?.labelRanges?.map(\.start.description) == ["p1", "p3", "p5"])
    }

    @Test func bookmarksOfCellsGoToTheirSheet() throws {
        var s = try session(pages: 4)
        try s.apply(.outline(.add(title: "Three", at: .number(3), parent: nil)), label: "o")
        try s.apply(
            .nup(try selection("all"), columns: 2, rows: 1, size: .fixed(.a4), order: .rows, gutter: 0),
            label: "nup", context: context)
        let document = try #require(s.document(named: s.current))
        #expect(document.outline?.first?.target == ItemID(number: 3))
        let exported = s.exportedOutline(of: document, items: document.items, policy: .keep)
        #expect(exported?.first?.item == 1)
    }
}
