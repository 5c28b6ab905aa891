/// What the operations share: resolving selections and destinations,
/// handing out ids, sizing pages.
extension Session {
    func resolve(
        _ selection: PageSelection, in document: Document, context: EditContext
    ) throws(EditError) -> [Int] {
        do {
            return try selection.resolve(in: document, context: context)
        } catch {
            throw .selection(error.inDocument(pageCount: document.pageCount))
        }
    }

    /// The 0-based index, in `target` once the items at `takenOut` (ascending)
    /// are gone, where a block starts. nil destination = the end.
    func insertionIndex(_ destination: Destination?, in target: Document, takenOut: [Int]) throws(EditError) -> Int {
        let remaining = target.pageCount - takenOut.count
        guard let destination else { return remaining }
        switch destination {
        case .position(let position):
            return try inDocument(target) { () throws(SelectionError) in
                try position.resolve(maxPosition: remaining + 1)
            } - 1
        case .before(let anchor), .after(let anchor):
            let index = try inDocument(target) { () throws(SelectionError) in try anchor.index(in: target) }
            let removedBefore = countBelow(index, in: takenOut)
            if removedBefore < takenOut.count, takenOut[removedBefore] == index {
                throw .anchorInSelection(anchor: anchor.description, position: index + 1)
            }
            if case .before = destination { return index - removedBefore }
            return index - removedBefore + 1
        }
    }

    /// Runs a position lookup, naming the document's page count in its error.
    func inDocument<T>(_ document: Document, _ body: () throws(SelectionError) -> T) throws(EditError) -> T {
        do {
            return try body()
        } catch {
            throw .selection(error.inDocument(pageCount: document.pageCount))
        }
    }

    /// New items for `contents`, with the next ids, and the counter change that
    /// hands them out. A sheet's cells are copies too (`freshCells`, the default:
    /// copy, duplicate, split-page): their items get the ids after the new items',
    /// so no id is used twice; `nup`/`booklet` keep the cells' own (`false`).
    func makeItems(
        _ contents: [ItemContent], rotations: [Int]? = nil, stamps: [[Stamp]]? = nil, boxes: [PageBoxes]? = nil,
        resizes: [PageResize?]? = nil, finishes: [[PageFinish]]? = nil, freshCells: Bool = true
    ) throws(EditError) -> (items: [PageItem], counter: CounterChange) {
        let cellCount = freshCells ? contents.reduce(0) { $0 + ($1.sheet?.items.count ?? 0) } : 0
        let counter = try Self.advancing(nextItemNumber, by: contents.count + cellCount, kind: "item")
        var nextCell = counter.before + contents.count
        let items = contents.enumerated().map { offset, content in
            var content = content
            if freshCells, var sheet = content.sheet {
                for index in sheet.cells.indices where sheet.cells[index].item != nil {
                    sheet.cells[index].item?.id = ItemID(number: nextCell)
                    nextCell += 1
                }
                content = .sheet(sheet)
            }
            return PageItem(
                id: ItemID(number: counter.before + offset), content: content, rotation: rotations?[offset] ?? 0,
                stamps: stamps?[offset] ?? [], boxes: boxes?[offset] ?? PageBoxes(), resize: resizes?[offset] ?? nil,
                finish: finishes?[offset] ?? [])
        }
        return (items, counter)
    }

    /// The change of an id counter that hands out `count` new ids, refused when
    /// it would pass `Session.maximumCounter` (never an arithmetic overflow).
    static func advancing(_ counter: Int, by count: Int, kind: String) throws(EditError) -> CounterChange {
        let (after, overflow) = counter.addingReportingOverflow(count)
        guard !overflow, after <= Session.maximumCounter else {
            throw .idsExhausted(kind: kind, next: counter, needed: count)
        }
        return CounterChange(before: counter, after: after)
    }

    var unchangedSourceCounter: CounterChange {
        CounterChange(before: nextSourceNumber, after: nextSourceNumber)
    }

    /// The size of the item as the reader sees it, its rotation included.
    /// `size` when a page can have it (`PageSize.isValidPageSize`, the one rule),
    /// else the size error every command that makes a page gives.
    func checkedPageSize(_ size: PageSize) throws(EditError) -> PageSize {
        guard size.isValidPageSize else {
            throw .size(.outOfBounds(text: "\(formatPoints(size.width))x\(formatPoints(size.height))", size: size))
        }
        return size
    }

    func displayedSize(of index: Int, in document: Document, context: EditContext) throws(EditError) -> PageSize {
        guard let size = context.displayedSize(of: document.items[index]) else {
            throw .pageSizeUnknown(position: index + 1, document: document.name)
        }
        return size
    }
}

extension EditContext {
    /// The size of the item as the reader sees it, its rotation included; nil when not known.
    package func displayedSize(of item: PageItem) -> PageSize? {
        let base: PageSize?
        switch item.content {
        case _ where item.resize != nil: base = pageSize?(item) ?? item.resize?.size
        case .blank(let size), .placeholder(let size, _): base = size
        case .sheet(let sheet): base = sheet.size
        case .page, .image: base = pageSize?(item)
        }
        guard let base else { return nil }
        return item.rotation % 2 == 1 ? base.swapped : base
    }
}

/// How many of the ascending `values` are below `value`.
func countBelow(_ value: Int, in values: [Int]) -> Int {
    var low = 0
    var high = values.count
    while low < high {
        let middle = (low + high) / 2
        if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
}

/// "1 page", "3 placeholders".
func countPhrase(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
}
