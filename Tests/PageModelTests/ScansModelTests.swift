import Foundation
import PageModel
import PropertyBased
import Testing

/// Issue 19 items 3–4 in the model: the `empty` token and its rule, `pad` and
/// `blank --after-each` against a naive statement of what they should give.
@Suite struct ScansModelTests {
    /// A context whose pages are `size` (or as given per page) and whose dark shares are `shares` by source page.
    static func context(shares: [Int: Double] = [:], sizes: [Int: PageSize] = [:]) -> EditContext {
        EditContext(
            pageSize: { item in
                guard case .page(_, let page) = item.content else { return nil }
                return sizes[page] ?? .a4
            },
            darkShare: { item in
                guard case .page(_, let page) = item.content else { return nil }
                return shares[page]
            })
    }

    /// A session of a.pdf pages 1…aPages, then b.pdf pages 1…bPages, then a.pdf page 1 again.
    static func twoSources(aPages: Int, bPages: Int) throws -> Session {
        var s = try session(pages: aPages)
        let b = pdfSource("b.pdf", pages: bPages, id: 2)
        try s.apply(
            .insertItems(contents: (1...bPages).map { .page(source: b.id, page: $0) }, at: nil, newSources: [b]),
            label: "insert b")
        try s.apply(.copy(try selection("1"), to: .position(.last)), label: "copy")
        return s
    }

    static func kinds(_ s: Session) -> [String] {
        (s.document(named: s.current)?.items ?? []).map(\.content.kindName)
    }

    // MARK: empty

    @Test(arguments: [
        ("empty", 0.001), ("EMPTY", 0.001), ("empty:0.5%", 0.005), ("empty:0%", 0.0), ("empty:100%", 1.0),
        ("empty:2.5%", 0.025),
    ])
    func emptyTokensParse(_ text: String, _ share: Double) throws {
        let s = try session(pages: 3)
        // The share decides: page 2 at exactly `share` is empty, a hair more is not.
        let exact = Self.context(shares: [1: share + 0.0001, 2: share, 3: share + 0.5])
        let document = try #require(s.document(named: "main"))
        #expect(try selection(text).resolve(in: document, darkShare: exact.darkShare) == [1])
    }

    @Test(arguments: ["empty:", "empty:0.5", "empty:%", "empty:-1%", "empty:101%", "empty:abc%", "empty:1e2%", "empties"])
    func malformedEmptyTokens(_ text: String) {
        #expect(throws: SelectionError.malformed(token: text, pageCount: nil)) { try PageSelection.parse(text) }
    }

    @Test func emptyRuleByKind() throws {
        let share: (PageItem) -> Double? = { _ in 0 }
        let id = ItemID(number: 1)
        let blank = PageItem(id: id, content: .blank(.a4))
        let placeholder = PageItem(id: id, content: .placeholder(size: .a4, label: nil))
        let page = PageItem(id: id, content: .page(source: SourceID(number: 1), page: 1))
        var stampedBlank = blank
        stampedBlank.stamps = [Stamp(source: SourceID(number: 1))]
        #expect(EmptyPage.isEmpty(blank, maximumShare: 0, darkShare: share))
        #expect(!EmptyPage.isEmpty(placeholder, maximumShare: 1, darkShare: share))
        #expect(EmptyPage.isEmpty(page, maximumShare: 0, darkShare: share))
        #expect(!EmptyPage.isEmpty(page, maximumShare: 0.5, darkShare: { _ in nil }), "unknown ink is not empty")
        #expect(!EmptyPage.isEmpty(stampedBlank, maximumShare: 1, darkShare: share), "a stamp is ink")
    }

