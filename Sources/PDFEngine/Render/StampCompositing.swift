import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

extension RasterImage {
    /// A `width` × `height` image, white or (not `white`) transparent.
    package static func canvas(width: Int, height: Int, white: Bool) throws(EngineError) -> RasterImage {
        let image = try RasterImage(width: max(1, width), height: max(1, height), file: "thumbnail")
        if white {
            try image.drawing { cairo in
                cairo_set_source_rgb(cairo, 1, 1, 1)
                cairo_paint(cairo)
            }
        }
        return image
    }

    /// Draws page `index` of `pdf` onto this image (`poppler_page_render`, nothing
    /// painted where the page paints nothing): the page as a reader shows it (its
    /// own /Rotate applied), turned clockwise by `quarterTurns`, stretched to fill
    /// `rect` (which may reach past the image's edges), with its alpha multiplied
    /// by `opacity`, nothing outside `clip` (image pixels) when given (a resized
    /// page's frozen crop, a sheet's cell showing an item's crop). This is how
    /// stamps, resized pages and sheets' cells are composed.
    package func drawPage(
        _ pdf: PopplerPDF, page index: Int, in rect: (x: Double, y: Double, width: Double, height: Double),
        quarterTurns: Int = 0, opacity: Double = 1,
        clip: (x: Double, y: Double, width: Double, height: Double)? = nil, annotations: Bool = true
    ) throws(EngineError) {
        // As `PopplerPDF.render`: the page measured against the reader limits
        // before poppler decodes anything of it.
        try pdf.checkForReader(page: index)
        try pdf.reserveMemoryForImages(page: index)
        try SlowWork.during("drawing page \(index + 1) of \(pdf.path)") { () throws(EngineError) in
            try drawPage(
                pdf, checkedPage: index, in: rect, quarterTurns: quarterTurns, opacity: opacity, clip: clip,
                annotations: annotations)
        }
    }

    private func drawPage(
        _ pdf: PopplerPDF, checkedPage index: Int, in rect: (x: Double, y: Double, width: Double, height: Double),
        quarterTurns: Int, opacity: Double, clip: (x: Double, y: Double, width: Double, height: Double)?,
        annotations: Bool
    ) throws(EngineError) {
        try pdf.withPage(index) { (page) throws(EngineError) in
            var pageWidth = 0.0
            var pageHeight = 0.0
            poppler_page_get_size(page, &pageWidth, &pageHeight)
            guard pageWidth > 0, pageHeight > 0 else {
                throw EngineError.damaged(file: pdf.path, page: index + 1, detail: "page has no area")
            }
            let turns = ((quarterTurns % 4) + 4) % 4
            try drawing { (cairo) throws(EngineError) in
                if opacity < 1 { cairo_push_group(cairo) }
                cairo_save(cairo)
                if let clip {
                    cairo_rectangle(cairo, clip.x, clip.y, clip.width, clip.height)
                    cairo_clip(cairo)
                }
                cairo_translate(cairo, rect.x, rect.y)
                switch turns {
                case 1: cairo_translate(cairo, rect.width, 0)
                case 2: cairo_translate(cairo, rect.width, rect.height)
                case 3: cairo_translate(cairo, 0, rect.height)
                default: break
                }
                cairo_rotate(cairo, Double(turns) * Double.pi / 2)
                let (width, height) = turns % 2 == 1 ? (rect.height, rect.width) : (rect.width, rect.height)
                cairo_scale(cairo, width / pageWidth, height / pageHeight)
                if annotations {
                    poppler_page_render(page, cairo)
                } else {
                    // poppler-glib 22.12 leaves annotations out only when printing
                    // (`poppler_page_render_full` came later); form fields are
                    // drawn then, as on paper.
                    poppler_page_render_for_printing_with_options(page, cairo, POPPLER_PRINT_DOCUMENT)
                }
                cairo_restore(cairo)
                if opacity < 1 {
                    cairo_pop_group_to_source(cairo)
                    cairo_paint_with_alpha(cairo, opacity)
                }
                // Poppler's drawing returns nothing: a failure shows only in cairo's status.
                let status = cairo_status(cairo)
                guard status == CAIRO_STATUS_SUCCESS else {
                    throw EngineError.damaged(
                        file: pdf.path, page: index + 1,
                        detail: "rendering failed (cairo: \(String(cString: cairo_status_to_string(status))))")
                }
            }
        }
    }

