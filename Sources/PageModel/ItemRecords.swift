/// How page items are written in the session file. Consecutive items that
/// are consecutive pages of one source (ascending or descending) with ids
/// stepping the same way and one rotation are written as one run record:
///
///     {"source": "s1", "pages": [1, 20000], "firstId": 1, "rotation": 0}
///
/// so a 20,000-page document that was imported and lightly edited takes a
/// few lines. Pages and ids that advance together by more than one (what
/// `remove odd` leaves) make a run of three or more, with a `"step"`
/// (omitted when 1).
/// Unstamped pages whose rotations repeat with a period of 2 to 4 (what
/// `rotate even` or `rotate odd` leaves) are one run with `"rotations"`, the
/// pattern from its first item on, instead of `"rotation"`:
///
///     {"source": "s1", "pages": [1, 20000], "firstId": 1, "rotations": [0, 1]}
///
/// Every other item is written alone, e.g.
/// `{"id": "p7", "source": "s1", "page": 5, "rotation": 1}`,
/// `{"id": "p8", "blank": {"width": 595, "height": 842}, "rotation": 0}`,
/// `{"id": "p9", "image": "s2", "rotation": 0}` (with `"fit": {"width": …, "height": …}`
/// when the image is placed on a page of a given size),
/// `{"id": "p10", "placeholder": {"width": 595, "height": 842}, "label": "cover", "rotation": 0}`.
/// An item with stamps is always written alone, with a `"stamps"` array (see
/// `Stamp`); runs are only made of unstamped items.
enum ItemRecord: Codable, Equatable {
    /// Pages `firstPage`, `firstPage ± step`, … `lastPage`; ids from `firstID` the same way.
    case run(source: SourceID, firstPage: Int, lastPage: Int, step: Int, firstID: Int, rotation: Int)
    /// A run whose item k has rotation `rotations[k % rotations.count]` (2 to 4 of them).
    case patternRun(source: SourceID, firstPage: Int, lastPage: Int, step: Int, firstID: Int, rotations: [Int])
    case single(PageItem)

    private enum Keys: String, CodingKey {
        case source, pages, step, firstId, rotation, rotations, id, page, blank, image, fit, placeholder, label, stamps, boxes, resize
        case finish
        case sheet
    }

    /// Longest periods of a rotation pattern.
    static let maximumPeriod = 4

    /// A run of unstamped items from `start` whose rotations repeat with a period
    /// of 2 to 4 and that is longer than the run of one rotation from there (and
    /// at least two whole periods long); nil when there is none.
    static func patternRun(in items: [PageItem], from start: Int) -> (record: ItemRecord, end: Int)? {
        guard start + 3 < items.count, case .page(let source, let firstPage) = items[start].content,
            case .page(source, let secondPage) = items[start + 1].content, secondPage != firstPage,
            items[start].isRunnable, items[start + 1].isRunnable,
            items[start + 1].id.number - items[start].id.number == secondPage - firstPage
        else { return nil }
        let delta = secondPage - firstPage
        var end = start + 1
        while end < items.count, case .page(source, let page) = items[end].content,
            page == firstPage + delta * (end - start),
            items[end].id.number == items[start].id.number + delta * (end - start), items[end].isRunnable
        {
            end += 1
        }
        func periodicLength(_ period: Int) -> Int {
            var length = 0
            while start + length < end, items[start + length].rotation == items[start + length % period].rotation {
                length += 1
            }
            return length
        }
        let constant = periodicLength(1)
        var best: (period: Int, length: Int)? = nil
        for period in 2...maximumPeriod {
            let length = periodicLength(period)
            let pattern = (0..<period).map { items[start + $0].rotation }
            guard length >= 2 * period, length > constant, Set(pattern).count > 1,
                length > (best?.length ?? 0)
            else { continue }
            best = (period, length)
        }
        guard let best else { return nil }
        let rotations = (0..<best.period).map { items[start + $0].rotation }
        return (
            .patternRun(
                source: source, firstPage: firstPage, lastPage: firstPage + delta * (best.length - 1),
                step: abs(delta), firstID: items[start].id.number, rotations: rotations),
            start + best.length
        )
    }

