import PageModel

/// One stamp of a listed item (`list --json`: `stamps`).
public struct ListedStamp: Codable, Equatable, Sendable {
    /// The stamp's file as stored in the session.
    public var source: String
    /// 1-based page of that file (1 for an image).
    public var page: Int
    /// Drawn under the page's content rather than over it.
    public var under: Bool
    /// Scaled to fit the page (else drawn at its own size, centred).
    public var fit: Bool
    /// From 0 (invisible) to 1 (opaque).
    public var opacity: Double

    /// The stamps of an item in drawing order; nil when it has none (left out of the JSON).
    static func list(_ stamps: [Stamp], session: Session) -> [ListedStamp]? {
        guard !stamps.isEmpty else { return nil }
        return stamps.map { stamp in
            ListedStamp(
                source: session.source(stamp.source)?.path ?? stamp.source.description, page: stamp.page,
                under: stamp.under, fit: stamp.fit, opacity: stamp.opacity)
        }
    }
}
