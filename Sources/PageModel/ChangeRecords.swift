/// How a history step's primitive changes are written: one flat object per
/// change, `op` naming it. Index sets are lists of 0-based inclusive
/// `[first, last]` ranges, and `[first, last, step]` for three or more single
/// indices evenly spaced (what `odd` or `interleave` give); items use the run
/// records of documents. So a move of 10,000 pages is a handful of numbers.
struct ChangeRecord: Codable, Equatable {
    var op: String
    var document: String?
    var from: String?
    var to: String?
    var positions: [[Int]]?
    var at: [[Int]]?
    var items: [ItemRecord]?
    var quarterTurns: Int?
    var itemCounter: [Int]?
    var sourceCounter: [Int]?
    var sources: [Source]?
    var old: Source?
    var new: Source?
    var index: Int?
    var name: String?
    var stampsBefore: [Stamp]?
    var stampsAfter: [Stamp]?
    var boxesBefore: PageBoxes?
    var boxesAfter: PageBoxes?
    var shapeBefore: ItemShape?
    var shapeAfter: ItemShape?
    /// A document's label ranges (addDocument, dropDocument) or those before a relabel.
    var labelRanges: [LabelRange]?
    var labelRangesAfter: [LabelRange]?
    /// A document's metadata (addDocument, dropDocument) or that before a setMetadata.
    var metadata: DocumentMetadata?
    var metadataAfter: DocumentMetadata?
    /// A document's outline (added or dropped document; before an outline change).
    var outline: [OutlineEntry]?
    var outlineAfter: [OutlineEntry]?
    var finishBefore: [PageFinish]?
    var finishAfter: [PageFinish]?
    /// A document's stripped parts (added or dropped document; before a restrip).
    var stripped: [DocumentPart]?
    var strippedAfter: [DocumentPart]?
    /// A document's attachments (added or dropped document; before a setAttachments).
    var attachments: DocumentAttachments?
    var attachmentsAfter: DocumentAttachments?
    /// A document's export settings (added or dropped document; before a reoptimize; format 8).
    var optimize: OptimizeSettings?
    var optimizeAfter: OptimizeSettings?

    init(op: String) {
        self.op = op
    }

    init(_ change: Change) {
        switch change {
        case .transfer(let from, let positions, let to, let at):
            self.init(op: "transfer")
            self.from = from
            self.positions = ChangeRecord.pairs(positions)
            self.to = to
            self.at = ChangeRecord.pairs(at)
        case .insert(let document, let at, let items), .remove(let document, let at, let items):
            if case .insert = change { self.init(op: "insert") } else { self.init(op: "remove") }
            self.document = document
            self.at = ChangeRecord.pairs(at)
            self.items = ItemRecord.records(for: items)
        case .rotate(let document, let at, let quarterTurns):
            self.init(op: "rotate")
            self.document = document
            self.at = ChangeRecord.pairs(at)
            self.quarterTurns = quarterTurns
        case .reverse(let document, let at):
            self.init(op: "reverse")
            self.document = document
            self.at = ChangeRecord.pairs(at)
        case .counters(let items, let sources):
            self.init(op: "counters")
            itemCounter = [items.before, items.after]
            sourceCounter = [sources.before, sources.after]
        case .addSources(let sources):
            self.init(op: "addSources")
            self.sources = sources
        case .removeSources(let sources):
            self.init(op: "removeSources")
            self.sources = sources
        case .replaceSource(let old, let new):
            self.init(op: "replaceSource")
            self.old = old
            self.new = new
        case .addDocument(let document, let index), .dropDocument(let document, let index):
            if case .addDocument = change { self.init(op: "addDocument") } else { self.init(op: "dropDocument") }
            self.name = document.name
            self.items = ItemRecord.records(for: document.items)
            self.outline = document.outline
            self.index = index
            labelRanges = document.labelRanges
            metadata = document.metadata
            stripped = document.stripped.isEmpty ? nil : document.stripped
            attachments = document.attachments
            optimize = document.optimize
        case .renameDocument(let from, let to):
            self.init(op: "renameDocument")
            self.from = from
            self.to = to
        case .restamp(let document, let at, let from, let to):
            self.init(op: "restamp")
            self.document = document
            self.at = ChangeRecord.pairs(at)
            stampsBefore = from
            stampsAfter = to
        case .rebox(let document, let at, let from, let to):
            self.init(op: "rebox")
            self.document = document
            self.at = ChangeRecord.pairs(at)
            boxesBefore = from
            boxesAfter = to
        case .reshape(let document, let at, let from, let to):
            self.init(op: "reshape")
            self.document = document
            self.at = ChangeRecord.pairs(at)
            shapeBefore = from
            shapeAfter = to
        case .relabel(let document, let from, let to):
            self.init(op: "relabel")
            self.document = document
            labelRanges = from
            labelRangesAfter = to
        case .setMetadata(let document, let from, let to):
            self.init(op: "setMetadata")
            self.document = document
            metadata = from
            metadataAfter = to
        case .outline(let document, let from, let to):
            self.init(op: "outline")
            self.document = document
            outline = from
            outlineAfter = to
        case .refinish(let document, let at, let from, let to):
            self.init(op: "refinish")
            self.document = document
            self.at = ChangeRecord.pairs(at)
            finishBefore = from
            finishAfter = to
        case .restrip(let document, let from, let to):
            self.init(op: "restrip")
            self.document = document
            stripped = from
            strippedAfter = to
        case .setAttachments(let document, let from, let to):
            self.init(op: "setAttachments")
            self.document = document
            attachments = from
            attachmentsAfter = to
        case .reoptimize(let document, let from, let to):
            self.init(op: "reoptimize")
            self.document = document
            optimize = from
            optimizeAfter = to
        }
    }

