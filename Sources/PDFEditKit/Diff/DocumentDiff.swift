#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// `diff`: what changed between two documents, page by page, in the user's
/// words — pages moved, inserted, removed, rotated, and changed in place
/// with the regions that changed. The pages are paired by content
/// (`PageMatching`), so a renumbering is a move, not a change of every page.
///
/// This is also the `--json` schema (`schema` 1; keys sorted, optional keys
/// left out when they do not apply), documented in the manual.
public struct DocumentDiff: Codable, Sendable, Equatable {
    /// The schema's version: a change to the keys below changes it.
    public var schema = 1
    public var left: Side
    public var right: Side
    /// Whether the two show the same pages in the same order.
    public var same: Bool
    public var counts: Counts
    /// Every page of both: pairs in the right document's order, a removed page
    /// after the pair of the left page before it.
    public var pages: [Entry]

    public struct Side: Codable, Sendable, Equatable {
        /// The file, `step N`, or `sources`.
        public var name: String
        public var pages: Int
    }

    public struct Counts: Codable, Sendable, Equatable {
        public var same = 0
        public var moved = 0
        public var removed = 0
        public var inserted = 0
        public var rotated = 0
        public var changed = 0
    }

    public struct Entry: Codable, Sendable, Equatable {
        /// 1-based positions; nil on the side the page is missing from.
        public var left: Int?
        public var right: Int?
        /// What a position is called when the side is several files (`--sources`: `report.pdf:3`).
        public var leftLabel: String?
        /// `same`, or any of `moved`, `rotated`, `changed`; or `removed`, `inserted`.
        public var status: [String]
        /// `rotated`: degrees clockwise the page turned (90, 180, 270).
        public var rotation: Int?
        /// `changed`: where, in points from the top-left corner of the right page as displayed.
        public var regions: [Region]?
        /// `changed`: whether its text differs (also when no region shows it).
        public var textChanged: Bool?
    }

    public struct Region: Codable, Sendable, Equatable {
        public var x0: Double
        public var y0: Double
        public var x1: Double
        public var y1: Double
    }
}

/// One document of a comparison: its pages and how to reach what they show.
package struct DiffSide {
    package var name: String
    var items: [PageItem]
    /// Position names when the side is several files; nil: positions.
    var labels: [String]?
    let access: SourceAccess
    let imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String
    let stampTexts: [ItemID: [String]]
}

/// A rendering of a page at `DocumentDiff.resolution`, as grey pixels.
private struct GrayPage {
    var pixels: [UInt8]
    var width: Int
    var height: Int
}

extension DocumentDiff {
    /// Pages are compared at this resolution: enough to place a change within
    /// `cell` pixels (16 points) and cheap enough for hundreds of pages.
    static let resolution = 36.0
    static let cell = 8

