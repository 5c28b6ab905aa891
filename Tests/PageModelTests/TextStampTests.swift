import Foundation
import PageModel
import PropertyBased
import Testing

/// `number`, `bates`, `watermark` in the model: text stamps, their runs and
/// numbering, refusals, undo, the session file (format 5), and the placement rule.
@Suite struct TextStampTests {
    func texts(_ s: Session, label: (Int) -> String? = { _ in nil }) -> [[String]] {
        guard let document = s.document(named: s.current) else { return [] }
        let resolved = document.stampTexts(label: label)
        return document.items.indices.map { resolved[$0] ?? [] }
    }

    func numbering(_ format: String = "{n}", start: Int = 1, digits: Int = 0) -> Stamp {
        Stamp(
            text: TextMark(kind: .number, format: format, start: start, digits: digits, size: 10),
            placement: StampPlacement(position: .bottom, margin: 24))
    }

    @Test func numbersCountTheSelectedItemsInDocumentOrderAndFollowThem() throws {
        var s = try session(pages: 5)
        let summary = try s.apply(.textStamp(try selection("2..4"), numbering("Page {n} of {total}")), label: "number")
        #expect(summary.action == "number")
        #expect(summary.positions == [2, 3, 4])
        #expect(summary.description == "numbered 3 pages with \"Page {n} of {total}\" (over, bottom margin 24) (5 pages)")
        #expect(texts(s) == [[], ["Page 1 of 3"], ["Page 2 of 3"], ["Page 3 of 3"], []])

        // Moving items renumbers them by their new order; removing one leaves no gap.
        try s.apply(.move(try selection("4"), to: .position(.number(1))), label: "move")
        #expect(ids(s) == ["p4", "p1", "p2", "p3", "p5"])
        #expect(texts(s) == [["Page 1 of 3"], [], ["Page 2 of 3"], ["Page 3 of 3"], []])
        try s.apply(.remove(try selection("3")), label: "remove")
        #expect(texts(s) == [["Page 1 of 2"], [], ["Page 2 of 2"], []])
    }

    @Test func batesPadsAndEachCommandIsARunOfItsOwn() throws {
        var s = try session(pages: 4)
        let bates = Stamp(
            text: TextMark(kind: .bates, format: "ABC{n}", start: 7, digits: 4, size: 10),
            placement: StampPlacement(position: .bottomRight, margin: 24))
        try s.apply(.textStamp(.all, bates), label: "bates")
        try s.apply(.textStamp(try selection("3..4"), numbering("{n}/{total}", start: 10)), label: "number")
        #expect(texts(s) == [["ABC0007"], ["ABC0008"], ["ABC0009", "10/2"], ["ABC0010", "11/2"]])
        let runs = s.document(named: s.current)!.items[3].stamps.compactMap(\.text?.run)
        #expect(runs == [1, 2])
        // Digits never cut a longer number.
        var t = try session(pages: 1)
        try t.apply(.textStamp(.all, numbering("{n}", start: 123_456, digits: 3)), label: "x")
        #expect(texts(t) == [["123456"]])
    }

