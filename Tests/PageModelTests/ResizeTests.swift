import Foundation
import PageModel
import PropertyBased
import Testing

/// `resize`: what it freezes into an item, its undo, a second resize, later
/// rotate and crop, and its session-file records.
@Suite struct ResizeTests {
    /// Pages 600×800 at origin (100, 50), page k turned (k-1) quarter turns by its own /Rotate.
    let context = EditContext(
        pageSize: { item in
            guard case .page(_, let page) = item.content else { return nil }
            if let resize = item.resize { return item.boxes.crop.map { PageSize(width: $0.width, height: $0.height) } ?? resize.size }
            return (page - 1) % 2 == 0 ? PageSize(width: 600, height: 800) : PageSize(width: 800, height: 600)
        },
        pageFrame: { item in
            guard case .page(_, let page) = item.content else { return nil }
            let box = BoxRect(x0: 100, y0: 50, x1: 700, y1: 850)
            return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: page - 1)
        })

    func items(_ session: Session) -> [PageItem] { session.document(named: session.current)?.items ?? [] }

    @Test func resizeFreezesRotationAndCropAndOneUndoGivesThemBack() throws {
        var s = try session(pages: 4)
        try s.apply(.rotate(try selection("2,3"), quarterTurns: 1), label: "rotate 2,3", context: context)
        let crop = BoxRect(x0: 150, y0: 100, x1: 650, y1: 800)
        try s.apply(.crop(try selection("3"), .rect(crop)), label: "crop 3", context: context)
        let before = items(s)
        let summary = try s.apply(.resize(try selection("all"), to: .a4, mode: .fill), label: "resize", context: context)
        #expect(summary.positions == [1, 2, 3, 4])
        let after = items(s)
        #expect(after.map(\.rotation) == [0, 0, 0, 0])
        #expect(after.allSatisfy { $0.boxes.isEmpty })
        #expect(after.map { $0.resize?.quarterTurns } == [0, 1, 1, 0])
        #expect(after.map { $0.resize?.crop } == [nil, nil, crop, nil])
        #expect(after.allSatisfy { $0.resize?.size == .a4 && $0.resize?.mode == .fill })
        #expect(after.map(\.id) == before.map(\.id))
        _ = try s.undo(1)
        #expect(items(s) == before)
        _ = try s.redo(1)
        #expect(items(s) == after)
    }

    @Test func laterRotateAndCropActOnTheResizedPage() throws {
        var s = try session(pages: 2)
        try s.apply(.resize(try selection("all"), to: .a4), label: "resize", context: context)
        try s.apply(.rotate(try selection("1"), quarterTurns: 1), label: "rotate", context: context)
        try s.apply(.crop(try selection("2"), .margins(Margins(values: [10])!)), label: "crop", context: context)
        let after = items(s)
        #expect(after[0].rotation == 1 && after[0].resize?.quarterTurns == 0)
        // The margins are measured on the A4 page [0 0 595.28 841.89], unrotated.
        let a4 = PageSize.a4
        #expect(after[1].boxes.crop == BoxRect(x0: 10, y0: 10, x1: a4.width - 10, y1: a4.height - 10))
    }

    @Test func aSecondResizeRefitsWhatThePageShowsWithoutMarginsWithinMargins() throws {
        var s = try session(pages: 1)
        try s.apply(.resize(try selection("1"), to: .a4), label: "resize", context: context)
        // Only the size changes: the content is fitted afresh, not the A4 page with its margins.
        try s.apply(.resize(try selection("1"), to: .letter, mode: .fill), label: "resize again", context: context)
        #expect(items(s)[0].resize == PageResize(size: .letter, mode: .fill))
        // A turn and a crop made after the first resize are folded in: the crop is
        // mapped back onto the source page through the first resize's matrix.
        try s.apply(.rotate(try selection("1"), quarterTurns: 3), label: "rotate", context: context)
        let first = try #require(items(s)[0].resize)
        let frame = PageFrame(
            mediaBox: BoxRect(x0: 100, y0: 50, x1: 700, y1: 850), visibleBox: BoxRect(x0: 100, y0: 50, x1: 700, y1: 850),
            quarterTurns: 0)
        let m = first.matrix(for: frame)
        let sourceCrop = BoxRect(x0: 200, y0: 300, x1: 500, y1: 700)
        try s.apply(.crop(try selection("1"), .rect(m.apply(sourceCrop))), label: "crop", context: context)
        try s.apply(.resize(try selection("1"), to: .a5), label: "resize a third time", context: context)
        let last = try #require(items(s)[0].resize)
        #expect(items(s)[0].rotation == 0 && items(s)[0].boxes.isEmpty)
        #expect(last.size == .a5 && last.mode == .fit && last.quarterTurns == 3)
        let mapped = try #require(last.crop)
        for (a, b) in zip([mapped.x0, mapped.y0, mapped.x1, mapped.y1], [200.0, 300, 500, 700]) {
            #expect(abs(a - b) < 1e-6, "\(mapped)")
        }
        _ = try s.undo(1)
        #expect(items(s)[0].resize == first)
    }

    @Test func resizingToTheSameSizeAgainIsRefusedAndBlankPagesBecomeTheSize() throws {
        var s = try session(pages: 1)
        try s.apply(.resize(try selection("1"), to: .a4), label: "resize", context: context)
        #expect(throws: EditError.self) {
            try s.apply(.resize(try selection("1"), to: .a4), label: "resize", context: context)
        }
        try s.apply(.blank(at: nil, count: 1, size: .fixed(.letter)), label: "blank", context: context)
        try s.apply(.resize(try selection("2"), to: .a5), label: "resize blank", context: context)
        #expect(items(s)[1].resize == PageResize(size: .a5, mode: .fit))
        #expect(throws: EditError.self) {
            try s.apply(.resize(try selection("1"), to: PageSize(width: 1, height: 1)), label: "tiny", context: context)
        }
    }

    @Test func copiesAndSplitCellsOfAResizedItemAreResizedToo() throws {
        var s = try session(pages: 2)
        try s.apply(.resize(try selection("all"), to: .a4), label: "resize", context: context)
        try s.apply(.duplicate(try selection("1")), label: "duplicate", context: context)
        #expect(items(s).map { $0.resize?.size } == [.a4, .a4, .a4])
        try s.apply(.splitPage(try selection("3"), columns: 1, rows: 2), label: "split", context: context)
        let a4 = PageSize.a4
        // The cells halve the A4 page, not the source page.
        #expect(items(s)[2...].map(\.boxes.crop) == [
            BoxRect(x0: 0, y0: a4.height / 2, x1: a4.width, y1: a4.height),
            BoxRect(x0: 0, y0: 0, x1: a4.width, y1: a4.height / 2),
        ])
        #expect(items(s)[3].resize == items(s)[2].resize)
    }

    @Test func theSessionFileKeepsTheResizeAndItsHistory() throws {
        var s = try session(pages: 3)
        try s.apply(.rotate(try selection("2"), quarterTurns: 2), label: "rotate", context: context)
        try s.apply(.resize(try selection("2..3"), to: .letter, mode: .fill), label: "resize", context: context)
        let data = try s.encoded()
        let decoded = try Session.decode(data)
        #expect(decoded == s)
        #expect(try decoded.encoded() == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"resize\"") && text.contains("\"reshape\"") && text.contains("\"version\" : 8"))
        var again = decoded
        _ = try again.undo(1)
        #expect(items(again).map(\.resize) == [nil, nil, nil])
        #expect(items(again).map(\.rotation) == [0, 2, 0])
    }

    @Test func resizeMatrixPlacesTheShownBoxUprightForEveryTurnAndCrop() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: -500...500).array(of: 2), Gen.int(in: 0...3), Gen.int(in: 0...3),
            Gen.int(in: 0...200).array(of: 4), Gen.bool
        ) { origin, own, frozen, inset, fill in
            let visible = BoxRect(
                x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + 600), y1: Double(origin[1] + 800))
            let crop = BoxRect(
                x0: visible.x0 + Double(inset[0]), y0: visible.y0 + Double(inset[1]),
                x1: visible.x1 - Double(inset[2]), y1: visible.y1 - Double(inset[3]))
            let resize = PageResize(size: .a4, mode: fill ? .fill : .fit, quarterTurns: frozen, crop: crop)
            let frame = PageFrame(mediaBox: visible, visibleBox: visible, quarterTurns: own)
            let placed = resize.matrix(for: frame).apply(crop)
            let a4 = PageSize.a4
            // Centred on the page; the shown box's displayed shape kept.
            #expect(abs(placed.x0 + placed.x1 - a4.width) < 1e-6 && abs(placed.y0 + placed.y1 - a4.height) < 1e-6)
            let sideways = (own + frozen) % 2 == 1
            let ratio = sideways ? crop.height / crop.width : crop.width / crop.height
            #expect(abs(placed.width / placed.height - ratio) < 1e-6)
        }
    }

    /// THE placement rule, independently of how it is written: the placed box
    /// is centred, touches the target on both sides along one axis, stays
    /// inside it (fit) or covers it (fill), and the corner the reader sees
    /// top-left lands top-left.
    @Test func placingCentresFitsOrCoversAndKeepsTheReadersTopLeftUpright() async {
        await propertyCheck(
            count: 400, input: Gen.int(in: -3000...3000).array(of: 2), Gen.int(in: 20...4000).array(of: 2),
            Gen.int(in: -6...6), Gen.int(in: 50...5000).array(of: 2), Gen.bool
        ) { origin, size, turns, target, fill in
            let box = BoxRect(
                x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + size[0]),
                y1: Double(origin[1] + size[1]))
            let w = Double(target[0])
            let h = Double(target[1])
            let m = PlacementMatrix.placing(box, quarterTurns: turns, in: BoxRect(x0: 0, y0: 0, x1: w, y1: h), fill: fill)
            let placed = m.apply(box)
            #expect(abs((placed.x0 + placed.x1) / 2 - w / 2) < 1e-6 && abs((placed.y0 + placed.y1) / 2 - h / 2) < 1e-6)
            #expect(abs(placed.width - w) < 1e-6 || abs(placed.height - h) < 1e-6)
            if fill {
                #expect(placed.width >= w - 1e-6 && placed.height >= h - 1e-6)
            } else {
                #expect(placed.width <= w + 1e-6 && placed.height <= h + 1e-6)
            }
            let q = ((turns % 4) + 4) % 4
            let topLeft = [(box.x0, box.y1), (box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1)][q]
            let landed = m.apply(x: topLeft.0, y: topLeft.1)
            #expect(abs(landed.x - placed.x0) < 1e-6 && abs(landed.y - placed.y1) < 1e-6)
        }
    }

    @Test func aLetterPageTurnedOnceFitsA4Centred() {
        let m = PlacementMatrix.placing(
            BoxRect(x0: 0, y0: 0, x1: 612, y1: 792), quarterTurns: 1,
            in: BoxRect(x0: 0, y0: 0, x1: 595, y1: 842), fill: false)
        // Shown 792 x 612 (turned), into 595 x 842: scale 595 / 792.
        let s = 595.0 / 792.0
        #expect(abs(m.a) < 1e-12 && abs(m.b + s) < 1e-12 && abs(m.c - s) < 1e-12 && abs(m.d) < 1e-12)
        // The box's centre (306, 396) lands on the page's (297.5, 421).
        #expect(abs(m.c * 396 + m.e - 297.5) < 1e-9 && abs(m.b * 306 + m.f - 421) < 1e-9)
    }

    /// What export hands the bridge: the matrix `show` uses, in the new page's
    /// units (a side over 14,400 pt is written with a /UserUnit), clipped to
    /// the frozen crop exactly when it cuts the visible box.
    @Test func theExportedPlacementIsTheMatrixInThePagesUnitsClippedWhereTheCropCuts() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: -500...500).array(of: 2), Gen.int(in: 0...3), Gen.int(in: 0...3),
            Gen.int(in: -50...200).array(of: 4), Gen.int(in: 0...3)
        ) { origin, own, frozen, inset, sizeIndex in
            let visible = BoxRect(
                x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + 600), y1: Double(origin[1] + 800))
            let crop = BoxRect(
                x0: visible.x0 + Double(inset[0]), y0: visible.y0 + Double(inset[1]),
                x1: visible.x1 - Double(inset[2]), y1: visible.y1 - Double(inset[3]))
            let size = [PageSize.a4, PageSize(width: 20_000, height: 500), PageSize(width: 300, height: 43_201),
                        PageSize(width: 14_400, height: 14_400)][sizeIndex]
            let unit = [1.0, 2, 4, 1][sizeIndex]
            #expect(size.userUnit == unit)
            let resize = PageResize(size: size, mode: .fit, quarterTurns: frozen, crop: crop)
            let frame = PageFrame(mediaBox: visible, visibleBox: visible, quarterTurns: own)
            let placement = resize.placement(for: frame)
            let points = resize.matrix(for: frame)
            for (mine, scaled) in zip(
                [placement.matrix.a, placement.matrix.b, placement.matrix.c, placement.matrix.d, placement.matrix.e,
                 placement.matrix.f],
                [points.a, points.b, points.c, points.d, points.e, points.f].map { $0 / unit })
            {
                #expect(abs(mine - scaled) <= 1e-9 * max(1, abs(scaled)))
            }
            let cuts = inset.contains { $0 > 0 }
            #expect(placement.clip == (cuts ? resize.shownBox(for: frame) : nil))
            if let clip = placement.clip {
                #expect(clip.x0 >= visible.x0 && clip.y0 >= visible.y0 && clip.x1 <= visible.x1 && clip.y1 <= visible.y1)
            }
        }
    }
}
