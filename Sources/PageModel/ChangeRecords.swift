/// How a history step's primitive changes are written: one flat object per
/// change, `op` naming it. Index runs are 0-based inclusive `[first, last]`
/// pairs and items use the run records of documents, so a move of 10,000
/// pages is a handful of numbers.
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
            self.index = index
        case .renameDocument(let from, let to):
            self.init(op: "renameDocument")
            self.from = from
            self.to = to
        }
    }

    private static func pairs(_ runs: IndexRuns) -> [[Int]] {
        runs.runs.map { [$0.lowerBound, $0.upperBound] }
    }

    /// The change this record stands for; every count and range is checked.
    func change(budget: inout Int) throws(SessionFormatError) -> Change {
        switch op {
        case "transfer":
            let positions = try runs(positions, "positions")
            let at = try runs(at, "at")
            guard positions.count == at.count else { throw fault("\"positions\" and \"at\" differ in size") }
            return .transfer(from: try field(from, "from"), positions: positions, to: try field(to, "to"), at: at)
        case "insert", "remove":
            let at = try runs(at, "at")
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
            return .rotate(document: try field(document, "document"), at: try runs(at, "at"), quarterTurns: turns)
        case "reverse":
            return .reverse(document: try field(document, "document"), at: try runs(at, "at"))
        case "counters":
            let items = try field(itemCounter, "itemCounter")
            let sources = try field(sourceCounter, "sourceCounter")
            guard items.count == 2, sources.count == 2 else { throw fault("counters must be [before, after]") }
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
            let document = Document(name: try field(name, "name"), items: items)
            let index = try field(index, "index")
            guard index >= 0 else { throw fault("\"index\" must be ≥ 0") }
            return op == "addDocument"
                ? .addDocument(document, index: index) : .dropDocument(document, index: index)
        case "renameDocument":
            return .renameDocument(from: try field(from, "from"), to: try field(to, "to"))
        default:
            throw .invalidField("unknown history operation \"\(op)\"")
        }
    }

    private func field<T>(_ value: T?, _ key: String) throws(SessionFormatError) -> T {
        guard let value else { throw fault("\"\(key)\" is missing") }
        return value
    }

    private func runs(_ pairs: [[Int]]?, _ key: String) throws(SessionFormatError) -> IndexRuns {
        var ranges: [ClosedRange<Int>] = []
        for pair in try field(pairs, key) {
            guard pair.count == 2, pair[0] <= pair[1] else { throw fault("\"\(key)\" must hold [first, last] pairs") }
            ranges.append(pair[0]...pair[1])
        }
        guard let runs = IndexRuns(validating: ranges, limit: ItemBudget.maximumItems) else {
            throw fault("\"\(key)\" is not an ascending list of separate ranges")
        }
        return runs
    }

    private func fault(_ detail: String) -> SessionFormatError {
        .invalidField("history operation \"\(op)\": \(detail)")
    }
}