    /// Compares `left` with `right`: the report, and the pairing it was made of.
    static func compare(_ left: DiffSide, _ right: DiffSide) throws(PDFEditError) -> (DocumentDiff, PageMatching) {
        let leftSignatures = try signatures(of: left)
        let rightSignatures = try signatures(of: right)
        var leftRendered: [Int: GrayPage] = [:]
        var rightRendered: [Int: GrayPage] = [:]
        var leftTexts: [Int: String] = [:]
        var rightTexts: [Int: String] = [:]
        let matching = try PageMatching.match(left: leftSignatures, right: rightSignatures) {
            (leftIndices, rightIndices) throws(PDFEditError) in
            leftRendered = try render(left, indices: leftIndices)
            rightRendered = try render(right, indices: rightIndices)
            leftTexts = try texts(of: left, indices: leftIndices)
            rightTexts = try texts(of: right, indices: rightIndices)
            func completed(_ side: [PageSignature], _ indices: [Int], _ rendered: [Int: GrayPage], _ texts: [Int: String])
                -> [Int: PageSignature]
            {
                var result: [Int: PageSignature] = [:]
                for index in indices {
                    var signature = side[index]
                    signature.words = PageSignature.words(of: texts[index] ?? "")
                    if let page = rendered[index] {
                        signature.thumbnail = ChangedRegions.thumbnail(
                            page.pixels, width: page.width, height: page.height, side: PageSignature.side,
                            quarterTurns: signature.quarterTurns)
                    }
                    result[index] = signature
                }
                return result
            }
            return (
                completed(leftSignatures, leftIndices, leftRendered, leftTexts),
                completed(rightSignatures, rightIndices, rightRendered, rightTexts)
            )
        }

        // Pairs found by likeness may have changed: turn the left page as the
        // right one is turned, draw it again, and compare the pictures.
        var turnedItems: [Int: PageItem] = [:]
        for pair in matching.pairs where !pair.exact {
            let turns = (rightSignatures[pair.right].quarterTurns - leftSignatures[pair.left].quarterTurns + 4) % 4
            if turns != 0 {
                var turned = left.items[pair.left]
                turned.rotation = (turned.rotation + turns) % 4
                turnedItems[pair.left] = turned
            }
        }
        let turnedRendered = try render(
            DiffSide(
                name: left.name, items: left.items.indices.map { turnedItems[$0] ?? left.items[$0] },
                labels: left.labels, access: left.access, imagePDF: left.imagePDF, stampTexts: left.stampTexts),
            indices: turnedItems.keys.sorted())

        var entries: [(order: Double, entry: Entry)] = []
        var counts = Counts()
        for pair in matching.pairs {
            var entry = Entry(left: pair.left + 1, right: pair.right + 1, leftLabel: left.labels?[pair.left], status: [])
            if pair.moved { entry.status.append("moved") }
            let turns = (rightSignatures[pair.right].quarterTurns - leftSignatures[pair.left].quarterTurns + 4) % 4
            if turns != 0 {
                entry.status.append("rotated")
                entry.rotation = turns * 90
            }
            if !pair.exact, let after = rightRendered[pair.right],
                let before = turnedRendered[pair.left] ?? leftRendered[pair.left]
            {
                let boxes: [ChangedRegions.Box] =
                    before.width == after.width && before.height == after.height
                    ? ChangedRegions.find(before.pixels, after.pixels, width: after.width, height: after.height, cell: cell)
                    : [ChangedRegions.Box(x0: 0, y0: 0, x1: after.width, y1: after.height)]
                let textChanged = Self.wordList(leftTexts[pair.left]) != Self.wordList(rightTexts[pair.right])
                if !boxes.isEmpty || textChanged {
                    entry.status.append("changed")
                    let points = 72 / resolution
                    entry.regions = boxes.map {
                        Region(
                            x0: (Double($0.x0) * points).rounded(), y0: (Double($0.y0) * points).rounded(),
                            x1: (Double($0.x1) * points).rounded(), y1: (Double($0.y1) * points).rounded())
                    }
                    entry.textChanged = textChanged
                }
            }
            if entry.status.isEmpty { entry.status = ["same"] }
            count(entry.status, in: &counts)
            entries.append((Double(pair.right), entry))
        }
        for index in matching.inserted {
            entries.append((Double(index), Entry(left: nil, right: index + 1, status: ["inserted"])))
            counts.inserted += 1
        }
        // A removed page goes after the pair of the left page before it.
        let rightOfLeft = Dictionary(uniqueKeysWithValues: matching.pairs.map { ($0.left, $0.right) })
        for index in matching.removed {
            let before = (0..<index).reversed().first { rightOfLeft[$0] != nil }.flatMap { rightOfLeft[$0] }
            let order = Double(before ?? -1) + 0.5 + Double(index) / Double(2 * max(1, left.items.count) + 2)
            entries.append(
                (order, Entry(left: index + 1, right: nil, leftLabel: left.labels?[index], status: ["removed"])))
            counts.removed += 1
        }
        entries.sort { $0.order < $1.order }
        let diff = DocumentDiff(
            left: Side(name: left.name, pages: left.items.count), right: Side(name: right.name, pages: right.items.count),
            same: counts.same == matching.pairs.count && matching.removed.isEmpty && matching.inserted.isEmpty,
            counts: counts, pages: entries.map(\.entry))
        return (diff, matching)
    }

    /// The words of a text, sorted, for telling whether it changed: poppler
    /// reads the text of a turned page in another order.
    private static func wordList(_ text: String?) -> [Substring] {
        (text ?? "").split(whereSeparator: { $0.isWhitespace }).sorted()
    }