    @Test func labelsAndDocumentNamesAreResolvedPerItem() throws {
        var s = try session(pages: 3, name: "report")
        try s.apply(.textStamp(.all, numbering("{doc}: {label} {1}")), label: "x")
        let labels = ["i", nil, "iii"]
        #expect(
            texts(s, label: { labels[$0] })
                == [["report: i {1}"], ["report: 2 {1}"], ["report: iii {1}"]])
        // {file}, {pages} and the date fields, the date as the caller formats it.
        #expect(
            TextMark(kind: .number, format: "{file} {pages} {date} {date:%d} {date:} {date", size: 9).resolved(
                number: 1, total: 1, label: "1", document: "d", file: "a.pdf", pages: 12, date: { "<\($0)>" })
                == "a.pdf 12 <%Y-%m-%d> <%d> <%Y-%m-%d> {date")
        #expect(TextMark(kind: .number, format: "{date:%d} {file} {pages}", size: 9).unknownFields.isEmpty)
        // An unknown field of a session written before it was refused stays text.
        #expect(
            TextMark(kind: .number, format: "{doc} {unknown}", size: 9).resolved(
                number: 1, total: 1, label: "1", document: "d") == "d {unknown}")
    }

    @Test func textTheStandardFontsCannotWriteIsShapedAndBadMarksAreRefused() throws {
        var s = try session(pages: 2)
        // Text outside WinAnsi is taken, and drawn in a real font at export.
        let arrow = TextMark(kind: .watermark, format: "Go → there", size: 72, angle: 45)
        try s.apply(.textStamp(.all, Stamp(text: arrow, placement: .init())), label: "x")
        #expect(arrow.needsShaping("Go → there") && !arrow.needsShaping("Go there"))
        let before = s
        // Windows-1252's own characters are fine: € – “ ” é ß.
        #expect(try WinAnsi.encode("€ – “é” ß").get() == [0x80, 0x20, 0x96, 0x20, 0x93, 0xE9, 0x94, 0x20, 0xDF])
        #expect(!arrow.needsShaping("€ – “é” ß"))
        for bad in [
            Stamp(text: TextMark(kind: .number, format: "", size: 10), placement: .init()),
            Stamp(text: TextMark(kind: .number, format: "x", size: 0), placement: .init()),
            Stamp(text: TextMark(kind: .number, format: "x", size: 10), opacity: 0, placement: .init()),
            Stamp(text: TextMark(kind: .number, format: "x", size: 10), placement: .init(margin: -1)),
            Stamp(text: TextMark(kind: .bates, format: "x", digits: 40, size: 10), placement: .init()),
        ] {
            #expect(editError { try s.apply(.textStamp(.all, bad), label: "x") } != nil)
        }
        #expect(s == before)
    }

    @Test func undoRedoAndUnstampTakeTextStampsOff() throws {
        var s = try session(pages: 3)
        let before = s
        try s.apply(.textStamp(.all, numbering()), label: "number all")
        let numbered = s
        try s.apply(.unstamp(.all), label: "unstamp all")
        #expect(texts(s) == [[], [], []])
        #expect(try s.undo() == ["unstamp all"])
        #expect(s.documents == numbered.documents)
        #expect(try s.undo() == ["number all"])
        #expect(s.documents == before.documents)
        #expect(try s.redo() == ["number all"])
        #expect(texts(s) == [["1"], ["2"], ["3"]])
    }

    @Test func theSessionFileKeepsTextStampsAndPlacementsAndReadsOlderStamps() throws {
        var s = try session(pages: 2)
        try s.apply(
            .textStamp(
                .all,
                Stamp(
                    text: TextMark(kind: .watermark, format: "DRAFT", font: .times, size: 50, angle: 30), under: true,
                    opacity: 0.25, placement: StampPlacement(position: .topLeft, offsetX: 5, offsetY: -7.5))),
            label: "watermark")
        let data = try s.encoded()
        let decoded = try Session.decode(data)
        #expect(decoded == s)
        #expect(try decoded.encoded() == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"version\" : 8"))
        #expect(text.contains("\"position\" : \"top-left\"") && text.contains("\"font\" : \"times\""))

        // A format-4 page stamp has no placement keys: it is centred; and a centred
        // page stamp is written without them.
        let old = #"{"source": "s1", "page": 1, "under": false, "fit": true, "opacity": 1}"#
        let stamp = try JSONDecoder().decode(Stamp.self, from: Data(old.utf8))
        #expect(stamp == Stamp(source: SourceID(number: 1), fit: true))
        let written = String(decoding: try JSONEncoder().encode(stamp), as: UTF8.self)
        #expect(!written.contains("position") && !written.contains("offset") && !written.contains("margin"))
    }

    @Test func framesSitAtTheNineAnchorsInsideTheMargin() {
        let page = PageSize(width: 612, height: 792)
        let box = PageSize(width: 50, height: 10)
        let expected: [StampPosition: (Double, Double)] = [
            .bottomLeft: (49, 29), .bottom: (306, 29), .bottomRight: (563, 29),
            .left: (49, 396), .center: (306, 396), .right: (563, 396),
            .topLeft: (49, 763), .top: (306, 763), .topRight: (563, 763),
        ]
        for (position, centre) in expected {
            let frame = StampPlacement(position: position, margin: 24).frame(page: page, stamp: box)
            #expect(frame == .init(centreX: centre.0, centreY: centre.1, scale: 1), "\(position)")
            let moved = StampPlacement(position: position, offsetX: 10, offsetY: -20, margin: 24)
                .frame(page: page, stamp: box)
            #expect(moved.centreX == centre.0 + 10 && moved.centreY == centre.1 - 20)
        }
        // Larger than the page: scaled down to the room inside the margin; --fit fills it.
        let big = StampPlacement(position: .top).frame(page: page, stamp: PageSize(width: 1224, height: 100))
        #expect(big.scale == 0.5 && big.centreY == 792 - 25)
        let fit = StampPlacement().frame(page: page, stamp: PageSize(width: 306, height: 100), fit: true)
        #expect(fit.scale == 2)
        let turned = StampPlacement.boundingSize(PageSize(width: 30, height: 10), degrees: 90)
        #expect(turned == PageSize(width: 10, height: 30))
    }

    @Test func stampTextsMatchANaiveCountForAnySelections() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 1...12), Gen.int(in: 0...4095), Gen.int(in: 0...4095), Gen.int(in: 0...20)
        ) { pages, first, second, start in
            guard var s = try? session(pages: pages) else { return }
            let picks = [first, second].map { mask in (0..<pages).filter { mask & (1 << $0) != 0 } }
            for (index, picked) in picks.enumerated() where !picked.isEmpty {
                let tokens = picked.map { String($0 + 1) }.joined(separator: ",")
                guard let chosen = try? selection(tokens) else { continue }
                _ = try? s.apply(.textStamp(chosen, numbering("\(index):{n}/{total}", start: start)), label: "x")
            }
            var expected = [[String]](repeating: [], count: pages)
            for (index, picked) in picks.enumerated() {
                for (order, item) in picked.enumerated() {
                    expected[item].append("\(index):\(start + order)/\(picked.count)")
                }
            }
            #expect(texts(s) == expected)
        }
    }
}

