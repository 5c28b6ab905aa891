import Foundation
import PageModel
import PropertyBased
import Testing

/// `crop`: the one conversion of margins as displayed to user space, the edit,
/// its undo and its session-file records.
@Suite struct CropTests {
    /// Where a user-space point shows, measured from the displayed page's top-left
    /// corner (x right, y down), for a page with visible box `v` turned `turns`
    /// quarter turns clockwise: an independent statement of the /Rotate rule.
    static func displayed(_ x: Double, _ y: Double, in v: BoxRect, turns: Int) -> (x: Double, y: Double) {
        switch turns {
        case 0: (x - v.x0, v.y1 - y)
        case 1: (y - v.y0, x - v.x0)
        case 2: (v.x1 - x, y - v.y0)
        default: (v.y1 - y, v.x1 - x)
        }
    }

    @Test func marginsAreTheReadersSidesForEveryQuarterTurnAndOrigin() async {
        await propertyCheck(
            // Boxes wider and taller than any two margins (at most 80): what is left is a box.
            count: 300, input: Gen.int(in: -2000...2000).array(of: 2), Gen.int(in: 81...3000).array(of: 2),
            Gen.int(in: -8...8), Gen.int(in: -40...40).array(of: 4)
        ) { origin, size, turns, m in
            let v = BoxRect(
                x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + size[0]),
                y1: Double(origin[1] + size[1]))
            let margins = Margins(top: Double(m[0]), right: Double(m[1]), bottom: Double(m[2]), left: Double(m[3]))
            let r = margins.applied(to: v, quarterTurns: turns)
            let q = ((turns % 4) + 4) % 4
            let corners = [(r.x0, r.y0), (r.x0, r.y1), (r.x1, r.y0), (r.x1, r.y1)].map {
                Self.displayed($0.0, $0.1, in: v, turns: q)
            }
            let width = q % 2 == 0 ? v.width : v.height
            let height = q % 2 == 0 ? v.height : v.width
            #expect(corners.map(\.y).min() == margins.top)
            #expect(corners.map(\.x).min() == margins.left)
            #expect(width - corners.map(\.x).max()! == margins.right)
            #expect(height - corners.map(\.y).max()! == margins.bottom)
        }
    }

    /// A context whose pages are 600×800 at origin (100, 50), page k turned (k-1) quarter turns.
    let context = EditContext(pageFrame: { item in
        guard case .page(_, let page) = item.content else { return nil }
        let box = BoxRect(x0: 100, y0: 50, x1: 700, y1: 850)
        return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: page - 1)
    })

    func boxes(_ session: Session) -> [BoxRect?] {
        (session.document(named: session.current)?.items ?? []).map(\.boxes.crop)
    }

    @Test func cropByMarginsFollowsEachPagesRotationAndUndoGivesTheBoxBack() throws {
        var s = try session(pages: 4)
        let margins = Margins(top: 10, right: 20, bottom: 30, left: 40)
        let summary = try s.apply(
            .crop(try selection("all"), .margins(margins)), label: "crop all --margins 10,20,30,40", context: context)
        #expect(summary.positions == [1, 2, 3, 4])
        #expect(summary.description == "cropped (crop box, margins 10,20,30,40 pt) 4 pages (4 pages)")
        #expect(
            boxes(s) == [
                BoxRect(x0: 140, y0: 80, x1: 680, y1: 840),  // upright
                BoxRect(x0: 110, y0: 90, x1: 670, y1: 830),  // 90°: top is x0
                BoxRect(x0: 120, y0: 60, x1: 660, y1: 820),  // 180°
                BoxRect(x0: 130, y0: 70, x1: 690, y1: 810),  // 270°: top is x1
            ])
        // Margins again are measured from the crop just made; the item's own turn counts too.
        try s.apply(.rotate(try selection("1"), quarterTurns: 1), label: "rotate 1 --by 90")
        try s.apply(
            .crop(try selection("1"), .margins(Margins(top: 5, right: 0, bottom: 0, left: 0))), label: "crop 1",
            context: context)
        #expect(boxes(s)[0] == BoxRect(x0: 145, y0: 80, x1: 680, y1: 840))
        _ = try s.undo()
        _ = try s.undo()
        _ = try s.undo()
        #expect(boxes(s) == [nil, nil, nil, nil])
        _ = try s.redo()
        #expect(boxes(s)[3] == BoxRect(x0: 130, y0: 70, x1: 690, y1: 810))
    }

    @Test func rectResetOtherBoxesAndRefusals() throws {
        var s = try session(pages: 3)
        let rect = BoxRect(x0: 0, y0: 0, x1: 300, y1: 400)
        try s.apply(.crop(try selection("1,3"), .rect(rect), box: .trim), label: "crop 1,3 --rect … --box trim")
        #expect(s.document(named: s.current)?.items.map(\.boxes.trim) == [rect, nil, rect])
        #expect(boxes(s) == [nil, nil, nil])
        #expect(
            editError { try s.apply(.crop(try selection("2"), .reset, box: .trim), label: "x") }
                == .invalidCrop("none of the selected pages has its own trim box"))
        #expect(
            editError {
                try s.apply(.crop(try selection("1"), .rect(BoxRect(x0: 5, y0: 0, x1: 5, y1: 9))), label: "x")
            } == .invalidCrop("the rectangle [5 0 5 9] has no area (x0 < x1 and y0 < y1 are needed)"))
        #expect(
            editError {
                try s.apply(
                    .crop(try selection("1"), .margins(Margins(top: 500, right: 0, bottom: 400, left: 0))),
                    label: "x", context: context)
            } == .invalidCrop("margins 500,0,400,0 leave nothing of page 1 (600 × 800 pt)"))
        let summary = try s.apply(.crop(try selection("all"), .reset, box: .trim), label: "crop all --reset --box trim")
        #expect(summary.positions == [1, 3])
        #expect(s.document(named: s.current)?.items.map(\.boxes.isEmpty) == [true, true, true])
    }

    /// PageBoxes keeps its boxes out of line (nil when none is set): it must
    /// still behave as four optional values — written as the synthesized coding
    /// of four optionals would write them (a key only for a set box), read back
    /// equal, equal and hashed alike however built, a copy changed alone.
    @Test func pageBoxesAreFourOptionalValuesWhateverTheirStorage() async {
        let rect = Gen.int(in: -500...500).array(of: 4).map { v in
            BoxRect(x0: Double(v[0]), y0: Double(v[1]), x1: Double(v[0]) + 10.5, y1: Double(v[1]) + 20)
        }
        await propertyCheck(count: 200, input: Gen.bool.array(of: 4), rect.array(of: 4)) { present, rects in
            let values: [BoxRect?] = (0..<4).map { present[$0] ? rects[$0] : nil }
            let built = PageBoxes(crop: values[0], trim: values[1], bleed: values[2], art: values[3])
            var set = PageBoxes()
            for (kind, value) in zip(PageBoxKind.allCases, values) { set[kind] = value }
            #expect(built == set && built.hashValue == set.hashValue)
            #expect(built.isEmpty == !present.contains(true))
            #expect(PageBoxKind.allCases.map { built[$0] } == values)
            let data = try JSONEncoder().encode(built)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(Set(object.keys) == Set(zip(PageBoxKind.allCases, values).filter { $0.1 != nil }.map(\.0.rawValue)))
            #expect(try JSONDecoder().decode(PageBoxes.self, from: data) == built)
            var copy = built
            copy.crop = values[0] == nil ? rects[0] : nil
            #expect(built.crop == values[0] && copy.crop != values[0])
            #expect(copy.trim == values[1] && copy.bleed == values[2] && copy.art == values[3])
            #expect(copy != built)
        }
    }

    @Test func boxesSurviveTheSessionFileAndItsHistory() throws {
        var s = try session(pages: 6)
        try s.apply(
            .crop(try selection("2..3"), .margins(Margins(top: 1, right: 2, bottom: 3, left: 4))), label: "crop",
            context: context)
        try s.apply(.crop(try selection("5"), .rect(BoxRect(x0: 1, y0: 2, x1: 3.5, y1: 4)), box: .art), label: "art")
        let data = try s.encoded()
        let decoded = try Session.decode(data)
        #expect(decoded == s)
        #expect(try decoded.encoded() == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"op\" : \"rebox\""))
        #expect(text.contains("\"art\" : {"))
        var undone = decoded
        _ = try undone.undo(2)
        #expect(undone.document(named: undone.current)?.items.allSatisfy(\.boxes.isEmpty) == true)
    }

    @Test func aBoxWithoutAreaInTheFileIsRefused() throws {
        var s = try session(pages: 1)
        try s.apply(.crop(try selection("1"), .rect(BoxRect(x0: 0, y0: 0, x1: 9, y1: 9))), label: "crop")
        let text = String(decoding: try s.encoded(), as: UTF8.self).replacingOccurrences(
            of: "\"x1\" : 9", with: "\"x1\" : -9")
        #expect(throws: SessionFormatError.self) { try Session.decode(Data(text.utf8)) }
    }

    @Test func copiesAndDuplicatesKeepTheirBoxes() throws {
        var s = try session(pages: 2)
        let rect = BoxRect(x0: 10, y0: 10, x1: 100, y1: 100)
        try s.apply(.crop(try selection("1"), .rect(rect)), label: "crop")
        try s.apply(.duplicate(try selection("1")), label: "duplicate 1")
        try s.apply(.copy(try selection("1"), to: .position(.last)), label: "copy 1 --to last")
        #expect(boxes(s) == [rect, rect, nil, rect])
    }

    @Test func splitPageCellsAreInReadingOrderAsDisplayedAndUndoGivesTheItemBack() throws {
        var s = try session(pages: 4)
        try s.apply(.rotate(try selection("1"), quarterTurns: 2), label: "rotate 1 --by 180")
        let before = s
        let summary = try s.apply(
            .splitPage(try selection("1,2"), columns: 2, rows: 1), label: "split-page 1,2 --grid 2x1",
            context: context)
        #expect(summary.positions == [1, 2, 3, 4])
        #expect(summary.description == "split 2 pages into 2x1 cells (6 pages)")
        // The original keeps the first cell; the copies come right after it.
        #expect(ids(s) == ["p1", "p5", "p2", "p6", "p3", "p4"])
        #expect(rotations(s) == [2, 2, 0, 0, 0, 0])
        #expect(
            boxes(s) == [
                // Page 1: its own turn 0 plus the item's 180°: the reader's left half is the right of user space.
                BoxRect(x0: 400, y0: 50, x1: 700, y1: 850), BoxRect(x0: 100, y0: 50, x1: 400, y1: 850),
                // Page 2, turned 90°: displayed 800 wide; its left half is the bottom of user space.
                BoxRect(x0: 100, y0: 50, x1: 700, y1: 450), BoxRect(x0: 100, y0: 450, x1: 700, y1: 850),
                nil, nil,
            ])
        _ = try s.undo()
        #expect(s.documents == before.documents)
        #expect(
            editError { try s.apply(.splitPage(try selection("1"), columns: 1, rows: 1), label: "x", context: context) }
                == .invalidGrid(columns: 1, rows: 1))
    }

    @Test func gridCellsTileTheVisibleBoxForEveryTurn() async {
        await propertyCheck(
            count: 100, input: Gen.int(in: -500...500).array(of: 2), Gen.int(in: 1...6), Gen.int(in: 1...6),
            Gen.int(in: 0...3)
        ) { origin, columns, rows, turns in
            let v = BoxRect(x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + 720), y1: Double(origin[1] + 360))
            let cells = Session.gridCells(of: v, quarterTurns: turns, columns: columns, rows: rows)
            #expect(cells.count == columns * rows)
            let area = cells.reduce(0) { $0 + $1.width * $1.height }
            #expect(abs(area - v.width * v.height) < 1e-6)
            // Reading order: each cell's top-left corner as displayed moves right, then down.
            let corners = cells.map { cell in
                [(cell.x0, cell.y0), (cell.x0, cell.y1), (cell.x1, cell.y0), (cell.x1, cell.y1)].map {
                    Self.displayed($0.0, $0.1, in: v, turns: turns)
                }
            }.map { points in (x: points.map(\.x).min()!, y: points.map(\.y).min()!) }
            for index in 1..<corners.count {
                let previous = corners[index - 1]
                let now = corners[index]
                if index % columns == 0 {
                    #expect(now.y > previous.y && now.x < 1e-9)
                } else {
                    #expect(abs(now.y - previous.y) < 1e-9 && now.x > previous.x)
                }
            }
        }
    }
}
