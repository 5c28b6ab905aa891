import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one cell of a contact sheet (or one standalone thumbnail) shows.
package enum SheetPicture {
    /// A rendered page (its own /Rotate already applied), turned clockwise by the item's rotation.
    case page(RasterImage, quarterTurns: Int)
    /// A blank page of this shape (as displayed): white with a thin frame.
    case blank(width: Double, height: Double)
    /// An empty dashed frame of this shape with a kind ("placeholder", "image") and
    /// an optional label written inside it, near the top so its centre stays empty.
    case frame(width: Double, height: Double, kind: String, label: String?)

    /// The pixel size the picture takes when fitted in `maxPixels` × `maxPixels`.
    package func pixelSize(fittingIn maxPixels: Int) -> (width: Int, height: Int) {
        switch self {
        case .page(let image, let turns):
            return turns % 2 == 0 ? (image.width, image.height) : (image.height, image.width)
        case .blank(let width, let height), .frame(let width, let height, _, _):
            return fittedPixels(width: width, height: height, in: maxPixels)
        }
    }
}

/// One cell: the picture and its caption. `title` is drawn bold (the position),
/// `subtitle` after it (the id), `detail` on a second, smaller line.
package struct SheetCell {
    package var picture: SheetPicture
    package var title: String
    package var subtitle: String
    package var detail: String?

    package init(picture: SheetPicture, title: String, subtitle: String, detail: String? = nil) {
        self.picture = picture
        self.title = title
        self.subtitle = subtitle
        self.detail = detail
    }
}

/// The geometry of a contact sheet: a grid of `columns` cells, each a square box of
/// `thumbnailSize` pixels (the picture is centred horizontally and stands on the
/// box's bottom edge) with a two-line caption under it, below a one-line header.
package struct SheetLayout: Equatable, Sendable {
    package let columns: Int
    package let thumbnailSize: Int
    /// Space around the grid and between cells.
    package let gap: Int
    package let fontSize: Double
    package let headerHeight: Int
    package let captionHeight: Int

    package init(columns: Int, thumbnailSize: Int) {
        self.columns = max(1, columns)
        self.thumbnailSize = max(16, thumbnailSize)
        let size = Double(self.thumbnailSize)
        fontSize = min(24, max(11, (size * 0.08).rounded()))
        gap = max(12, self.thumbnailSize / 10)
        headerHeight = Int((fontSize * 2.2).rounded())
        captionHeight = Int((fontSize * 2.8).rounded())
    }

    /// A sheet grows wider than its grid for its header up to this many pixels.
    package static let widestForHeader = 2000

    package var cellWidth: Int { thumbnailSize }
    package var cellHeight: Int { thumbnailSize + captionHeight }

    package func rows(for count: Int) -> Int { max(1, (count + columns - 1) / columns) }

    /// Pixel size of a sheet holding `count` cells.
    package func sheetSize(cells count: Int) -> (width: Int, height: Int) {
        let rows = rows(for: count)
        let usedColumns = min(columns, max(1, count))
        return (
            gap * 2 + usedColumns * cellWidth + (usedColumns - 1) * gap,
            headerHeight + gap * 2 + rows * cellHeight + (rows - 1) * gap
        )
    }

    /// The square box of cell `index` (0-based, row by row).
    package func box(ofCell index: Int) -> PixelRect {
        let column = index % columns
        let row = index / columns
        return PixelRect(
            x: gap + column * (cellWidth + gap), y: headerHeight + gap + row * (cellHeight + gap),
            width: thumbnailSize, height: thumbnailSize)
    }

    /// Where a picture of `size` sits in its box.
    package func placement(of size: (width: Int, height: Int), inCell index: Int) -> PixelRect {
        let box = box(ofCell: index)
        return PixelRect(
            x: box.x + (box.width - size.width) / 2, y: box.y + box.height - size.height,
            width: size.width, height: size.height)
    }
}

