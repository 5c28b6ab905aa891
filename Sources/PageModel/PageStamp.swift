/// A page drawn onto a page item at export (`stamp SEL FILE`): page `page` of
/// `source` (a PDF, or 1 for an image), over the item's own content or, with
/// `under`, beneath it; centred on the page as displayed and upright for the
/// reader whatever the rotations, at its own size or (`fit`) scaled to the page
/// keeping its aspect ratio; `opacity` in (0, 1].
///
/// In the session file an item's stamps are a `"stamps"` array of
/// `{"source": "s2", "page": 1, "under": false, "fit": false, "opacity": 1}`.
public struct Stamp: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var source: SourceID
    /// 1-based page of the source.
    public var page: Int
    public var under: Bool
    public var fit: Bool
    public var opacity: Double

    public init(source: SourceID, page: Int = 1, under: Bool = false, fit: Bool = false, opacity: Double = 1) {
        self.source = source
        self.page = page
        self.under = under
        self.fit = fit
        self.opacity = opacity
    }

    /// Whether `opacity` is one a PDF can say: finite, above 0, at most 1.
    public static func isValidOpacity(_ opacity: Double) -> Bool {
        opacity.isFinite && opacity > 0 && opacity <= 1
    }

    /// `s2 p.1 under fit 50%`: the options that differ from the defaults.
    public var description: String {
        var words = ["\(source) p.\(page)", under ? "under" : "over"]
        if fit { words.append("fit") }
        if opacity != 1 { words.append(Stamp.percent(opacity)) }
        return words.joined(separator: " ")
    }

    /// 0.5 → "50%", 0.125 → "12.5%".
    static func percent(_ opacity: Double) -> String {
        let value = (opacity * 1000).rounded() / 10
        return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }
}
