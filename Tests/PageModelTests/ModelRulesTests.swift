import Foundation
import PageModel
import Testing

/// Rules with one home in the model (issue 40): metadata values (item 33), page
/// sizes (item 34) and lists in messages (item 42).
@Suite struct ModelRulesTests {
    // MARK: Metadata values (item 33)

    @Test(
        "a metadata value XMP cannot hold is refused naming the field and the character",
        arguments: [("a\u{1}b", "U+0001"), ("x\u{FFFE}", "U+FFFE"), ("\u{FFFF}", "U+FFFF"), ("a\rb", "U+000D"),
            ("\u{7F}", "U+007F"), ("\u{85}", "U+0085")])
    func controlCharactersAreRefused(_ value: String, _ code: String) throws {
        var s = try session(pages: 1)
        let before = s
        for fields in [
            DocumentMetadata(title: value), DocumentMetadata(author: value), DocumentMetadata(subject: value),
            DocumentMetadata(keywords: value),
        ] {
            let error = editError { try s.apply(.metadata(fields), label: "meta") }
            #expect(error?.description.contains(code) == true, "\(String(describing: error))")
            #expect(error?.description.contains("cannot hold") == true)
            #expect(s == before)
        }
        #expect(DocumentMetadata.problem(ofValue: value) != nil)
    }

    @Test("tabs, line feeds and any printable Unicode are kept")
    func printableValuesAreKept() throws {
        var s = try session(pages: 1)
        let value = "Über\tdas\nÄrgernis — 漢字 🙂"
        try s.apply(.metadata(DocumentMetadata(title: value, keywords: "")), label: "meta")
        #expect(s.currentDocument?.metadata?.title == value)
    }

    @Test("a session holding such a value is refused when read")
    func damagedSessionMetadata() throws {
        var s = try session(pages: 1)
        try s.apply(.metadata(DocumentMetadata(title: "ok")), label: "meta")
        let text = String(decoding: try s.encoded(), as: UTF8.self).replacing("\"title\" : \"ok\"", with: "\"title\" : \"o\\u0001k\"")
        do {
            _ = try Session.decode(Data(text.utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.description.contains("the metadata of \"main\": the title holds the character U+0001"), "\(error)")
        }
    }

    // MARK: Page sizes (item 34)

    /// 600×800 pages at the origin, as a source gives them.
    let context = EditContext(
        pageSize: { _ in PageSize(width: 600, height: 800) },
        pageFrame: { item in
            guard case .page = item.content else { return nil }
            let box = BoxRect(x0: 0, y0: 0, x1: 600, y1: 800)
            return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: 0)
        })

    @Test("a crop that would grow a page past 14,400 units or shrink it under 3 is refused")
    func cropObeysTheSizeRule() throws {
        var s = try session(pages: 2)
        let before = s
        for spec in [
            CropSpec.margins(Margins(values: [-720_000])!), .margins(Margins(values: [-6_801])!),
            .rect(BoxRect(x0: 0, y0: 0, x1: 2, y1: 800)), .margins(Margins(top: 0, right: 299, bottom: 0, left: 299)),
        ] {
            let error = editError { try s.apply(.crop(.all, spec), label: "crop", context: context) }
            #expect(error?.description.hasPrefix("page 1: ") == true, "\(String(describing: error))")
            #expect(s == before)
        }
        let bleed = editError {
            try s.apply(.crop(.all, .margins(Margins(values: [-7_000])!), box: .bleed), label: "crop", context: context)
        }
        #expect(bleed?.description.contains("at most 14400 units a side") == true, "\(String(describing: bleed))")
        // Up to the limit is fine: 600 + 2×6,900 = 14,400.
        try s.apply(.crop(.all, .margins(Margins(top: 0, right: 6_900, bottom: 0, left: 6_900).negated)), label: "crop", context: context)
        #expect(s.documents[0].items[0].boxes.crop == BoxRect(x0: -6_900, y0: 0, x1: 7_500, y1: 800))
    }

    @Test("a crop to the ink of a speck keeps a page of 3 pt")
    func autoCropOfASpeck() throws {
        var s = try session(pages: 1)
        var speck = context
        speck.pageInk = { _ in .box(BoxRect(x0: 100, y0: 100, x1: 101, y1: 100.5)) }
        try s.apply(.crop(.all, .auto(pad: 0)), label: "crop --auto", context: speck)
        #expect(s.documents[0].items[0].boxes.crop == BoxRect(x0: 99, y0: 98.75, x1: 102, y1: 101.75))
    }

