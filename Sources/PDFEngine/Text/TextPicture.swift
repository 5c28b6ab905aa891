import CPango
import CPoppler
import Glibc
import PageModel

/// A generated stamp's text drawn by Pango, for the texts the standard fonts
/// cannot say (outside WinAnsi) or that name a font of their own: shaped by
/// HarfBuzz (right-to-left runs, combining marks, ligatures, CJK), its font
/// found by fontconfig (a family with fontconfig's `:bold` style words, or a
/// font file), missing characters taken from fontconfig's fallback fonts.
///
/// The same layout is drawn two ways: onto a cairo PDF surface (`writePDF`,
/// which embeds each font as a subset with a ToUnicode map; export places
/// each page as a form XObject) and onto a thumbnail (`draw`), so `show`
/// draws the real font. Hinting is off in both: the glyph advances, and so the
/// box, do not depend on the surface.
package struct TextPicture: Hashable, Sendable {
    /// The font: a fontconfig pattern (`"DejaVu Serif:bold"`, `"sans-serif"`)
    /// or a font file (TrueType, OpenType), by absolute path.
    package enum Font: Hashable, Sendable {
        case pattern(String)
        case file(String)
    }

    package var text: String
    package var font: Font
    /// The font size in points.
    package var size: Double
    /// The text's colour (nil: black), a box `padding` points around it filled
    /// with `background` and edged with `outline`. cairo writes RGB only: a CMYK
    /// colour is drawn as its naive RGB (`TextColor.rgb`).
    package var color: TextColor?
    package var background: TextColor?
    package var outline: TextColor?
    package var padding = 0.0

    package init(text: String, font: Font, size: Double) {
        self.text = text
        self.font = font
        self.size = size
    }

    /// The smallest side a picture's page has (an empty text still makes a page).
    static let minimumSide = 1.0
}

extension TextPicture {
    /// The box the text fills (Pango's logical extents: the line's height,
    /// the advance of its glyphs) and `padding` around it, in points; each
    /// side at least `minimumSide`.
    package func box() throws(EngineError) -> PageSize {
        let setter = try Typesetter(font: font)
        let layout = try setter.layout(self)
        defer { g_object_unref(UnsafeMutableRawPointer(layout.pointer)) }
        return padded(layout.size)
    }

    func padded(_ size: PageSize) -> PageSize {
        PageSize(width: size.width + 2 * padding, height: size.height + 2 * padding)
    }

    /// Draws the box, then the text `padding` inside it, on `cairo` from its origin.
    fileprivate func paint(_ layout: LaidOut, on cairo: OpaquePointer) {
        let whole = padded(layout.size)
        if let background {
            let (r, g, b) = background.rgb
            cairo_set_source_rgb(cairo, r, g, b)
            cairo_rectangle(cairo, 0, 0, whole.width, whole.height)
            cairo_fill(cairo)
        }
        if let outline {
            let (r, g, b) = outline.rgb
            let width = size / 20
            cairo_set_source_rgb(cairo, r, g, b)
            cairo_set_line_width(cairo, width)
            cairo_rectangle(cairo, width / 2, width / 2, whole.width - width, whole.height - width)
            cairo_stroke(cairo)
        }
        let (r, g, b) = color?.rgb ?? (0, 0, 0)
        cairo_set_source_rgb(cairo, r, g, b)
        cairo_save(cairo)
        cairo_translate(cairo, padding, padding)
        layout.show(on: cairo)
        cairo_restore(cairo)
    }