    /// The fewest records for `items`.
    static func records(for items: [PageItem]) -> [ItemRecord] {
        var records: [ItemRecord] = []
        var start = 0
        while start < items.count {
            if let pattern = patternRun(in: items, from: start) {
                records.append(pattern.record)
                start = pattern.end
                continue
            }
            var end = start + 1
            if case .page(let source, let firstPage) = items[start].content, end < items.count,
                case .page(source, let secondPage) = items[end].content,
                secondPage != firstPage, items[start].isRunnable, items[end].isRunnable,
                items[end].id.number - items[start].id.number == secondPage - firstPage,
                items[end].rotation == items[start].rotation
            {
                let delta = secondPage - firstPage
                while end < items.count, case .page(source, let page) = items[end].content,
                    page == firstPage + delta * (end - start),
                    items[end].id.number == items[start].id.number + delta * (end - start),
                    items[end].rotation == items[start].rotation, items[end].isRunnable
                {
                    end += 1
                }
                // Two pages far apart are clearer written alone than as a stepped run.
                if abs(delta) > 1 && end - start < 3 {
                    records.append(.single(items[start]))
                    start += 1
                    continue
                }
                records.append(
                    .run(
                        source: source, firstPage: firstPage, lastPage: firstPage + delta * (end - start - 1),
                        step: abs(delta), firstID: items[start].id.number, rotation: items[start].rotation))
            } else {
                records.append(.single(items[start]))
            }
            start = end
        }
        return records
    }

    /// The items of a record, checked so that no stored number can overflow,
    /// make an id or a page below 1, or expand past `budget` items.
    func expanded(budget: inout Int) throws(SessionFormatError) -> [PageItem] {
        switch self {
        case .single(let item):
            guard budget >= 1 else { throw .invalidField("more than \(ItemBudget.maximumItems) page items") }
            budget -= 1
            return [item]
        case .run(let source, let firstPage, let lastPage, let stride, let firstID, let rotation):
            return try Self.expandRun(
                source: source, firstPage: firstPage, lastPage: lastPage, stride: stride, firstID: firstID,
                rotations: [rotation], budget: &budget)
        case .patternRun(let source, let firstPage, let lastPage, let stride, let firstID, let rotations):
            guard (2...Self.maximumPeriod).contains(rotations.count) else {
                throw .invalidField(
                    "a run of \(source) has \(rotations.count) rotations (2 to \(Self.maximumPeriod) make a pattern)")
            }
            return try Self.expandRun(
                source: source, firstPage: firstPage, lastPage: lastPage, stride: stride, firstID: firstID,
                rotations: rotations, budget: &budget)
        }
    }

