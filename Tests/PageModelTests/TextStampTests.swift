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
        try s.apply(.textStamp(.all, numbering("{doc}: {label} {unknown}")), label: "x")
        let labels = ["i", nil, "iii"]
        #expect(
            texts(s, label: { labels[$0] })
                == [["report: i {unknown}"], ["report: 2 {unknown}"], ["report: iii {unknown}"]])
    }

    @Test func textTheStandardFontsCannotWriteIsRefusedNamingTheCharacter() throws {
        var s = try session(pages: 2)
        let before = s
        let arrow = Stamp(text: TextMark(kind: .watermark, format: "Go → there", size: 72, angle: 45), placement: .init())
        let error = editError { try s.apply(.textStamp(.all, arrow), label: "x") }
        guard case .unencodableText(let character, let text)? = error else {
            Issue.record("expected unencodableText, got \(String(describing: error))")
            return
        }
        #expect(character.character == "→" && text == "Go → there")
        #expect(String(describing: error!).contains("\"→\" (U+2192)"))
        // Windows-1252's own characters are fine: € – “ ” é ß.
        #expect(try WinAnsi.encode("€ – “é” ß").get() == [0x80, 0x20, 0x96, 0x20, 0x93, 0xE9, 0x94, 0x20, 0xDF])
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
        #expect(text.contains("\"version\" : 5"))
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
