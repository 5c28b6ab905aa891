/// What `diff` knows of one page when it pairs the pages of two documents:
/// pure values, so the pairing is tested without a PDF (`PageMatchingTests`).
package struct PageSignature: Sendable, Equatable {
    /// What the page draws, exactly (the source page's content fingerprint, its
    /// boxes and stamps; an item's own rotation left out); nil when unknown.
    package var exact: String?
    /// Quarter turns clockwise as displayed (the page's /Rotate and the item's rotation), 0…3.
    package var quarterTurns: Int
    /// The words of its text, lowercased; empty for a page without text.
    package var words: Set<String> = []
    /// A `PageSignature.side` × `side` grey picture of the page turned upright
    /// (its `quarterTurns` undone), stretched to the square; empty until rendered.
    package var thumbnail: [UInt8] = []

    /// The side of the square thumbnail near matches compare.
    package static let side = 32

    package init(exact: String?, quarterTurns: Int, words: Set<String> = [], thumbnail: [UInt8] = []) {
        self.exact = exact
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.words = words
        self.thumbnail = thumbnail
    }

    /// The words `text` holds, for `words`.
    package static func words(of text: String) -> Set<String> {
        Set(text.split(whereSeparator: { $0.isWhitespace }).map { $0.lowercased() })
    }
}

