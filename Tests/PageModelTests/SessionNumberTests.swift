import Foundation
import PageModel
import Testing

/// Every fractional number of a session file is range-checked where it is read
/// (`decodeSessionNumber`): a damaged box, cell, size, stamp or colour is a
/// one-line decoding error naming its place, never a trap later (issue 40, item 14).
@Suite struct SessionNumberTests {
    /// A session holding a crop box, a sheet with cells, a page stamp and a text
    /// stamp with an offset, a blank page and an outline entry with a colour.
    func session() throws -> Session {
        let context = EditContext(
            pageSize: { _ in .letter },
            pageFrame: { _ in
                let box = BoxRect(x0: 0, y0: 0, x1: 612, y1: 792)
                return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: 0)
            })
        var s = try Session.opening([OpenedFile(documentName: "main", source: pdfSource(pages: 6))])
        try s.apply(.crop(selection("1"), .margins(Margins(values: [10])!)), label: "crop", context: context)
        try s.apply(
            .nup(selection("2..3"), columns: 2, rows: 1, size: nil, order: .rows, gutter: 0), label: "nup",
            context: context)
        try s.apply(
            .textStamp(
                selection("4"),
                Stamp(
                    text: TextMark(kind: .number, format: "{n}", size: 10), opacity: 0.5,
                    placement: StampPlacement(position: .bottom, offsetX: 3, offsetY: 4, margin: 2))),
            label: "number", context: context)
        try s.apply(.blank(at: nil, count: 1, size: .fixed(.a4)), label: "blank", context: context)
        try s.apply(
            .outline(.replace([OutlineDraft(title: "One", position: .number(1))])), label: "outline", context: context)
        return s
    }

    /// The session file as JSON objects, changed by `edit`, decoded again.
    func decodeChanged(_ edit: (inout [String: Any]) throws -> Void) throws -> Result<Session, SessionFormatError> {
        var object = try #require(try JSONSerialization.jsonObject(with: session().encoded()) as? [String: Any])
        try edit(&object)
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            return .success(try Session.decode(data))
        } catch {
            return .failure(error)
        }
    }

    func items(_ object: [String: Any]) throws -> [[String: Any]] {
        let documents = try #require(object["documents"] as? [[String: Any]])
        return try #require(documents[0]["items"] as? [[String: Any]])
    }

    func setItems(_ object: inout [String: Any], _ items: [[String: Any]]) throws {
        var documents = try #require(object["documents"] as? [[String: Any]])
        documents[0]["items"] = items
        object["documents"] = documents
    }

    static let damaged: [Double] = [1e308, -1e308, 9.223372036854775807e18, -9.223372036854775808e18, 1e300, 2e12]

    @Test("a crop box coordinate beyond 2^40 is refused on one line naming it", arguments: damaged)
    func cropBoxCoordinate(_ value: Double) throws {
        for corner in ["x0", "y0", "x1", "y1"] {
            let result = try decodeChanged { object in
                var list = try items(object)
                var boxes = try #require(list[0]["boxes"] as? [String: Any])
                var crop = try #require(boxes["crop"] as? [String: Any])
                crop[corner] = value
                boxes["crop"] = crop
                list[0]["boxes"] = boxes
                try setItems(&object, list)
            }
            guard case .failure(let error) = result else {
                Issue.record("a crop \(corner) of \(value) was accepted")
                continue
            }
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains("documents[0].items[0].boxes.crop.\(corner)"), "\(error)")
        }
    }

    @Test("a sheet cell coordinate beyond 2^40 is refused on one line naming it", arguments: damaged)
    func sheetCellCoordinate(_ value: Double) throws {
        let result = try decodeChanged { object in
            var list = try items(object)
            var sheet = try #require(list[1]["sheet"] as? [String: Any])
            var cells = try #require(sheet["cells"] as? [[String: Any]])
            var rect = try #require(cells[1]["rect"] as? [String: Any])
            rect["x1"] = value
            cells[1]["rect"] = rect
            sheet["cells"] = cells
            list[1]["sheet"] = sheet
            try setItems(&object, list)
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted")
            return
        }
        #expect(error.description.contains("sheet.cells[1].rect.x1"), "\(error)")
    }

    @Test("sizes, stamp numbers and colours beyond 2^40 are refused")
    func otherNumbers() throws {
        let places: [(String, (inout [[String: Any]]) throws -> Void)] = [
            ("sheet.size.width", { list in
                var sheet = try #require(list[1]["sheet"] as? [String: Any])
                sheet["size"] = ["width": 1e308, "height": 792]
                list[1]["sheet"] = sheet
            }),
            ("blank.height", { list in list[list.count - 1]["blank"] = ["width": 595, "height": -1e300] }),
            ("stamps[0].offset", { list in
                var stamps = try #require(list[3]["stamps"] as? [[String: Any]])
                stamps[0]["offset"] = [1e308, 0]
                list[3]["stamps"] = stamps
            }),
        ]
        for (place, change) in places {
            let result = try decodeChanged { object in
                var list = try items(object)
                try change(&list)
                try setItems(&object, list)
            }
            guard case .failure(let error) = result else {
                Issue.record("\(place) accepted")
                continue
            }
            #expect(error.description.contains(place), "\(error)")
        }
        let textSize = try decodeChanged { object in
            var texts = try #require(object["texts"] as? [[String: Any]])
            texts[0]["size"] = 9.3e18
            object["texts"] = texts
        }
        if case .failure(let error) = textSize {
            #expect(error.description.contains("texts[0].size"), "\(error)")
        } else {
            Issue.record("a text size of 9.3e18 accepted")
        }
        let colour = try decodeChanged { object in
            var documents = try #require(object["documents"] as? [[String: Any]])
            var outline = try #require(documents[0]["outline"] as? [[String: Any]])
            outline[0]["color"] = [0, 1e308, 0]
            documents[0]["outline"] = outline
            object["documents"] = documents
        }
        guard case .failure(let error) = colour else {
            Issue.record("colour accepted")
            return
        }
        #expect(error.description.contains("outline[0].color"), "\(error)")
    }

    @Test("a box in range but without area is reported on one line (its message used to trap)")
    func boxWithoutAreaIsDescribed() throws {
        let result = try decodeChanged { object in
            var list = try items(object)
            list[0]["boxes"] = ["crop": ["x0": 1e12, "y0": 0, "x1": 602, "y1": 782]]
            try setItems(&object, list)
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted")
            return
        }
        #expect(error.description.contains("[1000000000000 0 602 782]"), "\(error)")
    }

    @Test("numbers written for people never trap")
    func decimalTexts() {
        #expect(decimalText(595.2756, decimals: 2) == "595.28")
        #expect(decimalText(612, decimals: 2) == "612")
        #expect(decimalText(-0.5, decimals: 2) == "-0.5")
        #expect(decimalText(-0.0001, decimals: 3) == "0")
        #expect(decimalText(0.125, decimals: 3) == "0.125")
        #expect(decimalText(1.05, decimals: 1) == "1.1" || decimalText(1.05, decimals: 1) == "1")
        #expect(decimalText(0.07, decimals: 2) == "0.07")
        #expect(decimalText(1e308, decimals: 3) == "1e+308")
        #expect(decimalText(-9.223372036854775808e18, decimals: 0) == "-9.223372036854776e+18")
        #expect(decimalText(.infinity, decimals: 2) == "inf")
        #expect(BoxRect(x0: 1e308, y0: 0, x1: -1e308, y1: 1).description == "[1e+308 0 -1e+308 1]")
    }
}