    @Test("a blank or a pad page sized like a page outside the rule is refused")
    func sizesTakenFromPagesObeyTheRule() throws {
        var s = try session(pages: 1)
        var tiny = context
        tiny.pageSize = { _ in PageSize(width: 0.07, height: 800) }
        let before = s
        for edit in [
            Edit.blank(at: nil, count: 1, size: .like(position: .number(1))), .blank(at: nil, count: 1, size: nil),
            .pad(multipleOf: 2, perSource: false, size: nil), .blankAfterEach(.all, size: .like(position: .number(1))),
        ] {
            let error = editError { try s.apply(edit, label: "blank", context: tiny) }
            #expect(error?.description.contains("each side must be between 3 and") == true, "\(edit): \(String(describing: error))")
            #expect(s == before)
        }
    }

    @Test("boxes farther from the origin than the largest page are not valid")
    func boxRange() {
        #expect(BoxRect(x0: 0, y0: 0, x1: PageSize.maximumSide, y1: 1).isValid)
        #expect(!BoxRect(x0: 0, y0: 0, x1: PageSize.maximumSide * 2, y1: 1).isValid)
        #expect(!BoxRect(x0: -1e300, y0: 0, x1: 1, y1: 1).isValid)
        #expect(PageSize(width: 3, height: PageSize.maximumSide).isValidPageSize)
        #expect(!PageSize(width: 2.99, height: 10).isValidPageSize)
    }

    // MARK: The label a page will have (item 29)

    @Test("the output labels: sources' labels, unlabelled sources' page numbers, blanks continuing")
    func outputLabels() throws {
        let book = pdfSource("book.pdf", pages: 4, id: 1)
        let plain = pdfSource("plain.pdf", pages: 3, id: 2)
        var s = try Session.opening([OpenedFile(documentName: "main", source: book)])
        try s.apply(.insertItems(contents: [.page(source: plain.id, page: 2)], at: nil, newSources: [plain]), label: "insert")
        try s.apply(.blank(at: nil, count: 2, size: .fixed(.a4)), label: "blank")
        try s.apply(.blank(at: .position(.number(1)), count: 1, size: .fixed(.a4)), label: "blank")
        let roman = SourcePageLabels(ranges: [
            SourceLabelRange(firstPage: 1, label: PageLabelValue(style: .lowerRoman, number: 1, prefix: "")),
            SourceLabelRange(firstPage: 3, label: PageLabelValue(style: .decimal, number: 7, prefix: "A-")),
        ])
        let document = try #require(s.currentDocument)
        func texts(_ labels: [ItemID: PageLabelValue]) -> [String?] { document.items.map { labels[$0.id]?.text } }
        let labelled = document.outputLabelValues { $0 == book.id ? roman : nil }
        // blank, i ii A-7 A-8, plain's page 2, blank, blank.
        #expect(texts(labelled) == ["1", "i", "ii", "A-7", "A-8", "2", "3", "4"])
        // No source has labels: none at all.
        #expect(document.outputLabelValues { _ in nil }.isEmpty)
        // Own ranges win; items before the first have none.
        try s.apply(.labels([LabelSpec(position: .number(3), style: .upperLetters)]), label: "labels")
        let own = try #require(s.currentDocument)
        #expect(own.items.map { own.outputLabelValues { _ in roman }[$0.id]?.text } == [nil, nil, "A", "B", "C", "D", "E", "F"])
    }

    @Test("a page no usable range covers shows its page number")
    func sourceLabelGaps() {
        let labels = SourcePageLabels(ranges: [
            SourceLabelRange(firstPage: 3, label: PageLabelValue(style: .upperRoman, number: 9, prefix: "")),
            SourceLabelRange(firstPage: 5, label: nil),
            SourceLabelRange(firstPage: 7, label: PageLabelValue(style: .decimal, number: Int.max, prefix: "x")),
        ])
        #expect((1...8).map { labels.value(ofPage: $0).text } == ["1", "2", "IX", "X", "5", "6", "x\(Int.max)", "x\(Int.max)"])
    }

    // MARK: Lists in messages (item 42)

    @Test("a list in a message names ten and counts the rest")
    func cappedLists() {
        #expect(cappedList(["a", "b"]) == "a, b")
        let fields = (1...726).map { "f\($0)" }
        #expect(cappedList(fields) == (1...10).map { "f\($0)" }.joined(separator: ", ") + " … and 716 more")
        #expect(positionsPhrase([13]) == "position 13")
        #expect(positionsPhrase([3, 13]) == "positions 3, 13")
    }

    @Test("an unknown document among many is refused with a capped list")
    func unknownDocumentAmongMany() throws {
        var s = try session(pages: 1)
        for index in 1...30 { try s.apply(.newDocument(name: "d\(index)"), label: "new") }
        let error = editError { try s.apply(.useDocument(name: "nope"), label: "use") }
        #expect(error?.description.hasSuffix("… and 21 more)") == true, "\(String(describing: error))")
    }
}

extension Margins {
    /// Every side negated: margins that add room.
    fileprivate var negated: Margins { Margins(top: -top, right: -right, bottom: -bottom, left: -left) }
}
