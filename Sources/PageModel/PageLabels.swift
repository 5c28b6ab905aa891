/// How the numbers of a page label range are written (the /S of a PDF page
/// label dictionary): `D` 1 2 3, `r` i ii iii, `R` I II III, `a` a b … z aa,
/// `A` A B … Z AA, `-` none (the prefix alone).
public enum LabelStyle: String, Codable, Sendable, CaseIterable {
    case decimal = "D"
    case lowerRoman = "r"
    case upperRoman = "R"
    case lowerLetters = "a"
    case upperLetters = "A"
    case none = "-"

    /// The number `n` (≥ 1) in this style; "" for `.none`.
    package func format(_ n: Int) -> String {
        switch self {
        case .decimal: "\(n)"
        case .lowerRoman: LabelStyle.roman(n).lowercased()
        case .upperRoman: LabelStyle.roman(n)
        case .lowerLetters: LabelStyle.letters(n).lowercased()
        case .upperLetters: LabelStyle.letters(n)
        case .none: ""
        }
    }

    /// Roman numerals as PDF readers write them (thousands as repeated M).
    static func roman(_ n: Int) -> String {
        guard n > 0 else { return "" }
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var rest = n
        var text = ""
        // Readers repeat M for thousands; cap the repetition so a huge start cannot build a huge string.
        let thousands = min(rest / 1000, 1000)
        text += String(repeating: "M", count: thousands)
        rest %= 1000
        for (value, symbol) in table.dropFirst() {
            while rest >= value {
                text += symbol
                rest -= value
            }
        }
        return text
    }

    /// Letters as ISO 32000 defines them: A … Z, then AA … ZZ, AAA …
    /// (the letter repeated), not a base-26 count.
    static func letters(_ n: Int) -> String {
        guard n > 0 else { return "" }
        let letter = Character(UnicodeScalar(UInt8(65 + (n - 1) % 26)))
        return String(repeating: letter, count: min((n - 1) / 26 + 1, 1000))
    }
}

/// One range of a document's page labels: it starts at an item (by id, so it
/// moves with that item) and runs until the item where the next range starts.
package struct LabelRange: Codable, Equatable, Sendable {
    package var start: ItemID
    package var style: LabelStyle
    /// The number of the range's first page (≥ 1).
    package var firstNumber: Int
    package var prefix: String

    package init(start: ItemID, style: LabelStyle, firstNumber: Int = 1, prefix: String = "") {
        self.start = start
        self.style = style
        self.firstNumber = firstNumber
        self.prefix = prefix
    }
}

/// One `labels` argument, `P:STYLE[/START][/PREFIX]`, before its position is resolved.
public struct LabelSpec: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The first page of the range; the range runs to the next one's start.
    public var position: Position
    /// How the numbers are written.
    public var style: LabelStyle
    /// The number of the range's first page (from 1).
    public var firstNumber: Int
    /// Text before each number ("A-" makes A-1, A-2…).
    public var prefix: String

    /// A range of page labels starting at `position`.
    public init(position: Position, style: LabelStyle, firstNumber: Int = 1, prefix: String = "") {
        self.position = position
        self.style = style
        self.firstNumber = firstNumber
        self.prefix = prefix
    }

    /// The largest first number accepted (PDF readers keep integers of 31 bits).
    package static let maximumFirstNumber = Int(Int32.max)

    /// Reads `P:STYLE[/START][/PREFIX]`: P a position (`N`, `last`, `@ID`),
    /// STYLE one of `D r R a A -`, START a number ≥ 1 (default 1, may be
    /// empty: `5:D//Part-`), PREFIX the rest (it may contain `/`).
    package static func parse(_ text: String) throws(LabelSpecError) -> LabelSpec {
        guard let colon = text.firstIndex(of: ":") else { throw .missingStyle(text) }
        let position: Position
        do {
            position = try Position.parse(String(text[..<colon]))
        } catch {
            throw .position(text, error.description)
        }
        let rest = text[text.index(after: colon)...]
        let parts = rest.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard let style = LabelStyle(rawValue: String(parts[0])) else {
            throw .unknownStyle(text, String(parts[0]))
        }
        var first = 1
        if parts.count > 1, !parts[1].isEmpty {
            guard let n = parseCount(parts[1]), n >= 1, n <= maximumFirstNumber else {
                throw .invalidStart(text, String(parts[1]))
            }
            first = n
        }
        let prefix = parts.count > 2 ? String(parts[2]) : ""
        return LabelSpec(position: position, style: style, firstNumber: first, prefix: prefix)
    }

    /// The range as the command line writes it: `5:D`, `1:r/3`, `9:D/1/A-`.
    public var description: String {
        var text = "\(position):\(style.rawValue)"
        if firstNumber != 1 || !prefix.isEmpty { text += "/\(firstNumber)" }
        if !prefix.isEmpty { text += "/\(prefix)" }
        return text
    }
}

/// Why a `labels` argument could not be read.
package enum LabelSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingStyle(String)
    case position(String, String)
    case unknownStyle(String, String)
    case invalidStart(String, String)

    package var description: String {
        switch self {
        case .missingStyle(let spec):
            "label range \(quoted(spec)) has no style: write P:STYLE[/START][/PREFIX], e.g. 5:D"
        case .position(let spec, let why): "label range \(quoted(spec)): \(why)"
        case .unknownStyle(let spec, let style):
            "label range \(quoted(spec)): unknown style \(quoted(style)) (use D, r, R, a, A or -)"
        case .invalidStart(let spec, let start):
            "label range \(quoted(spec)): start \(quoted(start)) is not a number from 1 to \(LabelSpec.maximumFirstNumber)"
        }
    }
}

