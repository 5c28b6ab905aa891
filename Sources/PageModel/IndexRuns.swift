/// A sorted set of 0-based indices kept as runs, so that "positions 3…20,000"
/// costs two numbers in memory and in the session file.
struct IndexRuns: Equatable, Sendable {
    /// Ascending, disjoint and not touching.
    private(set) var runs: [ClosedRange<Int>]

    /// From strictly ascending indices.
    init(ascending indices: some Sequence<Int>) {
        var runs: [ClosedRange<Int>] = []
        for index in indices {
            if let last = runs.last, last.upperBound + 1 == index {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        self.runs = runs
    }

    init(_ range: Range<Int>) {
        runs = range.isEmpty ? [] : [range.lowerBound...(range.upperBound - 1)]
    }

    /// From stored runs; nil unless they are ascending, disjoint, not touching
    /// and within 0..<`limit` (so that counting them cannot overflow).
    init?(validating runs: [ClosedRange<Int>], limit: Int) {
        var previousEnd = -2
        for run in runs {
            guard run.lowerBound >= 0, run.upperBound < limit, run.lowerBound > previousEnd + 1 else { return nil }
            previousEnd = run.upperBound
        }
        self.runs = runs
    }

    var count: Int { runs.reduce(0) { $0 + $1.count } }
    var isEmpty: Bool { runs.isEmpty }
    var last: Int? { runs.last?.upperBound }
    var indices: [Int] { runs.flatMap { Array($0) } }

    /// 1-based positions, for summaries.
    var positions: [Int] { runs.flatMap { ($0.lowerBound + 1)...($0.upperBound + 1) } }
}

extension Array where Element == PageItem {
    /// Splits into the items at `runs` and the others, both in order; nil if a run is out of bounds.
    func partitioned(by runs: IndexRuns) -> (taken: [PageItem], kept: [PageItem])? {
        if let last = runs.last, last >= count { return nil }
        var taken: [PageItem] = []
        var kept: [PageItem] = []
        taken.reserveCapacity(runs.count)
        kept.reserveCapacity(count - runs.count)
        var next = 0
        for run in runs.runs {
            kept.append(contentsOf: self[next..<run.lowerBound])
            taken.append(contentsOf: self[run])
            next = run.upperBound + 1
        }
        kept.append(contentsOf: self[next...])
        return (taken, kept)
    }

    /// Puts `block` into this array so that its items end at `runs` (indices in
    /// the result); nil if the counts disagree or a run lies past the end.
    func merging(_ block: [PageItem], at runs: IndexRuns) -> [PageItem]? {
        let total = count + block.count
        guard runs.count == block.count else { return nil }
        if let last = runs.last, last >= total { return nil }
        var result: [PageItem] = []
        result.reserveCapacity(total)
        var baseNext = 0
        var blockNext = 0
        for run in runs.runs {
            let fromBase = run.lowerBound - result.count
            result.append(contentsOf: self[baseNext..<(baseNext + fromBase)])
            baseNext += fromBase
            result.append(contentsOf: block[blockNext..<(blockNext + run.count)])
            blockNext += run.count
        }
        result.append(contentsOf: self[baseNext...])
        return result
    }
}
