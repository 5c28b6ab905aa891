import Foundation
import PageModel
import PropertyBased
import Testing

/// The rules of the tokens that look at the pages (issue 46): what each
/// selects given what the kit's lookups say the pages are.
@Suite struct PageTokenTests {
    private func page(_ number: Int, _ sourcePage: Int, source: Int = 1, rotation: Int = 0) -> PageItem {
        PageItem(
            id: ItemID(number: number), content: .page(source: SourceID(number: source), page: sourcePage),
            rotation: rotation)
    }

    @Test("the new tokens parse; their values may be quoted to hold commas")
    func parsing() throws {
        let expected: [(String, PageSelection)] = [
            ("landscape", .landscape), ("portrait", .portrait), ("annotated", .annotated), ("image-only", .imageOnly),
            ("dup", .duplicates), ("label:iv", .label("iv")),
            ("label:A-1..A-5", .label("A-1", through: "A-5")), ("outline:Chapter 3", .outline("Chapter 3")),
            ("outline:\"Rates, 2026\"", .outline("Rates, 2026")),
        ]
        for (text, value) in expected {
            #expect(try PageSelection.parse(text) == value, "\(text)")
        }
        // Token names are read in any case; a size by name or in millimetres.
        for text in ["PORTRAIT", "Dup", "size:a4", "size:A4"] {
            #expect(throws: Never.self, "\(text)") { try PageSelection.parse(text) }
        }
        // Millimetres are read as points and written back as they were read.
        let millimetres = try PageSelection.parse("size:210x297mm")
        #expect(try PageSelection.parse(millimetres.description) == millimetres, "\(millimetres.description)")
        #expect(millimetres != .size(.letter))
        #expect(try PageSelection.parse("outline:\"Rates, 2026\",3").description == "outline:\"Rates, 2026\",3")
        for text in ["size:", "size:like:1", "size:huge", "label:", "label:..b", "label:a..", "outline:", "outline:\"\"",
            "dups", "image"] {
            #expect(throws: SelectionError.self, "\(text)") { try PageSelection.parse(text) }
        }
    }

    @Test("the Swift values write the token the command line reads back (as the session stores it)")
    func valuesRoundTrip() throws {
        let values: [PageSelection] = [
            .landscape, .portrait, .annotated, .imageOnly, .duplicates, .size(.a4), .size(PageSize(width: 612, height: 792)),
            .label("iv"), .label("A-1", through: "A-5"), .label("x,y"), .outline("Chapter 3"), .outline("Rates, 2026"),
            .text("Smith, John"), .outline("a..b"),
        ]
        for value in values {
            let read = try PageSelection.parse(value.description)
            #expect(read == value, "\(value.description)")
        }
    }

    @Test("landscape, portrait and size: read the displayed size, the item's rotation included")
    func orientationAndSize() throws {
        let document = Document(
            name: "d",
            items: [
                page(1, 1), page(2, 2), page(3, 1, rotation: 1), PageItem(id: ItemID(number: 4), content: .blank(.a4)),
                PageItem(id: ItemID(number: 5), content: .blank(PageSize(width: 500, height: 500))),
            ])
        // Source page 1 is A4 portrait, page 2 Letter landscape.
        let context = EditContext(pageSize: { item in
            guard case .page(_, let number) = item.content else { return nil }
            return number == 1 ? .a4 : PageSize(width: 792, height: 612)
        })
        #expect(try PageSelection.parse("landscape").resolve(in: document, context: context) == [1, 2])
        #expect(try PageSelection.parse("portrait").resolve(in: document, context: context) == [0, 3])
        #expect(try PageSelection.parse("size:a4").resolve(in: document, context: context) == [0, 2, 3])
        #expect(try PageSelection.parse("size:letter").resolve(in: document, context: context) == [1])
        // Overlapping page tokens are allowed; a square page is neither way round.
        #expect(try PageSelection.parse("landscape,size:a4").resolve(in: document, context: context) == [0, 1, 2, 3])
        #expect(throws: SelectionError.self) { try PageSelection.parse("landscape").resolve(in: document) }
    }