/// Issue 40, items 27 and 32: a stamp's text is stored once in the session file
/// (format 6, `"texts"`), its length is bounded, and an unknown `{field}` is refused.
@Suite struct StampTextStorageTests {
    func watermark(_ text: String) -> Stamp {
        Stamp(
            text: TextMark(kind: .watermark, format: text, size: 72, angle: 45), opacity: 0.3,
            placement: StampPlacement())
    }

    @Test("a watermark on 2,000 pages writes its text once")
    func textOnce() throws {
        var s = try session(pages: 2_000)
        let text = String(repeating: "W", count: TextMark.maximumTextLength - 3) + "{n}"
        try s.apply(.textStamp(.all, watermark(text)), label: "watermark")
        try s.apply(.rotate(try selection("odd"), quarterTurns: 1), label: "rotate")
        let data = try s.encoded()
        let file = String(decoding: data, as: UTF8.self)
        #expect(file.components(separatedBy: String(repeating: "W", count: 900)).count == 2)
        // 2,000 items written alone with their stamps, about 200 bytes each.
        #expect(data.count < 600_000, "\(data.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 8)
        #expect((object["texts"] as? [[String: Any]])?.count == 1)
        let decoded = try Session.decode(data)
        #expect(decoded == s)
        var undone = decoded
        _ = try undone.undo(2)
        #expect(undone.documents[0].items.allSatisfy { $0.stamps.isEmpty })
    }

    @Test("a format 5 session, each stamp holding its text, still loads as the same session")
    func formatFiveLoads() throws {
        var s = try session(pages: 3)
        try s.apply(.textStamp(.all, watermark("DRAFT")), label: "watermark")
        try s.apply(.remove(try selection("2")), label: "remove")
        var object = try #require(try JSONSerialization.jsonObject(with: s.encoded()) as? [String: Any])
        let texts = try #require(object["texts"] as? [Any])
        // Put the mark back into every stamp, as format 5 wrote it, wherever it is.
        func inline(_ value: Any) -> Any {
            if var dictionary = value as? [String: Any] {
                for (key, inner) in dictionary { dictionary[key] = inline(inner) }
                if dictionary["opacity"] != nil, let index = dictionary["text"] as? Int { dictionary["text"] = texts[index] }
                return dictionary
            }
            if let array = value as? [Any] { return array.map(inline) }
            return value
        }
        object = inline(object) as! [String: Any]
        object.removeValue(forKey: "texts")
        object["version"] = 5
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(!String(decoding: old, as: UTF8.self).contains("\"texts\""))
        let decoded = try Session.decode(old)
        #expect(decoded.documents == s.documents)
        #expect(decoded.history == s.history)
        // Written again, it is format 6.
        #expect(try Session.decode(decoded.encoded()) == decoded)
    }

    @Test("a stamp naming a text the file does not list is refused on one line")
    func missingText() throws {
        var s = try session(pages: 2)
        try s.apply(.textStamp(.all, watermark("X")), label: "watermark")
        var object = try #require(try JSONSerialization.jsonObject(with: s.encoded()) as? [String: Any])
        object["texts"] = []
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try Session.decode(data)
            Issue.record("decoded")
        } catch {
            #expect(error.description.contains("text 0 is not one of the session's \"texts\""), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a text longer than the limit, or with an unknown field, is refused and changes nothing")
    func refusals() throws {
        var s = try session(pages: 2)
        let before = s
        for (text, expected) in [
            (String(repeating: "x", count: TextMark.maximumTextLength + 1), "at most 1000 are allowed"),
            ("Page {n} of {pagecount}", "unknown field \"{pagecount}\""),
            ("{N}", "unknown field \"{N}\""),
        ] {
            guard let error = editError({ try s.apply(.textStamp(.all, watermark(text)), label: "w") }) else { continue }
            #expect(error.description.contains(expected), "\(error)")
            #expect(s == before)
        }
        // Braces that are not a field name stay text.
        try s.apply(.textStamp(.all, watermark("{ } {} {1} {n} {doc}")), label: "w")
        #expect(s.documents[0].stampTexts(label: { _ in nil })[0] == ["{ } {} {1} 1 main"])
        #expect(TextMark(kind: .number, format: "{a}{n}{b_2}{", size: 9).unknownFields == ["{a}", "{b_2}"])
    }
}
