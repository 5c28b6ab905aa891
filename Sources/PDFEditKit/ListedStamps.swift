import PageModel

/// One stamp of a listed item (`list --json`: `stamps`).
package struct ListedStamp: Codable, Equatable, Sendable {
    /// `page` (a page of a file: `stamp`), `number`, `bates` or `watermark`.
    package var kind: String
    /// A page stamp's file as stored in the session (absent for a text).
    package var source: String?
    /// 1-based page of that file (1 for an image; absent for a text).
    package var page: Int?
    /// A generated stamp's text on this item, as export writes it.
    package var text: String?
    /// A generated stamp's format (`{n}`, `{total}`, `{label}`, `{doc}`).
    package var format: String?
    /// A generated stamp's font (`helvetica`, `times`, `courier`), size in points, angle in degrees.
    package var font: String?
    package var size: Double?
    package var angle: Double?
    /// Drawn under the page's content rather than over it.
    package var under: Bool
    /// Scaled to fit the page (else drawn at its own size, scaled down only when larger than the page).
    package var fit: Bool
    /// From 0 (invisible) to 1 (opaque).
    package var opacity: Double
    /// The anchor on the page as displayed (`center`, `top`, `bottom-right`, ...).
    package var position: String
    /// Points moved right and up from the anchor.
    package var offset: [Double]
    /// Points kept from the page's edges.
    package var margin: Double
    /// `--size 2%`: the size as a percentage of the page's shorter side (then `size` is not used).
    package var sizePercent: Double?
    /// `--margin 3%`: the margin as a percentage of the page's shorter side (then `margin` is 0).
    package var marginPercent: Double?

    /// The stamps of an item in drawing order, `texts` its generated texts in
    /// order; nil when it has none (left out of the JSON).
    static func list(_ stamps: [Stamp], texts: [String], session: Session) -> [ListedStamp]? {
        guard !stamps.isEmpty else { return nil }
        var texts = texts[...]
        return stamps.map { stamp in
            var listed = ListedStamp(
                kind: "page", under: stamp.under, fit: stamp.fit, opacity: stamp.opacity,
                position: stamp.placement.position.rawValue,
                offset: [stamp.placement.offsetX, stamp.placement.offsetY], margin: stamp.placement.margin)
            listed.marginPercent = stamp.placement.marginShare.map { $0 * 100 }
            switch stamp.content {
            case .page(let source, let page):
                listed.source = session.source(source)?.path ?? source.description
                listed.page = page
            case .text(let mark):
                listed.kind = mark.kind.rawValue
                listed.text = texts.popFirst() ?? mark.format
                listed.format = mark.format
                listed.font = mark.fontName ?? mark.font.rawValue
                listed.size = mark.size
                listed.sizePercent = mark.sizeShare.map { $0 * 100 }
                listed.angle = mark.angle
            }
            return listed
        }
    }
}