    /// Issue 40 item 6b: a page with extractable text is not empty unless judged by ink only.
    @Test func textIsNotEmptyUnlessInkOnly() throws {
        let s = try session(pages: 3)
        let document = try #require(s.document(named: "main"))
        // Page 1 has text and no ink (invisible text), page 2 neither, page 3 ink and text.
        let shares: [Int: Double] = [1: 0, 2: 0, 3: 0.2]
        let darkShare: (PageItem) -> Double? = { item in
            guard case .page(_, let page) = item.content else { return nil }
            return shares[page]
        }
        let hasText: (PageItem) -> Bool = { item in
            guard case .page(_, let page) = item.content else { return false }
            return page != 2
        }
        let empty = try selection("empty")
        #expect(try empty.resolve(in: document, darkShare: darkShare, hasText: hasText) == [1])
        #expect(try empty.judgingInkOnly().resolve(in: document, darkShare: darkShare, hasText: hasText) == [0, 1])
        // Positional tokens are untouched by the flag.
        #expect(try selection("1,3").judgingInkOnly() == selection("1,3"))
        #expect(EmptyPage.isText(" \n\u{0C}\t") == false)
        #expect(EmptyPage.isText("\u{0C}7\n") == true)
        // The flag survives being written and read back (the text alone cannot say it).
        let inkOnly = try selection("2,empty:0.5%").judgingInkOnly()
        let data = try JSONEncoder().encode(inkOnly)
        #expect(try JSONDecoder().decode(PageSelection.self, from: data) == inkOnly)
        #expect(try JSONDecoder().decode(PageSelection.self, from: JSONEncoder().encode(empty)) == empty)
        #expect(String(decoding: try JSONEncoder().encode(empty), as: UTF8.self) == "\"empty\"")
    }

