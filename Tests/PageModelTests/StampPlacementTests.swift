import Foundation
import PageModel
import PropertyBased
import Testing

/// The matrix export draws a stamp with (`StampPlacement.matrix`) against the
/// frame `show` places it by (`StampPlacement.frame`) and an independent
/// statement of the /Rotate rule, over every quarter turn of page and stamp,
/// boxes far from the origin, crop boxes, /UserUnit, angles, the nine anchors,
/// offsets and margins.
@Suite struct StampPlacementTests {
    /// The six numbers of `StampPlacement.matrix` for a page (visible box,
    /// /Rotate in degrees, /UserUnit) and a stamp (box, /Rotate, /UserUnit).
    static func exportStampMatrix(
        page: (llx: Double, lly: Double, urx: Double, ury: Double), pageRotation: Int, pageUnit: Double = 1,
        stamp: (llx: Double, lly: Double, urx: Double, ury: Double), stampRotation: Int = 0, stampUnit: Double = 1,
        angle: Double = 0, fit: Bool = false, placement: StampPlacement
    ) -> [Double] {
        let m = placement.matrix(
            on: ShownPage(
                visibleBox: BoxRect(x0: page.llx, y0: page.lly, x1: page.urx, y1: page.ury),
                quarterTurns: pageRotation / 90, userUnit: pageUnit),
            stamp: BoxRect(x0: stamp.llx, y0: stamp.lly, x1: stamp.urx, y1: stamp.ury),
            quarterTurns: stampRotation / 90, userUnit: stampUnit, angle: angle, fit: fit)
        return [m.a, m.b, m.c, m.d, m.e, m.f]
    }

    /// Where a user-space point shows on a page with visible box `box` turned
    /// `turns` quarter turns clockwise, from the displayed bottom-left corner (+y
    /// up): an independent statement of the /Rotate rule.
    static func displayed(
        _ x: Double, _ y: Double, box: (llx: Double, lly: Double, urx: Double, ury: Double), turns: Int
    ) -> (x: Double, y: Double) {
        switch turns {
        case 0: (x - box.llx, y - box.lly)
        case 1: (y - box.lly, box.urx - x)
        case 2: (box.urx - x, box.ury - y)
        default: (box.ury - y, x - box.llx)
        }
    }

    static func close(_ a: Double, _ b: Double, _ scale: Double = 1) -> Bool {
        abs(a - b) <= 1e-6 * max(1, abs(a), abs(b), scale)
    }

