/// Something drawn onto a page item at export: a page of a source (`stamp SEL
/// FILE`) or a generated text (`number`, `bates`, `watermark`), over the item's
/// own content or, with `under`, beneath it; placed on the page as displayed by
/// `placement` and upright for the reader whatever the rotations; a page at its
/// own size or (`fit`) scaled to the page keeping its aspect ratio, anything
/// larger than the page scaled down to fit; `opacity` in (0, 1].
///
/// In the session file an item's stamps are a `"stamps"` array of
/// `{"source": "s2", "page": 1, "under": false, "fit": false, "opacity": 1}` for
/// a page, `{"text": {…}, "under": false, "opacity": 0.3}` for a text (see
/// `TextMark`), each with `"position"`, `"offset": [x, y]` and `"margin"` (or
/// `"marginShare"`, format 8: a share of the page's shorter side) when
/// they are not the defaults (centre, no offset, no margin; format 5).
package struct Stamp: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    package var content: StampContent
    package var under: Bool
    package var fit: Bool
    package var opacity: Double
    package var placement: StampPlacement

    package init(
        source: SourceID, page: Int = 1, under: Bool = false, fit: Bool = false, opacity: Double = 1,
        placement: StampPlacement = StampPlacement()
    ) {
        self.content = .page(source: source, page: page)
        self.under = under
        self.fit = fit
        self.opacity = opacity
        self.placement = placement
    }

    package init(text: TextMark, under: Bool = false, opacity: Double = 1, placement: StampPlacement) {
        self.content = .text(text)
        self.under = under
        self.fit = false
        self.opacity = opacity
        self.placement = placement
    }

    /// The source a page stamp draws from; nil for a text.
    package var source: SourceID? {
        if case .page(let source, _) = content { source } else { nil }
    }

    /// The generated text, nil for a page stamp.
    package var text: TextMark? {
        if case .text(let mark) = content { mark } else { nil }
    }

    /// Whether `opacity` is one a PDF can say: finite, above 0, at most 1.
    package static func isValidOpacity(_ opacity: Double) -> Bool {
        opacity.isFinite && opacity > 0 && opacity <= 1
    }

    /// `s2 p.1 under fit 50%`, `number "Page {n}" bottom`: the options that differ from the defaults.
    package var description: String {
        var words: [String]
        switch content {
        case .page(let source, let page): words = ["\(source) p.\(page)"]
        case .text(let mark): words = [mark.description]
        }
        words.append(under ? "under" : "over")
        if placement != StampPlacement() { words.append(placement.description) }
        if fit { words.append("fit") }
        if opacity != 1 { words.append(Stamp.percent(opacity)) }
        return words.joined(separator: " ")
    }

    /// 0.5 → "50%", 0.125 → "12.5%".
    static func percent(_ opacity: Double) -> String {
        decimalText(opacity * 100, decimals: 1) + "%"
    }

    private enum CodingKeys: String, CodingKey {
        case source, page, text, under, fit, opacity, position, offset, margin, marginShare
    }

    /// A stamp's `"text"`: the index of its mark in the session file's `"texts"`
    /// (format 6), or the mark itself (format 5, and JSON other than a session file).
    private static func decodeText(
        _ container: KeyedDecodingContainer<CodingKeys>, texts: StampTexts?
    ) throws -> TextMark {
        let index: Int
        do {
            index = try container.decode(Int.self, forKey: .text)
        } catch DecodingError.typeMismatch {
            return try container.decode(TextMark.self, forKey: .text)
        }
        guard let mark = texts?.mark(at: index) else {
            throw DecodingError.dataCorruptedError(
                forKey: .text, in: container, debugDescription: "text \(index) is not one of the session's \"texts\"")
        }
        return mark
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.text) {
            content = .text(try Stamp.decodeText(container, texts: decoder.userInfo[StampTexts.key] as? StampTexts))
        } else {
            content = .page(
                source: try container.decode(SourceID.self, forKey: .source),
                page: try container.decode(Int.self, forKey: .page))
        }
        under = try container.decode(Bool.self, forKey: .under)
        fit = try container.decodeIfPresent(Bool.self, forKey: .fit) ?? false
        opacity = try container.decodeSessionNumber(.opacity)
        var placement = StampPlacement()
        placement.position = try container.decodeIfPresent(StampPosition.self, forKey: .position) ?? .center
        if let offset = try container.decodeSessionNumbersIfPresent(.offset) {
            guard offset.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .offset, in: container, debugDescription: "an offset is two numbers [x, y]")
            }
            placement.offsetX = offset[0]
            placement.offsetY = offset[1]
        }
        placement.margin = try container.decodeSessionNumberIfPresent(.margin) ?? 0
        placement.marginShare = try container.decodeSessionNumberIfPresent(.marginShare)
        self.placement = placement
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch content {
        case .page(let source, let page):
            try container.encode(source, forKey: .source)
            try container.encode(page, forKey: .page)
        case .text(let mark):
            if let texts = encoder.userInfo[StampTexts.key] as? StampTexts {
                try container.encode(texts.index(of: mark), forKey: .text)
            } else {
                try container.encode(mark, forKey: .text)
            }
        }
        try container.encode(under, forKey: .under)
        if text == nil { try container.encode(fit, forKey: .fit) }
        try container.encode(opacity, forKey: .opacity)
        if placement.position != .center { try container.encode(placement.position, forKey: .position) }
        if placement.offsetX != 0 || placement.offsetY != 0 {
            try container.encode([placement.offsetX, placement.offsetY], forKey: .offset)
        }
        if placement.margin != 0 { try container.encode(placement.margin, forKey: .margin) }
        if let share = placement.marginShare { try container.encode(share, forKey: .marginShare) }
    }
}

/// What a stamp draws.
package enum StampContent: Hashable, Sendable {
    /// Page `page` (1-based; 1 for an image) of a source.
    case page(source: SourceID, page: Int)
    /// A text generated per item at export.
    case text(TextMark)
}

/// `stamp SEL FILE --each`: page K of FILE on the first selected item, K+1 on
/// the second…; what happens once FILE has no more pages.
public enum StampEach: String, Codable, Equatable, Hashable, Sendable {
    /// The items past FILE's last page are left alone (the summary counts them).
    case stop
    /// They all get FILE's last page (`--repeat-last`).
    case repeatLast
    /// FILE starts again at page K (`--cycle`).
    case cycle

    /// The page of a file of `pageCount` pages the `offset`-th selected item
    /// (from 0) gets when the stamp starts at `first`; nil: none.
    package func page(forOffset offset: Int, first: Int, pageCount: Int) -> Int? {
        let page = first + offset
        if page <= pageCount { return page }
        switch self {
        case .stop: return nil
        case .repeatLast: return pageCount
        case .cycle: return first + offset % max(1, pageCount - first + 1)
        }
    }
}