    @Test func emptyWithoutRenderingIsAnError() throws {
        let s = try session(pages: 2)
        let document = try #require(s.document(named: "main"))
        #expect(throws: SelectionError.renderingWithoutLookup(token: "empty")) {
            try selection("empty").resolve(in: document)
        }
    }

    @Test func removeEmptyIsOneUndoStepAndMatchingNothingChangesNothing() throws {
        var s = try session(pages: 5)
        try s.apply(.blank(at: .position(.number(3)), count: 1, size: nil), label: "blank", context: Self.context())
        let before = SessionState(s)
        let context = Self.context(shares: [1: 0.2, 2: 0.0005, 3: 0.01, 4: 0, 5: 0.3])
        let summary = try s.apply(.remove(try selection("empty")), label: "remove empty", context: context)
        #expect(pageNumbers(s) == [1, 3, 5])
        #expect(summary.pageCount == 3)
        _ = try s.undo()
        #expect(SessionState(s) == before)
        let none = Self.context(shares: [1: 1, 2: 1, 3: 1, 4: 1, 5: 1])
        var clean = try session(pages: 5)
        let untouched = SessionState(clean)
        let steps = clean.history.entries.count
        let nothing = try clean.apply(.remove(try selection("empty")), label: "x", context: none)
        #expect(nothing.unmatched == ["empty"] && nothing.pageCount == 5)
        #expect(nothing.description == "\"empty\" matches no page of \"\(clean.current)\": nothing changed")
        // Nothing changed, and no undo step was recorded.
        #expect(SessionState(clean) == untouched)
        #expect(clean.history.entries.count == steps)
    }

    @Test func marginsInverseUndoesApplied() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: -500...500).array(of: 2), Gen.int(in: 100...2000).array(of: 2),
            Gen.int(in: -8...8), Gen.int(in: 0...40).array(of: 4)
        ) { origin, size, turns, m in
            let v = BoxRect(
                x0: Double(origin[0]), y0: Double(origin[1]), x1: Double(origin[0] + size[0]),
                y1: Double(origin[1] + size[1]))
            let margins = Margins(top: Double(m[0]), right: Double(m[1]), bottom: Double(m[2]), left: Double(m[3]))
            let inner = margins.applied(to: v, quarterTurns: turns)
            #expect(Margins(of: inner, in: v, quarterTurns: turns) == margins)
        }
    }

    // MARK: pad and blank --after-each

    /// What pad should give: the item kinds, with `K - n % K` blanks after each run.
    static func naivePad(_ runs: [Int], multiple: Int) -> [Int] {
        runs.map { $0 % multiple == 0 ? $0 : $0 + multiple - $0 % multiple }
    }

    @Test func padAtTheEnd() throws {
        var s = try session(pages: 5)
        let sizes: [Int: PageSize] = [5: PageSize(width: 300, height: 500)]
        try s.apply(.rotate(try selection("5"), quarterTurns: 1), label: "rotate")
        let summary = try s.apply(
            .pad(multipleOf: 4, perSource: false, size: nil), label: "pad", context: Self.context(sizes: sizes))
        #expect(pageNumbers(s) == [1, 2, 3, 4, 5, 0, 0, 0])
        #expect(summary.positions == [6, 7, 8])
        // The size of the item before, as displayed: page 5 turned a quarter.
        let blanks = s.document(named: "main")!.items.suffix(3).map(\.content)
        #expect(blanks.allSatisfy { $0 == .blank(PageSize(width: 500, height: 300)) })
        // Padding again adds nothing, and says so.
        let again = try s.apply(.pad(multipleOf: 4, perSource: false, size: nil), label: "pad", context: Self.context())
        #expect(again.description == "nothing to add: already 8 pages")
        #expect(pageNumbers(s).count == 8)
        let error = editError { try s.apply(.pad(multipleOf: 0, perSource: false, size: nil), label: "x") }
        #expect(error == .invalidMultiple(0))
    }

    @Test func padPerSourceFillsEachRunAndUndoRestores() throws {
        var s = try Self.twoSources(aPages: 3, bPages: 2)  // a1 a2 a3 b1 b2 a1
        let before = SessionState(s)
        try s.apply(.pad(multipleOf: 2, perSource: true, size: .fixed(.a5)), label: "pad", context: Self.context())
        #expect(Self.kinds(s) == ["page", "page", "page", "blank", "page", "page", "page", "blank"])
        #expect(s.document(named: "main")!.items[3].content == .blank(.a5))
        // The blank counts with the run before it: nothing more to add.
        try s.apply(.pad(multipleOf: 2, perSource: true, size: nil), label: "pad", context: Self.context())
        #expect(Self.kinds(s).count == 8)
        _ = try s.undo()
        _ = try s.undo()
        #expect(SessionState(s) == before)
    }

    @Test func padPerSourceAgreesWithTheNaiveModel() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 1...7), Gen.int(in: 1...7), Gen.int(in: 1...5)
        ) { aPages, bPages, multiple in
            var s = try Self.twoSources(aPages: aPages, bPages: bPages)
            let ids = s.document(named: "main")!.items.map(\.id)
            try s.apply(.pad(multipleOf: multiple, perSource: true, size: nil), label: "pad", context: Self.context())
            let items = s.document(named: "main")!.items
            // The original items keep their order; the runs have the naive lengths.
            #expect(items.filter { $0.content.kindName == "page" }.map(\.id) == ids)
            var runs: [Int] = []
            var last: SourceID?
            for item in items {
                if let source = item.content.source, source != last || runs.isEmpty {
                    runs.append(1)
                    last = source
                } else {
                    runs[runs.count - 1] += 1
                }
            }
            #expect(runs == Self.naivePad([aPages, bPages, 1], multiple: multiple))
            // Idempotent.
            let after = items
            try s.apply(.pad(multipleOf: multiple, perSource: true, size: nil), label: "pad", context: Self.context())
            #expect(s.document(named: "main")!.items == after)
        }
    }

    @Test func blankAfterEach() throws {
        var s = try session(pages: 4)
        let sizes: [Int: PageSize] = [3: PageSize(width: 200, height: 100)]
        let summary = try s.apply(
            .blankAfterEach(try selection("1,3,last"), size: nil), label: "blank", context: Self.context(sizes: sizes))
        #expect(pageNumbers(s) == [1, 0, 2, 3, 0, 4, 0])
        #expect(summary.positions == [2, 5, 7])
        #expect(ids(s) == ["p1", "p5", "p2", "p3", "p6", "p4", "p7"])
        #expect(s.document(named: "main")!.items[4].content == .blank(PageSize(width: 200, height: 100)))
        _ = try s.undo()
        #expect(pageNumbers(s) == [1, 2, 3, 4])
        try s.apply(.blankAfterEach(try selection("all"), size: .like(position: .number(3))), label: "b", context: Self.context(sizes: sizes))
        #expect(pageNumbers(s) == [1, 0, 2, 0, 3, 0, 4, 0])
        #expect(s.document(named: "main")!.items[1].content == .blank(PageSize(width: 200, height: 100)))
    }
}
