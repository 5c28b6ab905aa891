import PageModel

// True redaction: `pdfedit redact`. Each call is one undo step that records
// regions on the selected pages; the pages lose what they draw there when the
// document is written (`write`, `data`), and the written file is read back to
// prove it before it is kept (see docs/manual.md, "Redaction").

extension PageEditor {
    /// Redacts a rectangle on each selected page (`pdfedit redact --rect`):
    /// `x`, `y` its lower-left corner and `width`, `height` its size, on the
    /// page as displayed (its visible box after rotation, y upward), in
    /// `units`. Text, images and paths inside are removed from the file at
    /// export, annotations meeting it too, and the region is filled with
    /// `fill` (a colour name or `#rrggbb`). `label` is what `show` and
    /// `redact --list` print beside it.
    @discardableResult
    public mutating func redact(
        _ pages: PageSelection = .all, x: Double, y: Double, width: Double, height: Double, units: RedactUnits = .pt,
        fill: String = "black", label: String? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        let color = try Self.fillColor(fill)
        return try apply(
            .redact(pages, .rect(x: x, y: y, width: width, height: height, units: units), fill: color, label: label),
            in: document, label: "redact \(pages) --rect \(x),\(y),\(width),\(height)")
    }

    /// Redacts every occurrence of `text` on the selected pages (`pdfedit
    /// redact --text`), found in poppler's text layout now: a regular
    /// expression with `regex`, case folded unless `caseSensitive`. Each
    /// occurrence (each line of one) is a region, as for
    /// ``redact(_:x:y:width:height:units:fill:label:in:)``.
    @discardableResult
    public mutating func redact(
        _ pages: PageSelection = .all, text: String, regex: Bool = false, caseSensitive: Bool = false,
        fill: String = "black", label: String? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        let color = try Self.fillColor(fill)
        return try apply(
            .redact(pages, .text(text, regex: regex, caseSensitive: caseSensitive), fill: color, label: label),
            in: document, label: "redact \(pages) --text")
    }

    /// `black`, `white`, another colour name or `#rrggbb`, or `c,m,y,k`.
    static func fillColor(_ text: String) throws(PDFEditError) -> TextColor {
        guard let color = TextColor.parse(text) else {
            throw .usage("--fill \(text): not a colour (black, white, a name, #rrggbb or c,m,y,k)")
        }
        return color
    }
}