/// Contact sheets: pictures in a grid with captions, drawn with cairo
/// (`cairo_set_source_surface`, the toy text API `cairo_select_font_face` /
/// `cairo_show_text`), dark text on a light background.
package enum ContactSheet {
    /// Draws `cells` on one sheet with `header` above the grid; returns the image and
    /// where each cell's picture landed.
    package static func draw(
        _ cells: [SheetCell], layout: SheetLayout, header: String
    ) throws(EngineError) -> (image: RasterImage, pictures: [PixelRect]) {
        let grid = layout.sheetSize(cells: cells.count)
        // At least as wide as the header needs (a one-item sheet is narrower than
        // its header), up to a width past which a very long name is shortened.
        let headerSize = layout.fontSize * 1.1
        let headerWidth = Int(SheetDrawing.measure(header, size: headerSize, bold: true).rounded(.up)) + 2 * layout.gap
        let size = (width: max(grid.width, min(headerWidth, SheetLayout.widestForHeader)), height: grid.height)
        let sheet = try RasterImage(width: size.width, height: size.height, file: "contact sheet")
        let placements = try sheet.drawing { (cairo) throws(EngineError) -> [PixelRect] in
            SheetDrawing.setColor(cairo, SheetDrawing.background)
            cairo_paint(cairo)

            SheetDrawing.setColor(cairo, SheetDrawing.ink)
            SheetDrawing.text(
                cairo, header, x: Double(layout.gap), baseline: Double(layout.gap) + layout.fontSize * 1.3,
                size: headerSize, bold: true, maxWidth: Double(size.width - 2 * layout.gap))

            var placements: [PixelRect] = []
            placements.reserveCapacity(cells.count)
            for (index, cell) in cells.enumerated() {
                let rect = layout.placement(of: cell.picture.pixelSize(fittingIn: layout.thumbnailSize), inCell: index)
                placements.append(rect)
                try SheetDrawing.drawFramed(cell.picture, in: cairo, rect: rect)
                drawCaption(cell, in: cairo, box: layout.box(ofCell: index), layout: layout)
            }
            return placements
        }
        return (sheet, placements)
    }

    private static func drawCaption(_ cell: SheetCell, in cairo: OpaquePointer, box: PixelRect, layout: SheetLayout) {
        let font = layout.fontSize
        let left = Double(box.x)
        let width = Double(box.width)
        let firstBaseline = Double(box.y + box.height) + font * 1.25
        SheetDrawing.setColor(cairo, SheetDrawing.ink)
        let titleWidth = SheetDrawing.text(
            cairo, cell.title, x: left, baseline: firstBaseline, size: font * 1.1, bold: true, maxWidth: width)
        SheetDrawing.setColor(cairo, SheetDrawing.secondInk)
        SheetDrawing.text(
            cairo, cell.subtitle, x: left + titleWidth + font * 0.5, baseline: firstBaseline, size: font, bold: false,
            maxWidth: width - titleWidth - font * 0.5)
        if let detail = cell.detail {
            SheetDrawing.text(
                cairo, detail, x: left, baseline: firstBaseline + font * 1.2, size: font * 0.85, bold: false,
                maxWidth: width)
        }
    }
}

/// Drawing helpers shared by sheets and standalone thumbnails.
enum SheetDrawing {
    typealias Color = (red: Double, green: Double, blue: Double)
    static let background: Color = (0.91, 0.91, 0.90)
    static let ink: Color = (0.08, 0.08, 0.08)
    static let secondInk: Color = (0.25, 0.25, 0.25)
    static let pageEdge: Color = (0.45, 0.45, 0.45)
    static let frameInk: Color = (0.20, 0.20, 0.20)
    static let frameFill: Color = (0.98, 0.98, 0.98)

    static func setColor(_ cairo: OpaquePointer, _ color: Color) {
        cairo_set_source_rgb(cairo, color.red, color.green, color.blue)
    }

