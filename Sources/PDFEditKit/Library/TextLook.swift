import PageModel

extension TextMark {
    /// The library's text look on this mark: `size` (points as seen, or a share
    /// of the page's shorter side), `font` (nil: the standard font it has) and
    /// the colours; a size out of range or a font that is not installed is refused (64).
    mutating func setLook(
        size: StampLength, font: String?, color: TextColor?, background: TextColor?, outline: TextColor?
    ) throws(PDFEditError) {
        guard setSize(size) else {
            throw PDFEditError.usage("a text size is above 0 and at most 1000 pt, or above 0% and at most 50%, not \(size)")
        }
        if let font { try TextFonts.apply(font, to: &self) }
        self.color = color
        self.background = background
        self.outline = outline
    }
}

extension StampPlacement {
    /// At `position` inside `margin` (points, or a share of the page's shorter
    /// side); a negative margin or one over 50% is refused (64).
    static func with(position: StampPosition, margin: StampLength) throws(PDFEditError) -> StampPlacement {
        var placement = StampPlacement(position: position)
        guard placement.setMargin(margin) else {
            throw PDFEditError.usage("a margin is at least 0, and at most 50% of the page, not \(margin)")
        }
        return placement
    }
}
