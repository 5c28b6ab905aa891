/// One bookmark of a document's outline. It points at a page item by its
/// stable id, so every edit that keeps the item keeps the bookmark right:
/// `move` carries it with its item, `duplicate` and `copy` leave it on the
/// original. An entry without a target is a heading.
///
/// Besides the title, target and open state it keeps what export writes for a
/// bookmark read from a source: the destination's view (the parameters after
/// the page, in PDF syntax: `["/XYZ", "72", "700", "null"]`; nil writes
/// `[/XYZ null null null]`), the colour (`/C`, three numbers 0…1) and the style
/// flags (`/F`: 1 italic, 2 bold).
package struct OutlineEntry: Codable, Equatable, Sendable {
    /// Unicode; written as PDFDocEncoding or UTF-16BE as needed.
    package var title: String
    /// The item the bookmark goes to; nil: a heading.
    package var target: ItemID?
    /// Whether its children show (a positive /Count).
    package var isOpen: Bool
    package var view: [String]?
    package var color: [Double]?
    package var style: Int?
    /// A heading read from a file whose bookmark opened this address (a URI action).
    package var uri: String?
    /// A heading read from a file whose bookmark ran another action that leaves
    /// the document (GoToR, Launch, Named, JavaScript, …): the action dictionary
    /// in PDF syntax, self-contained, written back as it was read.
    package var action: String?
    package var children: [OutlineEntry]

    package init(
        title: String, target: ItemID?, isOpen: Bool = false, view: [String]? = nil, color: [Double]? = nil,
        style: Int? = nil, uri: String? = nil, action: String? = nil, children: [OutlineEntry] = []
    ) {
        self.title = title
        self.target = target
        self.isOpen = isOpen
        self.view = view
        self.color = color
        self.style = style
        self.uri = uri
        self.action = action
        self.children = children
    }

    enum CodingKeys: String, CodingKey {
        case title, target, isOpen = "open", view, color, style, uri, action, children
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        target = try container.decodeIfPresent(ItemID.self, forKey: .target)
        isOpen = try container.decodeIfPresent(Bool.self, forKey: .isOpen) ?? false
        view = try container.decodeIfPresent([String].self, forKey: .view)
        color = try container.decodeSessionNumbersIfPresent(.color)
        style = try container.decodeIfPresent(Int.self, forKey: .style)
        uri = try container.decodeIfPresent(String.self, forKey: .uri)
        action = try container.decodeIfPresent(String.self, forKey: .action)
        children = try container.decodeIfPresent([OutlineEntry].self, forKey: .children) ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(target, forKey: .target)
        if isOpen { try container.encode(true, forKey: .isOpen) }
        try container.encodeIfPresent(view, forKey: .view)
        try container.encodeIfPresent(color, forKey: .color)
        try container.encodeIfPresent(style, forKey: .style)
        try container.encodeIfPresent(uri, forKey: .uri)
        try container.encodeIfPresent(action, forKey: .action)
        if !children.isEmpty { try container.encode(children, forKey: .children) }
    }
}

/// The outline of one source file as read when it is imported: targets are
/// 1-based pages of that source (nil: no page of it). Insert turns it into
/// entries pointing at the new items (see `Session.executeInsert`).
package struct SourceOutline: Codable, Equatable, Sendable {
    /// The source as `Edit.insertItems` gives it (a provisional id there).
    package var source: SourceID
    package var entries: [SourceOutlineEntry]

    package init(source: SourceID, entries: [SourceOutlineEntry]) {
        self.source = source
        self.entries = entries
    }
}

/// One bookmark of a source: as `OutlineEntry`, with a source page for a target.
package struct SourceOutlineEntry: Codable, Equatable, Sendable {
    package var title: String
    /// 1-based page of the source; nil: none (a heading).
    package var page: Int?
    package var isOpen: Bool
    package var view: [String]?
    package var color: [Double]?
    package var style: Int?
    /// The address of a URI action (page nil then).
    package var uri: String?
    /// Another action that leaves the document, in PDF syntax (page nil then).
    package var action: String?
    package var children: [SourceOutlineEntry]

    package init(
        title: String, page: Int?, isOpen: Bool = false, view: [String]? = nil, color: [Double]? = nil,
        style: Int? = nil, uri: String? = nil, action: String? = nil, children: [SourceOutlineEntry] = []
    ) {
        self.title = title
        self.page = page
        self.isOpen = isOpen
        self.view = view
        self.color = color
        self.style = style
        self.uri = uri
        self.action = action
        self.children = children
    }
}

/// The documented outline limits (checked before an outline is stored).
package enum OutlineLimits {
    /// Entries of one document's outline.
    package static let maximumEntries = 1_000_000
    /// Characters of one title (a PDF string's practical limit).
    package static let maximumTitleLength = 32_767
    /// Levels of nesting: what the bridge reads of a file's outline (deeper
    /// entries are cut there), and well inside what the session file's JSON
    /// reader nests (two JSON levels per outline level). `PDFEDIT_MAX_DEPTH`
    /// lowers it further.
    package static let maximumDepth = 64
}

extension Array where Element == OutlineEntry {
    /// How many entries the tree holds, at every level.
    package var entryCount: Int { reduce(0) { $0 + 1 + $1.children.entryCount } }

    /// Levels of nesting (0 for an empty outline).
    package var depth: Int { map { 1 + $0.children.depth }.max() ?? 0 }

    /// Every target, depth first.
    package var targets: [ItemID] {
        flatMap { entry in (entry.target.map { [$0] } ?? []) + entry.children.targets }
    }

    /// The tree once the items not in `kept` are gone: an entry whose item is
    /// gone becomes a heading if children remain under it, else it goes; a
    /// heading whose children are all gone goes too (a heading that never had
    /// any, as read from a file, stays).
    package func pruned(keeping kept: Set<ItemID>) -> [OutlineEntry] {
        compactMap { entry in
            var entry = entry
            let hadChildren = !entry.children.isEmpty
            entry.children = entry.children.pruned(keeping: kept)
            if let target = entry.target, !kept.contains(target) {
                entry.target = nil
                return entry.children.isEmpty ? nil : entry
            }
            if entry.target == nil, hadChildren, entry.children.isEmpty { return nil }
            return entry
        }
    }

    /// The same tree with every target passed through `map` (nil keeps it).
    func retargeted(_ map: [ItemID: ItemID]) -> [OutlineEntry] {
        self.map { entry in
            var entry = entry
            if let target = entry.target, let new = map[target] { entry.target = new }
            entry.children = entry.children.retargeted(map)
            return entry
        }
    }
}

/// An outline PATH: titles joined by `/`, a `/` inside a title written `\/`
/// (and a backslash `\\`).
package enum OutlinePath {
    /// The titles of `path`, top level first; nil when it is empty or has an empty part.
    package static func components(_ path: String) -> [String]? {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in path {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "/" {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        parts.append(current)
        return parts.contains(where: \.isEmpty) ? nil : parts
    }

    /// A title as one PATH component.
    package static func escaped(_ title: String) -> String {
        title.reduce(into: "") { text, character in
            if character == "\\" || character == "/" { text.append("\\") }
            text.append(character)
        }
    }

    /// The titles joined as a PATH.
    package static func joined(_ titles: [String]) -> String {
        titles.map(escaped).joined(separator: "/")
    }
}