    @Test func theExportMatrixDrawsTheStampWhereShowPlacesIt() async {
        await propertyCheck(
            count: 500,
            input: Gen.int(in: -3000...3000).array(of: 4), Gen.int(in: 20...3000).array(of: 4), Gen.int(in: 0...15),
            Gen.int(in: 0...8), Gen.int(in: -100...100).array(of: 3), Gen.int(in: 0...7)
        ) { origins, sizes, turns, anchor, moves, flags in
            // Page: a visible box anywhere (a crop box of a page far from the origin).
            let page = (
                llx: Double(origins[0]), lly: Double(origins[1]), urx: Double(origins[0] + sizes[0]),
                ury: Double(origins[1] + sizes[1])
            )
            let stamp = (
                llx: Double(origins[2]) / 3, lly: Double(origins[3]) / 3, urx: Double(origins[2]) / 3 + Double(sizes[2]) / 2,
                ury: Double(origins[3]) / 3 + Double(sizes[3]) / 2
            )
            let pageTurns = turns % 4
            let stampTurns = turns / 4
            let pageUnit: Double = flags & 1 == 0 ? 1 : 2
            let stampUnit: Double = flags & 2 == 0 ? 1 : 3
            let fit = flags & 4 != 0
            let angle: Double = [0, 90, 30, -45, 180, 0, 270, 123][abs(moves[0]) % 8]
            let position = StampPosition.allCases[anchor]
            let placement = StampPlacement(
                position: position, offsetX: Double(moves[1]), offsetY: Double(moves[2]),
                margin: Double(abs(moves[0]) % 40))
            let m = Self.exportStampMatrix(
                page: page, pageRotation: pageTurns * 90, pageUnit: pageUnit, stamp: stamp,
                stampRotation: stampTurns * 90, stampUnit: stampUnit, angle: angle, fit: fit, placement: placement)

            // Swift: everything in points on the page as displayed.
            let pageWidth = (pageTurns % 2 == 0 ? page.urx - page.llx : page.ury - page.lly) * pageUnit
            let pageHeight = (pageTurns % 2 == 0 ? page.ury - page.lly : page.urx - page.llx) * pageUnit
            let upright = PageSize(
                width: (stampTurns % 2 == 0 ? stamp.urx - stamp.llx : stamp.ury - stamp.lly) * stampUnit,
                height: (stampTurns % 2 == 0 ? stamp.ury - stamp.lly : stamp.urx - stamp.llx) * stampUnit)
            let bound = StampPlacement.boundingSize(upright, degrees: angle)
            let frame = placement.frame(
                page: PageSize(width: pageWidth, height: pageHeight), stamp: bound, fit: fit)

            // The stamp's centre lands where Swift says, at the scale it says.
            let cx = (stamp.llx + stamp.urx) / 2
            let cy = (stamp.lly + stamp.ury) / 2
            let user = (x: m[0] * cx + m[2] * cy + m[4], y: m[1] * cx + m[3] * cy + m[5])
            let shown = Self.displayed(user.x, user.y, box: page, turns: pageTurns)
            #expect(Self.close(shown.x * pageUnit, frame.centreX, pageWidth), "x: \(shown.x * pageUnit) vs \(frame.centreX)")
            #expect(Self.close(shown.y * pageUnit, frame.centreY, pageHeight), "y: \(shown.y * pageUnit) vs \(frame.centreY)")
            let scale = (m[0] * m[0] + m[1] * m[1]).squareRoot()
            #expect(Self.close(scale, frame.scale * stampUnit / pageUnit), "scale \(scale) vs \(frame.scale)")
            // Upright for the reader, turned by the angle: the stamp's own "right"
            // (its x axis after its /Rotate) points `angle` counter-clockwise as displayed.
            let own = StampPlacement.sineCosine(degrees: Double(stampTurns * 90))
            let right = (x: own.cosine, y: own.sine)  // the stamp page's displayed right, in its own space
            let mapped = (x: m[0] * right.x + m[2] * right.y, y: m[1] * right.x + m[3] * right.y)
            let onPage = Self.displayed(mapped.x + page.llx, mapped.y + page.lly, box: page, turns: pageTurns)
            let origin = Self.displayed(page.llx, page.lly, box: page, turns: pageTurns)
            let direction = atan2(onPage.y - origin.y, onPage.x - origin.x) * 180 / .pi
            let difference = (direction - angle).truncatingRemainder(dividingBy: 360)
            #expect(min(abs(difference), 360 - abs(difference)) < 1e-6, "direction \(direction) vs angle \(angle)")
        }
    }

