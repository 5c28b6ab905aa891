import PDFEditKit
import Testing

/// `PageMatching` and `ChangedRegions` on made-up signatures and pictures:
/// what `diff` calls moved, removed, inserted and changed, without a PDF.
struct PageMatchingTests {
    /// A page known by an exact key, with words and a flat grey picture.
    private func page(_ key: String?, turns: Int = 0, words: String = "", grey: UInt8 = 250) -> PageSignature {
        PageSignature(
            exact: key, quarterTurns: turns, words: PageSignature.words(of: words),
            thumbnail: [UInt8](repeating: grey, count: PageSignature.side * PageSignature.side))
    }

    private func pairs(_ matching: PageMatching) -> [String] {
        matching.pairs.map { "\($0.left)>\($0.right)\($0.moved ? " moved" : "")\($0.exact ? "" : " near")" }
    }

    @Test func aMoveIsOneMovedPageNotARenumbering() {
        let left = ["a", "b", "c", "d", "e"].map { page($0) }
        let right = ["c", "a", "b", "d", "e"].map { page($0) }
        let matching = PageMatching.match(left: left, right: right)
        #expect(pairs(matching) == ["0>1", "1>2", "2>0 moved", "3>3", "4>4"])
        #expect(matching.removed.isEmpty && matching.inserted.isEmpty)
    }

    @Test func removedAndInsertedPagesStayAlone() {
        let left = ["a", "b", "c"].map { (key: String) in page(key, words: "words of \(key)") }
        let right = ["a", "x", "c", "y"].map { (key: String) in page(key, words: "other text \(key) here") }
        let matching = PageMatching.match(left: left, right: right)
        #expect(pairs(matching) == ["0>0", "2>2"])
        #expect(matching.removed == [1])
        #expect(matching.inserted == [1, 3])
    }

    @Test func aPageChangedInPlaceIsPairedByItsText() {
        let left = [page("a", words: "one two three four five six"), page("b", words: "seven eight nine ten")]
        let right = [page("a2", words: "one two three four five six DRAFT"), page("b", words: "seven eight nine ten")]
        let matching = PageMatching.match(left: left, right: right)
        #expect(pairs(matching) == ["0>0 near", "1>1"])
    }

    @Test func pagesWithoutTextPairOnlyWhenTheirPicturesAreAlike() {
        let left = [page(nil, grey: 250), page(nil, grey: 40)]
        let right = [page(nil, grey: 245), page(nil, grey: 200)]
        let matching = PageMatching.match(left: left, right: right)
        #expect(pairs(matching) == ["0>0 near"])
        #expect(matching.removed == [1] && matching.inserted == [1])
    }

    @Test func equalPagesTurnedAlikePairFirst() {
        // The same page twice, once turned: each copy pairs with its like (not
        // in order, which would make both rotated), and one of the two moved.
        let left = [page("a", turns: 0), page("a", turns: 1)]
        let right = [page("a", turns: 1), page("a", turns: 0)]
        let matching = PageMatching.match(left: left, right: right)
        #expect(pairs(matching) == ["0>1 moved", "1>0"])
    }

    @Test func theLongestRunInOrderStays() {
        #expect(PageMatchingTestsAccess.run([1, 2, 0, 3, 4]) == [0, 1, 3, 4])
        #expect(PageMatchingTestsAccess.run([4, 0, 1, 2, 3]) == [1, 2, 3, 4])
        #expect(PageMatchingTestsAccess.run([]) == [])
    }

    @Test func regionsAreTheBoxesOfTouchingCells() {
        let width = 40
        let height = 24
        let before = [UInt8](repeating: 255, count: width * height)
        var after = before
        // A dark patch at x 10…13, y 2…5 and a lone one at x 35…36, y 20…21.
        for y in 2...5 { for x in 10...13 { after[y * width + x] = 0 } }
        for y in 20...21 { for x in 35...36 { after[y * width + x] = 0 } }
        // Anti-aliasing: a small grey step changes nothing.
        after[0] = 230
        let boxes = ChangedRegions.find(before, after, width: width, height: height, cell: 8)
        #expect(boxes == [
            ChangedRegions.Box(x0: 8, y0: 0, x1: 16, y1: 8),
            ChangedRegions.Box(x0: 32, y0: 16, x1: 40, y1: 24),
        ])
        #expect(ChangedRegions.find(before, before, width: width, height: height, cell: 8).isEmpty)
    }

    @Test func thumbnailsCompareUpright() {
        // A 2 × 2 picture dark at its top-left corner, shown turned 90° clockwise
        // (dark at the top right), is dark at the top left once turned back.
        let shown: [UInt8] = [255, 0, 255, 255]
        #expect(ChangedRegions.thumbnail(shown, width: 2, height: 2, side: 2, quarterTurns: 1) == [0, 255, 255, 255])
        #expect(ChangedRegions.thumbnail(shown, width: 2, height: 2, side: 2, quarterTurns: 0) == shown)
    }
}

/// The run of pairs kept in order, through the public matcher: pairs are
/// made with exact keys so that each left page `i` goes to right page `values[i]`.
enum PageMatchingTestsAccess {
    static func run(_ values: [Int]) -> [Int] {
        let left = values.indices.map { PageSignature(exact: "k\($0)", quarterTurns: 0) }
        var right = [PageSignature](repeating: PageSignature(exact: nil, quarterTurns: 0), count: values.count)
        for (index, value) in values.enumerated() { right[value] = PageSignature(exact: "k\(index)", quarterTurns: 0) }
        let matching = PageMatching.match(left: left, right: right)
        return matching.pairs.filter { !$0.moved }.map(\.left)
    }
}
