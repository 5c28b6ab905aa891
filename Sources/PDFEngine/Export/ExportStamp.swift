import PageModel

/// Something drawn onto one output page: page `page` (0-based) of
/// `sources[source]` (`pdfedit stamp`) or a generated `text` (`number`, `bates`,
/// `watermark`), over the page's content or (`under`) beneath it, placed on the
/// page as displayed by `placement` and upright for the reader, a page at its own
/// size or (`fit`) scaled to the box keeping its aspect ratio, with `opacity` in
/// (0, 1]. Each stamp page is one form XObject in the output, shared by every page
/// it is drawn on; the stamps of one item are drawn in the order they come in the
/// list (see `pe_stamp` in QPDFBridge.h). `ExportStamp.place` works out where
/// (`matrix`) before the export.
package struct ExportStamp: Sendable, Equatable {
    /// A generated text as the bridge draws it: WinAnsi `bytes` in `font` at
    /// `size` points, turned `angle` degrees; `actualText` carried for extraction.
    package struct Text: Sendable, Equatable {
        package var bytes: [UInt8]
        package var font: StandardFont
        package var size: Double
        package var angle: Double
        package var actualText: String?
        /// The text's colour (nil: black), a box `padding` points around it
        /// filled with `background` and edged with `outline` (nil: none).
        package var color: TextColor?
        package var background: TextColor?
        package var outline: TextColor?
        package var padding = 0.0

        package init(bytes: [UInt8], font: StandardFont, size: Double, angle: Double, actualText: String?) {
            self.bytes = bytes
            self.font = font
            self.size = size
            self.angle = angle
            self.actualText = actualText
        }
    }

    /// Index into the export's items of the page it is drawn on.
    package var item: Int
    package var source: Int
    package var page: Int
    package var under: Bool
    package var fit: Bool
    package var opacity: Double
    package var placement: StampPlacement
    /// Set for a generated text (then `source` and `page` mean nothing).
    package var text: Text?
    /// A page turned `angle` degrees counter-clockwise as displayed (a text
    /// drawn by Pango onto a page of its own, `TextPicture`); 0 for a stamp file.
    package var angle = 0.0
    /// The words a page stamp shows, written as the /ActualText of a span
    /// around it so extraction gives them in logical order (a text drawn by
    /// Pango: right-to-left and slanted text stay whole); nil for a stamp file.
    package var actualText: String?
    /// The matrix it is drawn with, from `placement` and the geometry of both
    /// pages (`ExportStamp.place`); export draws only placed stamps.
    package var matrix: PlacementMatrix?

    package init(
        item: Int, source: Int, page: Int, under: Bool = false, fit: Bool = false, opacity: Double = 1,
        placement: StampPlacement = StampPlacement()
    ) {
        self.item = item
        self.source = source
        self.page = page
        self.under = under
        self.fit = fit
        self.opacity = opacity
        self.placement = placement
    }

    package init(item: Int, text: Text, under: Bool, opacity: Double, placement: StampPlacement) {
        self.init(item: item, source: -1, page: 0, under: under, opacity: opacity, placement: placement)
        self.text = text
    }
}