    private static func count(_ status: [String], in counts: inout Counts) {
        for word in status {
            switch word {
            case "same": counts.same += 1
            case "moved": counts.moved += 1
            case "rotated": counts.rotated += 1
            case "changed": counts.changed += 1
            default: break
            }
        }
    }

    /// What is known of each page without drawing it: its exact content and turns.
    static func signatures(of side: DiffSide) throws(PDFEditError) -> [PageSignature] {
        try side.access.surfacingLookupFailure { () throws(PDFEditError) -> [PageSignature] in
            side.items.map { item in
                let own = item.content.source != nil ? (side.access.frame(of: plain(item))?.quarterTurns ?? 0) : 0
                return PageSignature(exact: exactKey(of: item, access: side.access), quarterTurns: own + item.rotation)
            }
        }
    }

    /// The item without what turns it (for its own /Rotate) or reshapes its frame.
    private static func plain(_ item: PageItem) -> PageItem {
        var plain = item
        plain.boxes = PageBoxes()
        plain.rotation = 0
        return plain
    }

    /// What an item draws, its own rotation left out: the source page's content
    /// fingerprint (`pe_document_page_fingerprint`) or the image's SHA-256, and
    /// everything the item adds (boxes, stamps, resize, finishing); nil for a
    /// sheet or a page that cannot be read (those are compared by likeness).
    /// `digest`: the page's fingerprint when known already (a cached one of a file now gone).
    static func exactKey(of item: PageItem, access: SourceAccess, digest known: String? = nil) -> String? {
        let content: String
        switch item.content {
        case .page:
            guard let digest = known ?? access.pageFingerprint(of: item)?.digest else { return nil }
            content = "page \(digest)"
        case .image(let source, let fit):
            guard let sha256 = access.source(source)?.sha256 else { return nil }
            content = "image \(sha256) \(String(describing: fit))"
        case .blank(let size):
            content = "blank \(size.width) \(size.height)"
        case .placeholder(let size, let label):
            content = "placeholder \(size.width) \(size.height) \(label ?? "")"
        case .sheet:
            return nil
        }
        let stamps = item.stamps.map { stamp -> String in
            let drawn: String
            switch stamp.content {
            case .page(let source, let page): drawn = "\(access.source(source)?.sha256 ?? source.description) \(page)"
            case .text(let mark): drawn = "text \(mark)"
            }
            return "\(drawn) \(stamp.under) \(stamp.fit) \(stamp.opacity) \(stamp.placement)"
        }
        var additions = item
        additions.id = ItemID(number: 1)
        additions.content = .blank(PageSize(width: 1, height: 1))
        additions.rotation = 0
        additions.stamps = []
        return content + " " + stamps.joined(separator: ";") + " " + String(describing: additions)
    }

    /// The texts of some pages (poppler, cached per source); "" for pages without.
    static func texts(of side: DiffSide, indices: [Int]) throws(PDFEditError) -> [Int: String] {
        var texts: [Int: String] = [:]
        for index in indices {
            texts[index] = try side.access.text(of: side.items[index]) ?? ""
        }
        return texts
    }

    /// Some pages drawn at `resolution` as `render` draws them (stamps,
    /// rotation, crop), on every core, as grey pixels.
    private static func render(_ side: DiffSide, indices: [Int]) throws(PDFEditError) -> [Int: GrayPage] {
        guard !indices.isEmpty else { return [:] }
        let items = indices.map { side.items[$0] }
        let renderer = StampedRenderer(
            sizing: .dpi(resolution), texts: side.stampTexts, transparent: false, annotations: true)
        try side.access.surfacingLookupFailure { () throws(PDFEditError) in
            try renderer.prepare(items, access: side.access, imagePDF: side.imagePDF)
        }
        let drawn = Slots<GrayPage>(count: items.count)
        try renderer.forEach(items, pool: WorkerPool(), progress: nil) { (job, image) throws(PDFEditError) in
            drawn[job] = GrayPage(pixels: image.grayPixels(), width: image.width, height: image.height)
        }
        var result: [Int: GrayPage] = [:]
        for (job, page) in drawn.removeAll().enumerated() {
            if let page { result[indices[job]] = page }
        }
        return result
    }
}