    @Test("size: matches within 1% (at least 2 pt) a side, either way round")
    func sizeTolerance() async {
        await propertyCheck(count: 300, input: Gen.int(in: 3...14_000), Gen.int(in: 3...14_000), Gen.int(in: -99...99)) {
            w, h, n in
            let width = Double(w)
            let height = Double(h)
            let slack = max(2, width * 0.01)
            let wanted = PageSize(width: width, height: height)
            let inside = PageSize(width: width + Double(n) / 100 * slack, height: height)
            let outside = PageSize(width: width + (n < 0 ? -1.02 : 1.02) * slack, height: height)
            #expect(PageSizeMatch.matches(wanted, wanted) && PageSizeMatch.matches(wanted.swapped, wanted))
            #expect(PageSizeMatch.matches(inside, wanted))
            // Outside on one side, unless the swapped reading fits (nearly square pages).
            if abs(width - height) > 3 * max(2, width * 0.01, height * 0.01) {
                #expect(!PageSizeMatch.matches(outside, wanted))
            }
        }
    }

    @Test("dup: later items showing what an earlier one shows; rotation, stamps and placeholders count")
    func duplicates() throws {
        var items = [page(1, 1), page(2, 2), page(3, 1), page(4, 1, source: 2), page(5, 1, rotation: 1), page(6, 2)]
        items.append(PageItem(id: ItemID(number: 7), content: .placeholder(size: .a4, label: nil)))
        items.append(PageItem(id: ItemID(number: 8), content: .placeholder(size: .a4, label: nil)))
        items.append(PageItem(id: ItemID(number: 9), content: .blank(.a4)))
        items.append(PageItem(id: ItemID(number: 10), content: .blank(.a4)))
        items.append(PageItem(id: ItemID(number: 11), content: .blank(.a5)))
        let document = Document(name: "d", items: items)
        // Source 2's page 1 draws what source 1's page 1 draws.
        let context = EditContext(contentFingerprint: { item in
            guard case .page(let source, let number) = item.content else { return nil }
            return source == SourceID(number: 2) ? "digest 1" : "digest \(number)"
        })
        #expect(try PageSelection.parse("dup").resolve(in: document, context: context) == [2, 3, 5, 9])
        #expect(throws: SelectionError.self) { try PageSelection.parse("dup").resolve(in: document) }
    }

    @Test("annotated and image-only: a sheet by its cells, blanks and placeholders never")
    func annotatedAndImageOnly() throws {
        let items = [page(1, 1), page(2, 2), page(3, 3), PageItem(id: ItemID(number: 4), content: .blank(.a4))]
        let document = Document(name: "d", items: items)
        let context = EditContext(
            pageHasText: { item in if case .page(_, let number) = item.content { number != 2 } else { false } },
            annotationCount: { item in if case .page(_, let number) = item.content { number == 3 ? 2 : 0 } else { nil } })
        #expect(try PageSelection.parse("annotated").resolve(in: document, context: context) == [2])
        #expect(try PageSelection.parse("image-only").resolve(in: document, context: context) == [1])
        #expect(try PageSelection.parse("image-only,annotated").resolve(in: document, context: context) == [1, 2])
        // A positional token may not repeat what a page token selected.
        #expect(throws: SelectionError.self) {
            try PageSelection.parse("annotated,3").resolve(in: document, context: context)
        }
    }

    @Test("outline: a bookmark's pages run to the next bookmark outside it; a heading starts at its first child")
    func outlineSections() throws {
        let items = (1...10).map { page($0, $0) }
        func id(_ n: Int) -> ItemID { ItemID(number: n) }
        let outline = [
            OutlineEntry(title: "Front", target: id(1)),
            OutlineEntry(
                title: "Part  One", target: nil,
                children: [
                    OutlineEntry(title: "Chapter 1", target: id(3)),
                    OutlineEntry(title: "Chapter 2", target: id(5), children: [OutlineEntry(title: "2.1", target: id(6))]),
                ]),
            OutlineEntry(title: "Index", target: id(9)),
            OutlineEntry(title: "chapter 1", target: id(10)),
        ]
        let document = Document(name: "d", items: items, outline: outline)
        func under(_ title: String) throws -> [Int] {
            try PageSelection.parse("outline:\(title)").resolve(in: document).map { $0 + 1 }
        }
        #expect(try under("Front") == [1, 2])
        #expect(try under("part one") == [3, 4, 5, 6, 7, 8])
        #expect(try under("Chapter 2") == [5, 6, 7, 8])
        #expect(try under("2.1") == [6, 7, 8])
        #expect(try under("Index") == [9])
        // Two bookmarks with one title (case aside): both sections.
        #expect(try under("CHAPTER 1") == [3, 4, 10])
        #expect(throws: SelectionError.self) { try under("Appendix") }
    }
}
