import QPDFBridge

/// A page drawn onto one output page (`pdfedit stamp`): page `page` (0-based) of
/// `sources[source]`, over the page's content or (`under`) beneath it, centred on
/// its visible box and upright for the reader, at its own size or (`fit`) scaled to
/// the box keeping its aspect ratio, with `opacity` in (0, 1]. Each stamp page is
/// one form XObject in the output, shared by every page it is drawn on; the
/// stamps of one item are drawn in the order they come in the list (see
/// `pe_stamp` in QPDFBridge.h).
public struct ExportStamp: Sendable, Equatable {
    /// Index into the export's items of the page it is drawn on.
    public var item: Int
    public var source: Int
    public var page: Int
    public var under: Bool
    public var fit: Bool
    public var opacity: Double

    public init(item: Int, source: Int, page: Int, under: Bool = false, fit: Bool = false, opacity: Double = 1) {
        self.item = item
        self.source = source
        self.page = page
        self.under = under
        self.fit = fit
        self.opacity = opacity
    }

    var bridged: pe_stamp {
        pe_stamp(
            item: Int32(clamping: item), source: Int32(clamping: source), page: Int32(clamping: page),
            under: under ? 1 : 0, fit: fit ? 1 : 0, opacity: opacity)
    }
}