    private static func pairs(_ runs: IndexRuns) -> [[Int]] {
        var groups: [[Int]] = []
        let ranges = runs.runs
        var start = 0
        while start < ranges.count {
            let first = ranges[start]
            var end = start + 1
            if first.count == 1, end < ranges.count, ranges[end].count == 1 {
                let step = ranges[end].lowerBound - first.lowerBound
                while end < ranges.count, ranges[end].count == 1,
                    ranges[end].lowerBound - ranges[end - 1].lowerBound == step
                {
                    end += 1
                }
                if end - start >= 3 {
                    groups.append([first.lowerBound, ranges[end - 1].lowerBound, step])
                    start = end
                    continue
                }
                end = start + 1
            }
            groups.append([first.lowerBound, first.upperBound])
            start = end
        }
        return groups
    }

    /// The change this record stands for; every count and range is checked.
    func change(budget: inout Int) throws(SessionFormatError) -> Change {
        switch op {
        case "transfer":
            let positions = try runs(positions, "positions", budget: &budget)
            let at = try runs(at, "at", budget: &budget)
            guard positions.count == at.count else { throw fault("\"positions\" and \"at\" differ in size") }
            return .transfer(from: try field(from, "from"), positions: positions, to: try field(to, "to"), at: at)
        case "insert", "remove":
            let at = try runs(at, "at", budget: &budget)
            var items: [PageItem] = []
            for record in try field(self.items, "items") {
                items += try record.expanded(budget: &budget)
            }
            guard items.count == at.count else { throw fault("\"at\" and \"items\" differ in size") }
            let document = try field(document, "document")
            return op == "insert"
                ? .insert(document: document, at: at, items: items)
                : .remove(document: document, at: at, items: items)
        case "rotate":
            let turns = try field(quarterTurns, "quarterTurns")
            guard (1...3).contains(turns) else { throw fault("\"quarterTurns\" must be 1, 2 or 3") }
            return .rotate(
                document: try field(document, "document"), at: try runs(at, "at", budget: &budget), quarterTurns: turns)
        case "reverse":
            return .reverse(document: try field(document, "document"), at: try runs(at, "at", budget: &budget))
        case "counters":
            let items = try field(itemCounter, "itemCounter")
            let sources = try field(sourceCounter, "sourceCounter")
            guard items.count == 2, sources.count == 2 else { throw fault("counters must be [before, after]") }
            guard (items + sources).allSatisfy({ (1...Session.maximumCounter).contains($0) }) else {
                throw fault("counters must be 1 to \(Session.maximumCounter)")
            }
            return .counters(
                items: CounterChange(before: items[0], after: items[1]),
                sources: CounterChange(before: sources[0], after: sources[1]))
        case "addSources":
            return .addSources(try field(sources, "sources"))
        case "removeSources":
            return .removeSources(try field(sources, "sources"))
        case "replaceSource":
            return .replaceSource(old: try field(old, "old"), new: try field(new, "new"))
        case "addDocument", "dropDocument":
            var items: [PageItem] = []
            for record in try field(self.items, "items") {
                items += try record.expanded(budget: &budget)
            }
            let document = Document(
                name: try field(name, "name"), items: items, labelRanges: labelRanges, metadata: metadata,
                outline: outline, stripped: stripped ?? [], attachments: attachments, optimize: optimize)
            let index = try field(index, "index")
            guard index >= 0 else { throw fault("\"index\" must be ≥ 0") }
            return op == "addDocument"
                ? .addDocument(document, index: index) : .dropDocument(document, index: index)
        case "renameDocument":
            return .renameDocument(from: try field(from, "from"), to: try field(to, "to"))
        case "restamp":
            return .restamp(
                document: try field(document, "document"), at: try runs(at, "at", budget: &budget),
                from: try field(stampsBefore, "stampsBefore"), to: try field(stampsAfter, "stampsAfter"))
        case "rebox":
            return .rebox(
                document: try field(document, "document"), at: try runs(at, "at", budget: &budget),
                from: try field(boxesBefore, "boxesBefore"), to: try field(boxesAfter, "boxesAfter"))
        case "reshape":
            return .reshape(
                document: try field(document, "document"), at: try runs(at, "at", budget: &budget),
                from: try field(shapeBefore, "shapeBefore"), to: try field(shapeAfter, "shapeAfter"))
        case "relabel":
            return .relabel(document: try field(document, "document"), from: labelRanges, to: labelRangesAfter)
        case "setMetadata":
            return .setMetadata(document: try field(document, "document"), from: metadata, to: metadataAfter)
        case "outline":
            return .outline(document: try field(document, "document"), from: outline, to: outlineAfter)
        case "refinish":
            return .refinish(
                document: try field(document, "document"), at: try runs(at, "at", budget: &budget),
                from: try field(finishBefore, "finishBefore"), to: try field(finishAfter, "finishAfter"))
        case "restrip":
            return .restrip(
                document: try field(document, "document"), from: stripped ?? [], to: strippedAfter ?? [])
        case "setAttachments":
            return .setAttachments(document: try field(document, "document"), from: attachments, to: attachmentsAfter)
        case "reoptimize":
            return .reoptimize(document: try field(document, "document"), from: optimize, to: optimizeAfter)
        default:
            throw .invalidField("unknown history operation \(quoted(op))")
        }
    }