    private static func expandRun(
        source: SourceID, firstPage: Int, lastPage: Int, stride: Int, firstID: Int, rotations: [Int],
        budget: inout Int
    ) throws(SessionFormatError) -> [PageItem] {
        guard firstPage >= 1, lastPage >= 1, firstID >= 1 else {
            throw .invalidField("a run of \(source) has a page or an id below 1")
        }
        guard stride >= 1, abs(lastPage - firstPage) % stride == 0 else {
            throw .invalidField("a run of \(source) has a step that does not lead from its first to its last page")
        }
        let step = lastPage >= firstPage ? stride : -stride
        let count = abs(lastPage - firstPage) / stride + 1
        guard count <= budget else { throw .invalidField("more than \(ItemBudget.maximumItems) page items") }
        budget -= count
        let (lastID, overflow) = firstID.addingReportingOverflow(step * (count - 1))
        guard !overflow, lastID >= 1 else { throw .invalidField("a run of \(source) has ids below 1 or too large") }
        return (0..<count).map { offset in
            PageItem(
                id: ItemID(number: firstID + step * offset),
                content: .page(source: source, page: firstPage + step * offset),
                rotation: rotations[offset % rotations.count])
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if container.contains(.pages) {
            let pages = try container.decode([Int].self, forKey: .pages)
            guard pages.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .pages, in: container, debugDescription: "\"pages\" must be [first, last]")
            }
            guard !container.contains(.stamps), !container.contains(.boxes), !container.contains(.resize),
                !container.contains(.finish)
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .stamps, in: container, debugDescription: "a run cannot have stamps or boxes; write the items alone")
            }
            let source = try container.decode(SourceID.self, forKey: .source)
            let step = try container.decodeIfPresent(Int.self, forKey: .step) ?? 1
            let firstID = try container.decode(Int.self, forKey: .firstId)
            // A rotation pattern (format version 2) when there is no single rotation.
            if container.contains(.rotations) && !container.contains(.rotation) {
                self = .patternRun(
                    source: source, firstPage: pages[0], lastPage: pages[1], step: step, firstID: firstID,
                    rotations: try container.decode([Int].self, forKey: .rotations))
            } else {
                self = .run(
                    source: source, firstPage: pages[0], lastPage: pages[1], step: step, firstID: firstID,
                    rotation: try container.decode(Int.self, forKey: .rotation))
            }
            return
        }
        let rotation = try container.decode(Int.self, forKey: .rotation)
        let id = try container.decode(ItemID.self, forKey: .id)
        let content: ItemContent
        if container.contains(.page) {
            content = .page(
                source: try container.decode(SourceID.self, forKey: .source),
                page: try container.decode(Int.self, forKey: .page))
        } else if container.contains(.blank) {
            content = .blank(try container.decode(PageSize.self, forKey: .blank))
        } else if container.contains(.image) {
            content = .image(
                source: try container.decode(SourceID.self, forKey: .image),
                fit: try container.decodeIfPresent(PageSize.self, forKey: .fit))
        } else if container.contains(.placeholder) {
            content = .placeholder(
                size: try container.decode(PageSize.self, forKey: .placeholder),
                label: try container.decodeIfPresent(String.self, forKey: .label))
        } else if container.contains(.sheet) {
            content = .sheet(try container.decode(Sheet.self, forKey: .sheet))
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container,
                debugDescription: "item \(id) has none of \"page\", \"blank\", \"image\", \"placeholder\", \"sheet\"")
        }
        let stamps = try container.decodeIfPresent([Stamp].self, forKey: .stamps) ?? []
        let boxes = try container.decodeIfPresent(PageBoxes.self, forKey: .boxes) ?? PageBoxes()
        let resize = try container.decodeIfPresent(PageResize.self, forKey: .resize)
        let finish = try container.decodeIfPresent([PageFinish].self, forKey: .finish) ?? []
        self = .single(
            PageItem(
                id: id, content: content, rotation: rotation, stamps: stamps, boxes: boxes, resize: resize,
                finish: finish))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .run(let source, let firstPage, let lastPage, let step, let firstID, let rotation):
            try container.encode(source, forKey: .source)
            try container.encode([firstPage, lastPage], forKey: .pages)
            if step != 1 { try container.encode(step, forKey: .step) }
            try container.encode(firstID, forKey: .firstId)
            try container.encode(rotation, forKey: .rotation)
        case .patternRun(let source, let firstPage, let lastPage, let step, let firstID, let rotations):
            try container.encode(source, forKey: .source)
            try container.encode([firstPage, lastPage], forKey: .pages)
            if step != 1 { try container.encode(step, forKey: .step) }
            try container.encode(firstID, forKey: .firstId)
            try container.encode(rotations, forKey: .rotations)
        case .single(let item):
            try container.encode(item.id, forKey: .id)
            try container.encode(item.rotation, forKey: .rotation)
            switch item.content {
            case .page(let source, let page):
                try container.encode(source, forKey: .source)
                try container.encode(page, forKey: .page)
            case .blank(let size):
                try container.encode(size, forKey: .blank)
            case .image(let source, let fit):
                try container.encode(source, forKey: .image)
                try container.encodeIfPresent(fit, forKey: .fit)
            case .placeholder(let size, let label):
                try container.encode(size, forKey: .placeholder)
                try container.encodeIfPresent(label, forKey: .label)
            case .sheet(let sheet):
                try container.encode(sheet, forKey: .sheet)
            }
            if !item.stamps.isEmpty { try container.encode(item.stamps, forKey: .stamps) }
            if !item.boxes.isEmpty { try container.encode(item.boxes, forKey: .boxes) }
            try container.encodeIfPresent(item.resize, forKey: .resize)
            if !item.finish.isEmpty { try container.encode(item.finish, forKey: .finish) }
        }
    }
}

/// Expands item records with a budget, so a damaged file claiming a run of
/// a billion pages is refused instead of exhausting memory.
struct ItemBudget {
    /// More items than any real session holds, few enough to fit in memory.
    static let maximumItems = 5_000_000

    var remaining = maximumItems

    mutating func items(from records: [ItemRecord]) throws(SessionFormatError) -> [PageItem] {
        var items: [PageItem] = []
        for record in records {
            items += try record.expanded(budget: &remaining)
        }
        return items
    }
}

extension PageItem {
    /// Whether the item may be written as part of a run: no stamps, no boxes, not resized, nothing to flatten or strip.
    var isRunnable: Bool { stamps.isEmpty && boxes.isEmpty && resize == nil && finish.isEmpty }
}