    /// Writes one PDF page per picture to `path`, each page the size of its
    /// text's box (`box()`), the text from the page's top-left corner:
    /// one cairo PDF surface, so a font the texts share is one subset. No date
    /// or other varying data is written: the same pictures give the same bytes.
    package static func writePDF(_ pictures: [TextPicture], to path: String) throws(EngineError) -> [PageSize] {
        let sink = ByteSink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        guard let surface = cairo_pdf_surface_create_for_stream(collectBytes, context, 1, 1) else {
            throw EngineError.library(file: path, message: "cairo could not make a PDF surface")
        }
        defer { cairo_surface_destroy(surface) }
        // Without a date of its own cairo 1.16 writes the time of the run.
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
        guard let cairo = cairo_create(surface) else {
            throw EngineError.library(file: path, message: "cairo could not draw on a PDF surface")
        }
        var sizes: [PageSize] = []
        var setters: [Font: Typesetter] = [:]
        do throws(EngineError) {
            for picture in pictures {
                let setter: Typesetter
                if let known = setters[picture.font] {
                    setter = known
                } else {
                    setter = try Typesetter(font: picture.font)
                    setters[picture.font] = setter
                }
                let layout = try setter.layout(picture)
                defer { g_object_unref(UnsafeMutableRawPointer(layout.pointer)) }
                let page = picture.padded(layout.size)
                cairo_pdf_surface_set_size(surface, page.width, page.height)
                picture.paint(layout, on: cairo)
                cairo_show_page(cairo)
                sizes.append(page)
            }
        } catch {
            cairo_destroy(cairo)
            throw error
        }
        cairo_destroy(cairo)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.library(file: path, message: String(cString: cairo_status_to_string(status)))
        }
        if let failure = sink.bytes.withUnsafeBytes({ Files.create(path, holding: $0, exclusive: true, mode: 0o600) }) {
            throw EngineError.cannotWrite(file: path, reason: failure.description)
        }
        return sizes
    }

    /// Draws the text (and its box) onto `cairo` (a cairo context of any
    /// surface) with the box's top-left corner at the current origin.
    package func draw(on cairo: OpaquePointer) throws(EngineError) {
        let setter = try Typesetter(font: font)
        let layout = try setter.layout(self)
        defer { g_object_unref(UnsafeMutableRawPointer(layout.pointer)) }
        paint(layout, on: cairo)
    }
}

/// The bytes a cairo stream surface writes.
private final class ByteSink {
    var bytes: [UInt8] = []
}

private let collectBytes: cairo_write_func_t = { context, data, length in
    guard let context, let data else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<ByteSink>.fromOpaque(context).takeUnretainedValue()
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
}

/// A laid-out text (a `PangoLayout`, released by its user) and its box.
private struct LaidOut {
    let pointer: OpaquePointer
    let size: PageSize
    /// Where Pango's logical rectangle starts, in points.
    let originX: Double
    let originY: Double

    func show(on cairo: OpaquePointer) {
        cairo_save(cairo)
        cairo_move_to(cairo, -originX, -originY)
        pango_cairo_show_layout(cairo, pointer)
        cairo_restore(cairo)
    }
}

/// A Pango context for one font: the thread's default font map (fontconfig's
/// configuration as the system has it) for a pattern, a private font map
/// holding the file for a font file — nothing process-wide is changed.
private final class Typesetter {
    private let context: OpaquePointer
    private let description: OpaquePointer
    private var ownedMap: UnsafeMutablePointer<PangoFontMap>?

    init(font: TextPicture.Font) throws(EngineError) {
        let map: UnsafeMutablePointer<PangoFontMap>
        let pattern: OpaquePointer
        switch font {
        case .pattern(let text):
            guard let parsed = FcNameParse(text) else {
                throw EngineError.unreadable(file: text, reason: "not a font name fontconfig understands")
            }
            pattern = parsed
            map = pango_cairo_font_map_get_default()
        case .file(let path):
            var count: Int32 = 0
            guard let queried = FcFreeTypeQuery(path, 0, nil, &count) else {
                throw EngineError.unreadable(file: path, reason: "not a font file FreeType can read")
            }
            pattern = queried
            guard let config = FcInitLoadConfigAndFonts() else {
                FcPatternDestroy(pattern)
                throw EngineError.library(file: path, message: "fontconfig could not load its configuration")
            }
            defer { FcConfigDestroy(config) }
            guard FcConfigAppFontAddFile(config, path) != 0,
                let made = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
            else {
                FcPatternDestroy(pattern)
                throw EngineError.unreadable(file: path, reason: "not a font file fontconfig can use")
            }
            pango_fc_font_map_set_config(OpaquePointer(made), config)
            map = made
            ownedMap = made
        }
        description = pango_fc_font_description_from_pattern(pattern, 0)
        FcPatternDestroy(pattern)
        context = pango_font_map_create_context(map)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        pango_font_description_free(description)
        if let ownedMap { g_object_unref(UnsafeMutableRawPointer(ownedMap)) }
    }

    func layout(_ picture: TextPicture) throws(EngineError) -> LaidOut {
        guard let layout = pango_layout_new(context) else {
            throw EngineError.library(file: picture.text, message: "Pango could not lay the text out")
        }
        let sized = pango_font_description_copy(description)
        pango_font_description_set_absolute_size(sized, picture.size * 1024)
        pango_layout_set_font_description(layout, sized)
        pango_font_description_free(sized)
        pango_layout_set_text(layout, picture.text, -1)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = 1.0 / 1024
        return LaidOut(
            pointer: layout,
            size: PageSize(
                width: max(TextPicture.minimumSide, Double(logical.width) * scale),
                height: max(TextPicture.minimumSide, Double(logical.height) * scale)),
            originX: Double(logical.x) * scale, originY: Double(logical.y) * scale)
    }
}