    /// Draws a generated stamp's `text` onto this image as export places it: the
    /// box `width` × (`ascent` - `descent`) pixels (the standard font's metrics)
    /// centred on (`centreX`, `centreY`) (pixels from the top-left), turned
    /// `degrees` counter-clockwise, in black with `opacity`. Cairo's toy font of
    /// the same family stands in for the standard font, stretched to its width.
    package func drawText(
        _ text: String, font: StandardFont, width: Double, descent: Double, ascent: Double,
        centreX: Double, centreY: Double, degrees: Double, opacity: Double, colors: TextColors = TextColors()
    ) throws(EngineError) {
        guard !text.isEmpty, width > 0, ascent > descent else { return }
        let size = ascent - descent
        try drawing { cairo in
            if opacity < 1 { cairo_push_group(cairo) }
            cairo_save(cairo)
            cairo_translate(cairo, centreX, centreY)
            cairo_rotate(cairo, -degrees * Double.pi / 180)
            // The box (`padding` around the text) first: filled, then edged.
            let (boxWidth, boxHeight) = (width + 2 * colors.padding, size + 2 * colors.padding)
            if let (r, g, b) = colors.background {
                cairo_set_source_rgb(cairo, r, g, b)
                cairo_rectangle(cairo, -boxWidth / 2, -boxHeight / 2, boxWidth, boxHeight)
                cairo_fill(cairo)
            }
            if let (r, g, b) = colors.outline {
                cairo_set_source_rgb(cairo, r, g, b)
                cairo_set_line_width(cairo, colors.lineWidth)
                cairo_rectangle(cairo, -boxWidth / 2, -boxHeight / 2, boxWidth, boxHeight)
                cairo_stroke(cairo)
            }
            cairo_select_font_face(cairo, font.cairoFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            // The font size whose em the box's height stands for (metrics in thousandths).
            cairo_set_font_size(cairo, size * 1000 / (font.ascender - font.descender))
            var extents = cairo_text_extents_t()
            cairo_text_extents(cairo, text, &extents)
            if extents.x_advance > 0 { cairo_scale(cairo, width / extents.x_advance, 1) }
            let advance = extents.x_advance > 0 ? extents.x_advance : width
            // The box's centre is (ascent + descent) / 2 above the baseline.
            cairo_move_to(cairo, -advance / 2, (ascent + descent) / 2)
            cairo_set_source_rgb(cairo, colors.text.red, colors.text.green, colors.text.blue)
            cairo_show_text(cairo, text)
            cairo_new_path(cairo)
            cairo_restore(cairo)
            if opacity < 1 {
                cairo_pop_group_to_source(cairo)
                cairo_paint_with_alpha(cairo, opacity)
            }
        }
    }
}

/// The colours a generated text is drawn with on a thumbnail (RGB, 0…1): its
/// own, and a box `padding` pixels around it filled and edged (`lineWidth`).
package struct TextColors {
    package var text: (red: Double, green: Double, blue: Double) = (0, 0, 0)
    package var background: (red: Double, green: Double, blue: Double)?
    package var outline: (red: Double, green: Double, blue: Double)?
    package var padding = 0.0
    package var lineWidth = 0.0

    package init(
        text: (red: Double, green: Double, blue: Double) = (0, 0, 0),
        background: (red: Double, green: Double, blue: Double)? = nil,
        outline: (red: Double, green: Double, blue: Double)? = nil, padding: Double = 0, lineWidth: Double = 0
    ) {
        self.text = text
        self.background = background
        self.outline = outline
        self.padding = padding
        self.lineWidth = lineWidth
    }
}

extension StandardFont {
    /// The fontconfig family cairo's toy text API draws in its place.
    fileprivate var cairoFamily: String {
        switch self {
        case .helvetica: "sans-serif"
        case .times: "serif"
        case .courier: "monospace"
        }
    }
}