    /// A picture with a one-pixel edge just outside it, so a white page stands out
    /// from the sheet's background.
    static func drawFramed(_ picture: SheetPicture, in cairo: OpaquePointer, rect: PixelRect) throws(EngineError) {
        if case .frame = picture {
            draw(picture, in: cairo, rect: rect)
            return
        }
        setColor(cairo, pageEdge)
        cairo_rectangle(cairo, Double(rect.x) - 1, Double(rect.y) - 1, Double(rect.width) + 2, Double(rect.height) + 2)
        cairo_fill(cairo)
        if case .page(let image, let turns) = picture {
            let turned = turns % 4 == 0 ? image : try image.rotated(quarterTurns: turns)
            cairo_save(cairo)
            cairo_set_source_surface(cairo, turned.surface, Double(rect.x), Double(rect.y))
            cairo_rectangle(cairo, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
            cairo_fill(cairo)
            cairo_restore(cairo)
        } else {
            draw(picture, in: cairo, rect: rect)
        }
    }

    /// Blank pages and frames, filling `rect` (pages are painted by the caller).
    static func draw(_ picture: SheetPicture, in cairo: OpaquePointer, rect: PixelRect) {
        let x = Double(rect.x)
        let y = Double(rect.y)
        let width = Double(rect.width)
        let height = Double(rect.height)
        switch picture {
        case .page(let image, let turns):
            guard let turned = try? image.rotated(quarterTurns: turns) else { return }
            cairo_set_source_surface(cairo, turned.surface, x, y)
            cairo_paint(cairo)
        case .blank:
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_rectangle(cairo, x, y, width, height)
            cairo_fill(cairo)
            setColor(cairo, pageEdge)
            cairo_set_line_width(cairo, 1)
            cairo_rectangle(cairo, x + 0.5, y + 0.5, width - 1, height - 1)
            cairo_stroke(cairo)
        case .frame(_, _, let kind, let label):
            setColor(cairo, frameFill)
            cairo_rectangle(cairo, x, y, width, height)
            cairo_fill(cairo)
            let line = max(2, (min(width, height) / 60).rounded())
            let dash = [line * 4, line * 3]
            setColor(cairo, frameInk)
            cairo_set_line_width(cairo, line)
            cairo_set_dash(cairo, dash, Int32(dash.count), 0)
            cairo_rectangle(cairo, x + line / 2, y + line / 2, width - line, height - line)
            cairo_stroke(cairo)
            cairo_set_dash(cairo, nil, 0, 0)
            let font = min(20, max(9, (min(width, height) / 11).rounded()))
            let inner = width - 4 * line
            text(
                cairo, kind, x: x + 2 * line, baseline: y + 2 * line + font * 1.1, size: font * 0.85, bold: false,
                maxWidth: inner, centredIn: width - 4 * line, italic: true)
            if let label, !label.isEmpty {
                text(
                    cairo, label, x: x + 2 * line, baseline: y + 2 * line + font * 2.4, size: font, bold: true,
                    maxWidth: inner, centredIn: width - 4 * line)
            }
        }
    }

    /// Draws `string` at (`x`, `baseline`), shortened with "…" to fit `maxWidth`;
    /// centred in a span of `centredIn` pixels from `x` when given. Returns the width drawn.
    @discardableResult
    static func text(
        _ cairo: OpaquePointer, _ string: String, x: Double, baseline: Double, size: Double, bold: Bool,
        maxWidth: Double, centredIn span: Double? = nil, italic: Bool = false
    ) -> Double {
        guard maxWidth > 0, !string.isEmpty else { return 0 }
        cairo_select_font_face(
            cairo, "sans-serif", italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
            bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, size)
        var shown = string
        var width = advance(cairo, shown)
        if width > maxWidth {
            var characters = Array(string)
            while !characters.isEmpty {
                characters.removeLast()
                shown = String(characters).trimmingSpaces() + "…"
                width = advance(cairo, shown)
                if width <= maxWidth { break }
            }
            if characters.isEmpty { return 0 }
        }
        let start = span.map { x + max(0, ($0 - width) / 2) } ?? x
        cairo_move_to(cairo, start, baseline)
        cairo_show_text(cairo, shown)
        cairo_new_path(cairo)
        return width
    }

    /// The width `string` takes when drawn by `text` (measured on a scratch surface).
    static func measure(_ string: String, size: Double, bold: Bool) -> Double {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return 0 }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { return 0 }
        defer { cairo_destroy(cairo) }
        cairo_select_font_face(
            cairo, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, size)
        return advance(cairo, string)
    }

    private static func advance(_ cairo: OpaquePointer, _ string: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, string, &extents)
        return extents.x_advance
    }
}