    @Test func aStampNeverOverflowsThePageAndTouchesTheEdgesItIsAnchoredTo() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: -2000...2000).array(of: 2), Gen.int(in: 100...2000).array(of: 4),
            Gen.int(in: 0...3), Gen.int(in: 0...8), Gen.int(in: 0...50)
        ) { origin, sizes, turns, anchor, margin in
            let page = (
                llx: Double(origin[0]), lly: Double(origin[1]), urx: Double(origin[0] + sizes[0]),
                ury: Double(origin[1] + sizes[1])
            )
            let stamp = (llx: 0.0, lly: -2.0, urx: Double(sizes[2]), ury: Double(sizes[3]) / 4)
            let position = StampPosition.allCases[anchor]
            let m = Self.exportStampMatrix(
                page: page, pageRotation: turns * 90, stamp: stamp,
                placement: StampPlacement(position: position, margin: Double(margin)))
            let corners = [(stamp.llx, stamp.lly), (stamp.llx, stamp.ury), (stamp.urx, stamp.lly), (stamp.urx, stamp.ury)]
                .map { p in
                    Self.displayed(
                        m[0] * p.0 + m[2] * p.1 + m[4], m[1] * p.0 + m[3] * p.1 + m[5], box: page, turns: turns)
                }
            let width = turns % 2 == 0 ? page.urx - page.llx : page.ury - page.lly
            let height = turns % 2 == 0 ? page.ury - page.lly : page.urx - page.llx
            // A margin that leaves no room (a side of at most twice it) is ignored.
            let inset = width > Double(2 * margin) && height > Double(2 * margin) ? Double(margin) : 0
            let left = corners.map(\.x).min()!
            let right = corners.map(\.x).max()!
            let bottom = corners.map(\.y).min()!
            let top = corners.map(\.y).max()!
            #expect(left >= inset - 1e-6 && right <= width - inset + 1e-6)
            #expect(bottom >= inset - 1e-6 && top <= height - inset + 1e-6)
            if position.horizontal < 0 { #expect(Self.close(left, inset)) }
            if position.horizontal > 0 { #expect(Self.close(right, width - inset)) }
            if position.vertical < 0 { #expect(Self.close(bottom, inset)) }
            if position.vertical > 0 { #expect(Self.close(top, height - inset)) }
            if position.horizontal == 0 { #expect(Self.close(left + right, width)) }
            if position.vertical == 0 { #expect(Self.close(bottom + top, height)) }
        }
    }

    /// The page a stamp goes on, as export writes it: a source page turned
    /// and cropped by its item (the crop in its default user space), or a new
    /// page in its own units (a side over 14,400 pt: /UserUnit, the crop in points).
    @Test func theShownPageIsThePageAsExportWritesIt() {
        let frame = PageFrame(
            mediaBox: BoxRect(x0: 0, y0: 0, x1: 700, y1: 900), visibleBox: BoxRect(x0: 10, y0: 20, x1: 600, y1: 800),
            quarterTurns: 3, userUnit: 2)
        #expect(
            ShownPage(page: frame, quarterTurns: 2, crop: nil)
                == ShownPage(visibleBox: frame.visibleBox, quarterTurns: 5, userUnit: 2))
        #expect(
            ShownPage(page: frame, quarterTurns: 0, crop: BoxRect(x0: 500, y0: 40, x1: -30, y1: 30))
                == ShownPage(visibleBox: BoxRect(x0: -30, y0: 30, x1: 500, y1: 40), quarterTurns: 3, userUnit: 2))
        #expect(
            ShownPage(newPage: .a4, quarterTurns: 1, crop: nil)
                == ShownPage(visibleBox: BoxRect(x0: 0, y0: 0, x1: PageSize.a4.width, y1: PageSize.a4.height), quarterTurns: 1))
        let huge = PageSize(width: 30_000, height: 9_000)
        #expect(
            ShownPage(newPage: huge, quarterTurns: 0, crop: BoxRect(x0: 300, y0: 600, x1: 29_700, y1: 8_400))
                == ShownPage(visibleBox: BoxRect(x0: 100, y0: 200, x1: 9_900, y1: 2_800), quarterTurns: 0, userUnit: 3))
        // At its own size: a 200 x 100 pt stamp spans a third as many units on a page of 3-point units.
        let m = StampPlacement().matrix(
            on: ShownPage(newPage: huge, quarterTurns: 0, crop: nil), stamp: BoxRect(x0: 0, y0: 0, x1: 200, y1: 100))
        #expect(abs(m.a - 1.0 / 3) < 1e-12 && m.b == 0 && m.c == 0 && abs(m.d - 1.0 / 3) < 1e-12)
        #expect(abs(m.e + 100.0 / 3 - 5_000) < 1e-9 && abs(m.f + 50.0 / 3 - 1_500) < 1e-9)
    }
}
