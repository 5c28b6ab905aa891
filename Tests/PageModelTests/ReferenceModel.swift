import PageModel

/// A deliberately naive model of the editing semantics of DESIGN.md: plain
/// arrays, obvious loops, whole-state snapshots for undo. The property tests
/// check the real model against it.
struct Reference: Equatable {
    struct Item: Equatable, CustomStringConvertible {
        var id: Int
        /// "1:3" for page 3 of s1, "blank" for a blank page.
        var what: String
        var rotation: Int
        /// "stamp.pdf:1 under fit 50%" per stamp, in drawing order.
        var stamps: [String] = []
        var description: String { "p\(id)[\(what)]r\(rotation)" + (stamps.isEmpty ? "" : "\(stamps)") }
    }

    enum Place: Equatable {
        case to(Int)
        case before(Int)
        case after(Int)
    }

    var documents: [String: [Item]]
    var nextID: Int

    init(_ session: Session) {
        documents = [:]
        let paths = Dictionary(uniqueKeysWithValues: session.sources.map { ($0.id, $0.path) })
        for document in session.documents {
            documents[document.name] = Reference.items(of: document, paths: paths)
        }
        nextID = session.nextItemNumber
    }

    /// `paths` names stamp sources by file, so that the reference need not know ids.
    static func items(of document: Document, paths: [SourceID: String] = [:]) -> [Item] {
        document.items.map { item in
            let what: String
            switch item.content {
            case .page(let source, let page): what = "\(source.number):\(page)"
            case .blank: what = "blank"
            case .image(let source, _): what = "image \(source.number)"
            case .placeholder: what = "placeholder"
            case .sheet(let sheet): what = "sheet \(sheet.items.map(\.id.number))"
            }
            let stamps = item.stamps.map { stamp in
                guard case .page(let source, let page) = stamp.content else { return "text \(stamp)" }
                return stampText(file: paths[source] ?? source.description, page: page,
                    under: stamp.under, fit: stamp.fit, opacity: stamp.opacity)
            }
            return Item(id: item.id.number, what: what, rotation: item.rotation, stamps: stamps)
        }
    }

    static func stampText(file: String, page: Int, under: Bool, fit: Bool, opacity: Double) -> String {
        "\(file):\(page)\(under ? " under" : "")\(fit ? " fit" : "") \(opacity)"
    }

    mutating func newCopy(of item: Item) -> Item {
        defer { nextID += 1 }
        return Item(id: nextID, what: item.what, rotation: item.rotation, stamps: item.stamps)
    }

    /// nil when the command is invalid.
    func move(_ selected: [Int], in name: String, to place: Place, into: String?) -> Reference? {
        var result = self
        guard let source = documents[name], let targetName = Optional(into ?? name),
            let originalTarget = documents[targetName]
        else { return nil }
        var block: [Item] = []
        var rest: [Item] = []
        for (index, item) in source.enumerated() {
            if selected.contains(index) { block.append(item) } else { rest.append(item) }
        }
        var target = targetName == name ? rest : originalTarget
        var insertAt = 0
        switch place {
        case .to(let n):
            guard n >= 1, n <= target.count + 1 else { return nil }
            insertAt = n - 1
        case .before(let p), .after(let p):
            guard p >= 1, p <= originalTarget.count else { return nil }
            if targetName == name && selected.contains(p - 1) { return nil }
            let anchor = originalTarget[p - 1]
            var found: Int?
            for (index, item) in target.enumerated() where item.id == anchor.id { found = index }
            guard let found else { return nil }
            if case .before = place { insertAt = found } else { insertAt = found + 1 }
        }
        for item in block.reversed() {
            target.insert(item, at: insertAt)
        }
        result.documents[name] = rest
        result.documents[targetName] = target
        if targetName != name { result.documents[name] = rest } else { result.documents[name] = target }
        return result
    }

    func copy(_ selected: [Int], in name: String, to place: Place, into: String?) -> Reference? {
        var result = self
        guard let source = documents[name], let targetName = Optional(into ?? name),
            var target = documents[targetName]
        else { return nil }
        var insertAt = 0
        switch place {
        case .to(let n):
            guard n >= 1, n <= target.count + 1 else { return nil }
            insertAt = n - 1
        case .before(let p):
            guard p >= 1, p <= target.count else { return nil }
            insertAt = p - 1
        case .after(let p):
            guard p >= 1, p <= target.count else { return nil }
            insertAt = p
        }
        var copies: [Item] = []
        for index in 0..<source.count where selected.contains(index) {
            copies.append(result.newCopy(of: source[index]))
        }
        target.insert(contentsOf: copies, at: insertAt)
        result.documents[targetName] = target
        return result
    }

    func duplicate(_ selected: [Int], in name: String) -> Reference? {
        var result = self
        guard let source = documents[name] else { return nil }
        var items: [Item] = []
        for (index, item) in source.enumerated() {
            items.append(item)
            if selected.contains(index) { items.append(result.newCopy(of: item)) }
        }
        result.documents[name] = items
        return result
    }

    func remove(_ selected: [Int], in name: String) -> Reference? {
        var result = self
        guard let source = documents[name] else { return nil }
        var kept: [Item] = []
        for (index, item) in source.enumerated() where !selected.contains(index) {
            kept.append(item)
        }
        result.documents[name] = kept
        return result
    }

    func rotate(_ selected: [Int], in name: String, by quarterTurns: Int) -> Reference? {
        var result = self
        guard var items = documents[name] else { return nil }
        for index in selected {
            var rotation = items[index].rotation + quarterTurns
            while rotation < 0 { rotation += 4 }
            items[index].rotation = rotation % 4
        }
        result.documents[name] = items
        return result
    }

    func reverse(_ selected: [Int], in name: String) -> Reference? {
        var result = self
        guard var items = documents[name] else { return nil }
        let chosen = selected.map { items[$0] }
        var next = chosen.count - 1
        for index in selected {
            items[index] = chosen[next]
            next -= 1
        }
        result.documents[name] = items
        return result
    }

    func interleave(_ other: String, into name: String, reversed: Bool) -> Reference? {
        var result = self
        guard other != name, let fronts = documents[name], var backs = documents[other], !backs.isEmpty else {
            return nil
        }
        if reversed { backs.reverse() }
        var items: [Item] = []
        var i = 0
        while i < fronts.count || i < backs.count {
            if i < fronts.count { items.append(fronts[i]) }
            if i < backs.count { items.append(backs[i]) }
            i += 1
        }
        result.documents[name] = items
        result.documents[other] = []
        return result
    }

    /// Each selected item gets `stamp` after its others.
    func stamp(_ selected: [Int], in name: String, stamp: String) -> Reference? {
        var result = self
        guard var items = documents[name] else { return nil }
        for index in selected {
            items[index].stamps.append(stamp)
        }
        result.documents[name] = items
        return result
    }

    /// The selected items lose their stamps; nil when none has any.
    func unstamp(_ selected: [Int], in name: String) -> Reference? {
        var result = self
        guard var items = documents[name], selected.contains(where: { !items[$0].stamps.isEmpty }) else { return nil }
        for index in selected {
            items[index].stamps = []
        }
        result.documents[name] = items
        return result
    }

    func blank(at n: Int, count: Int, in name: String) -> Reference? {
        var result = self
        guard var items = documents[name], n >= 1, n <= items.count + 1 else { return nil }
        for offset in 0..<count {
            items.insert(Item(id: result.nextID, what: "blank", rotation: 0), at: n - 1 + offset)
            result.nextID += 1
        }
        result.documents[name] = items
        return result
    }
}
