/// What a page item shows.
package enum ItemContent: Codable, Equatable, Hashable, Sendable {
    /// Page `page` (1-based) of a PDF source.
    case page(source: SourceID, page: Int)
    /// An empty page of the given size.
    case blank(PageSize)
    /// An image source, as one page: sized from its resolution, or (`fit`) placed
    /// on a page of that size keeping its aspect ratio.
    case image(source: SourceID, fit: PageSize? = nil)
    /// A reserved slot waiting to be filled.
    case placeholder(size: PageSize, label: String?)
    /// A sheet of `nup` or `booklet`: other items drawn into its cells.
    case sheet(Sheet)

    /// The source this content reads, if any.
    package var source: SourceID? {
        switch self {
        case .page(let source, _), .image(let source, _): source
        case .blank, .placeholder, .sheet: nil
        }
    }

    /// The sources this content and, for a sheet, its cells' items and their stamps read.
    public var sources: [SourceID] {
        if case .sheet(let sheet) = self {
            return sheet.items.flatMap { $0.content.sources + $0.stamps.compactMap(\.source) }
        }
        return source.map { [$0] } ?? []
    }

    /// The sheet this content is, if it is one.
    public var sheet: Sheet? {
        if case .sheet(let sheet) = self { sheet } else { nil }
    }

    /// A short word for listings and messages.
    public var kindName: String {
        switch self {
        case .page: "page"
        case .blank: "blank"
        case .image: "image"
        case .placeholder: "placeholder"
        case .sheet: "sheet"
        }
    }

    /// Whether this is a slot still waiting for `fill`.
    public var isPlaceholder: Bool {
        if case .placeholder = self { true } else { false }
    }

    func replacingSource(using map: [SourceID: SourceID]) -> ItemContent {
        switch self {
        case .page(let source, let page): return .page(source: map[source] ?? source, page: page)
        case .image(let source, let fit): return .image(source: map[source] ?? source, fit: fit)
        case .blank, .placeholder: return self
        case .sheet(var sheet):
            for index in sheet.cells.indices {
                guard var item = sheet.cells[index].item else { continue }
                item.content = item.content.replacingSource(using: map)
                item.stamps = item.stamps.map { stamp in
                    guard case .page(let source, let page) = stamp.content, let moved = map[source] else { return stamp }
                    var replaced = stamp
                    replaced.content = .page(source: moved, page: page)
                    return replaced
                }
                sheet.cells[index].item = item
            }
            return .sheet(sheet)
        }
    }
}

/// One entry of a document's page list.
public struct PageItem: Codable, Equatable, Hashable, Sendable {
    public var id: ItemID
    package var content: ItemContent
    /// Quarter turns clockwise, 0…3, added to the page's own /Rotate.
    public var rotation: Int
    /// Pages drawn onto this one at export, in order (see `Stamp`).
    package var stamps: [Stamp]
    /// The boxes this item sets on its page at export (`crop`); empty: the source's own.
    package var boxes: PageBoxes
    /// What `resize` froze into the item (the new paper, the rotation and crop it
    /// had then); nil: not resized. `rotation` and `boxes` then act on the resized page.
    package var resize: PageResize?
    /// What `flatten` and `strip` do to the page at export, in the order given.
    package var finish: [PageFinish]

    package init(
        id: ItemID, content: ItemContent, rotation: Int = 0, stamps: [Stamp] = [], boxes: PageBoxes = PageBoxes(),
        resize: PageResize? = nil, finish: [PageFinish] = []
    ) {
        self.id = id
        self.content = content
        self.rotation = rotation
        self.stamps = stamps
        self.boxes = boxes
        self.resize = resize
        self.finish = finish
    }

    private enum CodingKeys: String, CodingKey {
        case id, content, rotation, stamps, boxes, resize, finish
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(ItemID.self, forKey: .id)
        content = try container.decode(ItemContent.self, forKey: .content)
        rotation = try container.decode(Int.self, forKey: .rotation)
        stamps = try container.decodeIfPresent([Stamp].self, forKey: .stamps) ?? []
        boxes = try container.decodeIfPresent(PageBoxes.self, forKey: .boxes) ?? PageBoxes()
        resize = try container.decodeIfPresent(PageResize.self, forKey: .resize)
        finish = try container.decodeIfPresent([PageFinish].self, forKey: .finish) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(content, forKey: .content)
        try container.encode(rotation, forKey: .rotation)
        try container.encode(stamps, forKey: .stamps)
        if !boxes.isEmpty { try container.encode(boxes, forKey: .boxes) }
        try container.encodeIfPresent(resize, forKey: .resize)
        if !finish.isEmpty { try container.encode(finish, forKey: .finish) }
    }
}