    private func field<T>(_ value: T?, _ key: String) throws(SessionFormatError) -> T {
        guard let value else { throw fault("\(quoted(key)) is missing") }
        return value
    }

    /// Stepped groups expand to one range per index, so they draw on the
    /// same budget as items: a damaged file cannot make us allocate without bound.
    private func runs(_ pairs: [[Int]]?, _ key: String, budget: inout Int) throws(SessionFormatError) -> IndexRuns {
        var ranges: [ClosedRange<Int>] = []
        for group in try field(pairs, key) {
            guard group.count == 2 || group.count == 3, group[0] >= 0, group[0] <= group[1],
                group[1] < ItemBudget.maximumItems
            else { throw fault("\(quoted(key)) must hold [first, last] or [first, last, step] groups") }
            if group.count == 2 {
                ranges.append(group[0]...group[1])
                continue
            }
            let step = group[2]
            guard step >= 2, (group[1] - group[0]) % step == 0 else {
                throw fault("\(quoted(key)) has a step that does not lead from first to last")
            }
            let count = (group[1] - group[0]) / step + 1
            guard count <= budget else { throw .invalidField("more than \(ItemBudget.maximumItems) page items") }
            budget -= count
            for index in stride(from: group[0], through: group[1], by: step) {
                ranges.append(index...index)
            }
        }
        guard let runs = IndexRuns(validating: ranges, limit: ItemBudget.maximumItems) else {
            throw fault("\(quoted(key)) is not an ascending list of separate ranges")
        }
        return runs
    }

    private func fault(_ detail: String) -> SessionFormatError {
        .invalidField("history operation \(quoted(op)): \(detail)")
    }
}
