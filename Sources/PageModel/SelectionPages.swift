/// The rules of the selection tokens that look at what items show —
/// `landscape`, `portrait`, `size:`, `annotated`, `image-only`, `label:`,
/// `outline:` and `dup` — over the lookups of an `EditContext` (what a page
/// draws is the kit's to find out; which items match is decided here).
struct PageLookups {
    let document: Document
    let context: EditContext
    /// The labels `list` shows, by index; computed on first use.
    private var labels: [String?]?

    init(document: Document, context: EditContext) {
        self.document = document
        self.context = context
    }

    mutating func indices(of token: PageSelection.Token) throws(SelectionError) -> [Int] {
        let items = document.items
        switch token.kind {
        case .landscape, .portrait:
            try needSizes(token)
            let wide = token.kind == .landscape
            return items.indices.filter { index in
                guard let size = context.displayedSize(of: items[index]) else { return false }
                return wide ? size.width > size.height : size.height > size.width
            }
        case .size(let wanted):
            try needSizes(token)
            return items.indices.filter { index in
                guard let size = context.displayedSize(of: items[index]) else { return false }
                return PageSizeMatch.matches(size, wanted)
            }
        case .annotated:
            guard let count = context.annotationCount else { throw .pagesWithoutLookup(token: token.text) }
            return items.indices.filter { Self.isAnnotated(items[$0], count: count) }
        case .imageOnly:
            guard let hasText = context.pageHasText else { throw .textWithoutLookup(token: token.text) }
            return items.indices.filter { Self.isImageOnly(items[$0], hasText: hasText) }
        case .label(let first, let last):
            if labels == nil {
                let values = document.outputLabelValues(sourceLabels: context.sourceLabels ?? { _ in nil })
                labels = items.map { values[$0.id]?.text }
            }
            return Self.labelled(labels ?? [], from: first, through: last)
        case .outline(let title):
            return OutlineSections(document: document).indices(under: title)
        case .duplicate:
            guard let fingerprint = context.contentFingerprint else { throw .pagesWithoutLookup(token: token.text) }
            return Self.laterCopies(items, fingerprint: fingerprint)
        case .single, .range, .odd, .even, .all, .id, .text, .empty:
            return []
        }
    }

    /// Sizes of pages and images need the context's lookup; blanks and placeholders know theirs.
    private func needSizes(_ token: PageSelection.Token) throws(SelectionError) {
        if context.pageSize == nil, document.items.contains(where: { $0.content.source != nil }) {
            throw .pagesWithoutLookup(token: token.text)
        }
    }

    /// A page carrying at least one annotation (popups aside); a sheet when a cell's page does.
    static func isAnnotated(_ item: PageItem, count: (PageItem) -> Int?) -> Bool {
        switch item.content {
        case .page: return (count(item) ?? 0) > 0
        case .sheet(let sheet): return sheet.items.contains { isAnnotated($0, count: count) }
        case .blank, .placeholder, .image: return false
        }
    }

    /// A page with no extractable text, or an image; a sheet when every cell is.
    static func isImageOnly(_ item: PageItem, hasText: (PageItem) -> Bool) -> Bool {
        switch item.content {
        case .page: return !hasText(item)
        case .image: return true
        case .sheet(let sheet): return !sheet.items.isEmpty && sheet.items.allSatisfy { isImageOnly($0, hasText: hasText) }
        case .blank, .placeholder: return false
        }
    }

    /// Items labelled `first`; with `last`, from each item labelled `first` to the
    /// next one labelled `last` (to the end when none follows). Labels compare exactly.
    static func labelled(_ labels: [String?], from first: String, through last: String?) -> [Int] {
        var selected: [Int] = []
        var index = 0
        while index < labels.count {
            guard labels[index] == first else {
                index += 1
                continue
            }
            guard let last else {
                selected.append(index)
                index += 1
                continue
            }
            let end = labels[index...].firstIndex { $0 == last } ?? (labels.count - 1)
            selected.append(contentsOf: index...end)
            index = end + 1
        }
        return selected
    }