/// Two documents' pages paired by content, robust to renumbering.
///
/// First the pages that draw exactly the same (`PageSignature.exact`), in
/// order; then, among the rest, the most similar pairs by text (the share of
/// words they have in common) and by a small picture, so that a page changed
/// in place, or rotated, is still paired. What stays alone was removed (left)
/// or inserted (right). Of the pairs, those outside a longest run kept in
/// order are the ones that moved.
package struct PageMatching: Sendable, Equatable {
    /// (left index, right index), 0-based, by left index.
    package var pairs: [Pair]
    /// Left pages with no partner, in order.
    package var removed: [Int]
    /// Right pages with no partner, in order.
    package var inserted: [Int]

    package struct Pair: Sendable, Equatable {
        package var left: Int
        package var right: Int
        /// Paired through `PageSignature.exact`: the same content.
        package var exact: Bool
        /// Not among the pages kept in order: the user moved it.
        package var moved: Bool

        package init(left: Int, right: Int, exact: Bool, moved: Bool = false) {
            self.left = left
            self.right = right
            self.exact = exact
            self.moved = moved
        }
    }

    /// Pages with text pair when their similarity is at least this (text weighs 0.7, the picture 0.3).
    package static let textThreshold = 0.6
    /// Pages without text pair only when their pictures are this alike.
    package static let pictureThreshold = 0.85

    /// Pairs the pages. `signature(side, index)` is asked only for pages the
    /// exact pass left alone (they are the ones that need a rendering and text).
    package static func match(
        left: [PageSignature], right: [PageSignature],
        completing: (_ leftIndices: [Int], _ rightIndices: [Int]) throws(PDFEditError) -> (
            left: [Int: PageSignature], right: [Int: PageSignature]
        )
    ) throws(PDFEditError) -> PageMatching {
        var pairs = exactPairs(left: left, right: right)
        let pairedLeft = Set(pairs.map(\.left))
        let pairedRight = Set(pairs.map(\.right))
        let leftRest = left.indices.filter { !pairedLeft.contains($0) }
        let rightRest = right.indices.filter { !pairedRight.contains($0) }
        if !leftRest.isEmpty && !rightRest.isEmpty {
            let completed = try completing(leftRest, rightRest)
            pairs += nearPairs(
                left: completed.left, right: completed.right, leftCount: left.count, rightCount: right.count)
        }
        return finished(pairs, leftCount: left.count, rightCount: right.count)
    }

    /// The same on signatures already complete.
    package static func match(left: [PageSignature], right: [PageSignature]) -> PageMatching {
        var pairs = exactPairs(left: left, right: right)
        let pairedLeft = Set(pairs.map(\.left))
        let pairedRight = Set(pairs.map(\.right))
        var leftRest: [Int: PageSignature] = [:]
        var rightRest: [Int: PageSignature] = [:]
        for index in left.indices where !pairedLeft.contains(index) { leftRest[index] = left[index] }
        for index in right.indices where !pairedRight.contains(index) { rightRest[index] = right[index] }
        pairs += nearPairs(left: leftRest, right: rightRest, leftCount: left.count, rightCount: right.count)
        return finished(pairs, leftCount: left.count, rightCount: right.count)
    }

    /// Equal `exact` keys, each right page used once, in order: first those
    /// turned alike, then the rest (the same page, rotated).
    static func exactPairs(left: [PageSignature], right: [PageSignature]) -> [Pair] {
        var pairs: [Pair] = []
        var usedLeft = Set<Int>()
        for sameTurns in [true, false] {
            var waiting: [String: [Int]] = [:]
            let usedRight = Set(pairs.map(\.right))
            for (index, page) in right.enumerated().reversed() where !usedRight.contains(index) {
                guard let key = page.exact else { continue }
                waiting[sameTurns ? "\(page.quarterTurns) \(key)" : key, default: []].append(index)
            }
            for (index, page) in left.enumerated() where !usedLeft.contains(index) {
                guard let key = page.exact else { continue }
                let wanted = sameTurns ? "\(page.quarterTurns) \(key)" : key
                guard let partner = waiting[wanted]?.popLast() else { continue }
                pairs.append(Pair(left: index, right: partner, exact: true))
                usedLeft.insert(index)
            }
        }
        return pairs
    }

    /// How alike two pages are, 0…1: by their words (when either has text)
    /// and their upright pictures.
    package static func similarity(_ a: PageSignature, _ b: PageSignature) -> Double {
        let picture = pictureSimilarity(a.thumbnail, b.thumbnail)
        if a.words.isEmpty && b.words.isEmpty { return picture }
        let common = Double(a.words.intersection(b.words).count)
        let all = Double(a.words.union(b.words).count)
        return 0.7 * (common / all) + 0.3 * picture
    }

    /// 1 for equal pictures, 0 when they differ by a quarter of the grey scale on average (or cannot be compared).
    static func pictureSimilarity(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard !a.isEmpty, a.count == b.count else { return 0 }
        var total = 0
        for index in a.indices { total += abs(Int(a[index]) - Int(b[index])) }
        let mean = Double(total) / Double(a.count)
        return max(0, 1 - mean / 64)
    }

    /// The most similar pairs first (ties: the pair nearer the same place in
    /// both documents, then the earlier), each page used once.
    static func nearPairs(
        left: [Int: PageSignature], right: [Int: PageSignature], leftCount: Int, rightCount: Int
    ) -> [Pair] {
        struct Candidate {
            var left: Int
            var right: Int
            var score: Double
            var distance: Double
        }
        var candidates: [Candidate] = []
        for (leftIndex, a) in left {
            for (rightIndex, b) in right {
                let score = similarity(a, b)
                let needed = a.words.isEmpty && b.words.isEmpty ? pictureThreshold : textThreshold
                guard score >= needed else { continue }
                let distance = abs(
                    Double(leftIndex) / Double(max(1, leftCount)) - Double(rightIndex) / Double(max(1, rightCount)))
                candidates.append(Candidate(left: leftIndex, right: rightIndex, score: score, distance: distance))
            }
        }
        candidates.sort {
            if $0.score != $1.score { return $0.score > $1.score }
            if $0.distance != $1.distance { return $0.distance < $1.distance }
            return ($0.left, $0.right) < ($1.left, $1.right)
        }
        var usedLeft = Set<Int>()
        var usedRight = Set<Int>()
        var pairs: [Pair] = []
        for candidate in candidates where !usedLeft.contains(candidate.left) && !usedRight.contains(candidate.right) {
            usedLeft.insert(candidate.left)
            usedRight.insert(candidate.right)
            pairs.append(Pair(left: candidate.left, right: candidate.right, exact: false))
        }
        return pairs
    }

    /// Sorted pairs, the moved ones marked, and the pages left alone.
    static func finished(_ found: [Pair], leftCount: Int, rightCount: Int) -> PageMatching {
        var pairs = found.sorted { $0.left < $1.left }
        let kept = Set(longestIncreasingRun(pairs.map(\.right)))
        for index in pairs.indices { pairs[index].moved = !kept.contains(index) }
        let pairedLeft = Set(pairs.map(\.left))
        let pairedRight = Set(pairs.map(\.right))
        return PageMatching(
            pairs: pairs, removed: (0..<leftCount).filter { !pairedLeft.contains($0) },
            inserted: (0..<rightCount).filter { !pairedRight.contains($0) })
    }

    /// The indices into `values` of a longest strictly increasing subsequence
    /// (patience sorting; among equally long ones, the one ending earliest).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(index)
            index = previous[index]
        }
        return run.reversed()
    }
}