/// One page's label under a document's ranges: its range's style and
/// prefix and the page's number in that range.
package struct PageLabelValue: Codable, Equatable, Sendable {
    package var style: LabelStyle
    package var number: Int
    package var prefix: String

    package init(style: LabelStyle, number: Int, prefix: String) {
        self.style = style
        self.number = number
        self.prefix = prefix
    }

    /// The label as a reader shows it: `App-A`, `iv`, `12`.
    package var text: String { prefix + style.format(number) }
}

extension Document {
    /// The label each item shows under the document's own ranges, in order:
    /// nil for items before the first range. Only meaningful when
    /// `labelRanges` is not nil (nil: the sources' labels are kept).
    package func rangeLabels() -> [String?] {
        rangeLabelValues().map { $0?.text }
    }

    /// As `rangeLabels`, each label in its parts.
    package func rangeLabelValues() -> [PageLabelValue?] {
        guard let ranges = labelRanges, !ranges.isEmpty else { return Array(repeating: nil, count: items.count) }
        var byStart: [ItemID: LabelRange] = [:]
        for range in ranges { byStart[range.start] = range }
        var labels: [PageLabelValue?] = []
        labels.reserveCapacity(items.count)
        var currentRange: LabelRange?
        var offset = 0
        for item in items {
            if let range = byStart[item.id] {
                currentRange = range
                offset = 0
            }
            if let range = currentRange {
                let (number, overflow) = range.firstNumber.addingReportingOverflow(offset)
                labels.append(PageLabelValue(style: range.style, number: overflow ? Int.max : number, prefix: range.prefix))
                offset += 1
            } else {
                labels.append(nil)
            }
        }
        return labels
    }
    /// The ranges in document order, each with the 0-based index of its start.
    package func orderedLabelRanges() -> [(index: Int, range: LabelRange)] {
        guard let ranges = labelRanges else { return [] }
        var indexByID: [ItemID: Int] = [:]
        for (index, item) in items.enumerated() { indexByID[item.id] = index }
        return ranges.compactMap { range in indexByID[range.start].map { ($0, range) } }.sorted { $0.index < $1.index }
    }
}

/// One entry of a source's /PageLabels number tree, as the file has it
/// (`pe_label_range`): the 1-based page where it starts and the label of that
/// page (style, number, prefix); nil when the entry is not a dictionary, whose
/// pages are then labelled as if the tree had nothing for them.
package struct SourceLabelRange: Codable, Equatable, Sendable {
    package var firstPage: Int
    package var label: PageLabelValue?

    package init(firstPage: Int, label: PageLabelValue?) {
        self.firstPage = firstPage
        self.label = label
    }
}

/// The page labels of a source file with /PageLabels.
package struct SourcePageLabels: Codable, Equatable, Sendable {
    /// Ordered by first page.
    package private(set) var ranges: [SourceLabelRange]

    package init(ranges: [SourceLabelRange]) {
        self.ranges = ranges.sorted { $0.firstPage < $1.firstPage }
    }

    /// The label of 1-based `page` (PDF 32000-1 §12.4.2): the range that starts
    /// at or before it, numbered on from its start; a page no usable range
    /// covers shows its page number, as a viewer numbers it.
    package func value(ofPage page: Int) -> PageLabelValue {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].firstPage <= page { low = middle + 1 } else { high = middle }
        }
        guard low > 0, let label = ranges[low - 1].label else {
            return PageLabelValue(style: .decimal, number: page, prefix: "")
        }
        let (number, overflow) = label.number.addingReportingOverflow(page - ranges[low - 1].firstPage)
        return PageLabelValue(style: label.style, number: overflow ? Int.max : number, prefix: label.prefix)
    }
}

extension Document {
    /// THE label each of the document's items has in an export with `--labels
    /// keep` — what `list`, `show`, `find`, a stamp's `{label}` and the export
    /// itself use (the kit's `OutputLabels` asks here), by item id:
    /// - the document's own ranges when it has them (`labels`): items before
    ///   the first range have none;
    /// - else, when a page of the document comes from a source with /PageLabels:
    ///   a page keeps its label in its source (`sourceLabels`), a page of a source
    ///   without them (an image is the one page of its own) its page number
    ///   there, and a blank page, placeholder or sheet continues the label
    ///   before it (same style and prefix, the next number; 1 at the start);
    /// - else none: the output has no /PageLabels.
    package func outputLabelValues(sourceLabels: (SourceID) -> SourcePageLabels?) -> [ItemID: PageLabelValue] {
        if labelRanges != nil {
            var own: [ItemID: PageLabelValue] = [:]
            for (item, value) in zip(items, rangeLabelValues()) {
                if let value { own[item.id] = value }
            }
            return own
        }
        var known: [SourceID: SourcePageLabels?] = [:]
        func labels(of source: SourceID) -> SourcePageLabels? {
            if let found = known[source] { return found }
            let found = sourceLabels(source)
            known[source] = found
            return found
        }
        let labelled = items.contains { item in
            if case .page(let source, _) = item.content { return labels(of: source) != nil }
            return false
        }
        guard labelled else { return [:] }
        var values: [ItemID: PageLabelValue] = [:]
        var previous: PageLabelValue?
        for item in items {
            let value: PageLabelValue
            switch item.content {
            case .page(let source, let page):
                value = labels(of: source)?.value(ofPage: page) ?? PageLabelValue(style: .decimal, number: page, prefix: "")
            case .image:
                value = PageLabelValue(style: .decimal, number: 1, prefix: "")
            case .blank, .placeholder, .sheet:
                if var next = previous {
                    next.number = next.number == Int.max ? Int.max : next.number + 1
                    value = next
                } else {
                    value = PageLabelValue(style: .decimal, number: 1, prefix: "")
                }
            }
            values[item.id] = value
            previous = value
        }
        return values
    }
}