    /// The items `dup` selects: each item whose content, rotation, boxes, size
    /// and stamps equal an earlier item's. Placeholders (waiting for content) and
    /// sheets are never copies; an item whose content cannot be fingerprinted is none.
    static func laterCopies(_ items: [PageItem], fingerprint: (PageItem) -> String?) -> [Int] {
        var seen: Set<ShownContent> = []
        var selected: [Int] = []
        for (index, item) in items.enumerated() {
            guard let key = ShownContent(item, fingerprint: fingerprint) else { continue }
            if !seen.insert(key).inserted { selected.append(index) }
        }
        return selected
    }

    /// What an item shows once exported, for `dup`.
    struct ShownContent: Hashable {
        var content: String
        var rotation: Int
        var stamps: [Stamp]
        var boxes: PageBoxes
        var resize: PageResize?

        init?(_ item: PageItem, fingerprint: (PageItem) -> String?) {
            switch item.content {
            case .page, .image:
                guard let digest = fingerprint(item) else { return nil }
                content = digest
            case .blank(let size):
                content = "blank \(size.width)x\(size.height)"
            case .placeholder, .sheet:
                return nil
            }
            rotation = item.rotation
            stamps = item.stamps
            boxes = item.boxes
            resize = item.resize
        }
    }
}

/// THE rule of `size:`: a size matches when each side is within 1% of the
/// wanted side (at least 2 pt, so A4 written as 595x842 matches), either way
/// round — `size:a4` picks A4 pages in portrait and in landscape.
package enum PageSizeMatch {
    package static func matches(_ size: PageSize, _ wanted: PageSize) -> Bool {
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= max(2, 0.01 * b) }
        return (near(size.width, wanted.width) && near(size.height, wanted.height))
            || (near(size.width, wanted.height) && near(size.height, wanted.width))
    }
}

/// The items under each bookmark of a document: from the item its bookmark
/// goes to up to the item before the next bookmark outside its own subtree
/// that goes to a later item (or the last item). A heading without a target
/// starts at its first descendant's target.
struct OutlineSections {
    private struct Flat {
        var title: String
        var start: Int?
        /// The index in `flat` after this entry's subtree.
        var subtreeEnd: Int
    }

    private var flat: [Flat] = []
    private let count: Int

    init(document: Document) {
        count = document.items.count
        var index: [ItemID: Int] = [:]
        for (offset, item) in document.items.enumerated() { index[item.id] = offset }
        func add(_ entries: [OutlineEntry], depth: Int) {
            guard depth < OutlineSections.maximumDepth else { return }
            for entry in entries {
                let at = flat.count
                flat.append(Flat(title: entry.title, start: entry.target.flatMap { index[$0] }, subtreeEnd: at + 1))
                add(entry.children, depth: depth + 1)
                flat[at].subtreeEnd = flat.count
                if flat[at].start == nil {
                    flat[at].start = flat[(at + 1)..<flat.count].compactMap(\.start).first
                }
            }
        }
        add(document.outline ?? [], depth: 0)
    }

    /// As deep as bookmarks are read (`pe_document_read_outline`: 64 levels).
    static let maximumDepth = 64

    /// The items under every bookmark titled `title` (compared ignoring case and
    /// treating runs of whitespace as one space), ascending.
    func indices(under title: String) -> [Int] {
        let wanted = Self.normalised(title)
        var selected = Set<Int>()
        for (position, entry) in flat.enumerated() where Self.normalised(entry.title) == wanted {
            guard let start = entry.start else { continue }
            var end = count - 1
            for (other, next) in flat.enumerated() where other < position || other >= entry.subtreeEnd {
                if let nextStart = next.start, nextStart > start, nextStart - 1 < end { end = nextStart - 1 }
            }
            selected.formUnion(start...end)
        }
        return selected.sorted()
    }

    private static func normalised(_ title: String) -> String {
        title.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
