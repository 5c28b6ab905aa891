import CPoppler

/// A cairo ARGB32 image surface, destroyed in `deinit`.
package final class RasterImage {
    let surface: OpaquePointer
    package let width: Int
    package let height: Int

    /// The widest or tallest image cairo makes (`cairo_image_surface_create`
    /// refuses more; the sizes are C ints).
    package static let maximumSide = 32_767

    /// `cairo_image_surface_create`. A size cairo cannot make is refused
    /// (`.overLimit`) before the call, never converted with a trap.
    init(width: Int, height: Int, file: String) throws(EngineError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw EngineError.overLimit(
                file: file, page: nil,
                what: "an image of \(width) x \(height) pixels (at most \(Self.maximumSide) on a side)")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw EngineError.library(file: file, message: "cannot allocate a \(width)x\(height) image")
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// `width` × `height` pixels given as sizes in pixels that may come from a
    /// file (a page's size times a scale): the one conversion from a measured size
    /// to a pixel count, rounded, at least 1, and refused (`.overLimit`) when it
    /// is not finite or over `maximumSide` — never converted with a trap (a page
    /// side of 2^128 points, rendered at 36 dpi, trapped `remove empty`).
    convenience init(measuredWidth width: Double, height: Double, file: String, page: Int? = nil) throws(EngineError) {
        guard let columns = Self.pixels(width), let rows = Self.pixels(height) else {
            throw EngineError.overLimit(
                file: file, page: page,
                what: "a picture of \(width.rounded()) x \(height.rounded()) pixels (at most \(Self.maximumSide) on a side)")
        }
        try self.init(width: columns, height: rows, file: file)
    }

    /// `measured` rounded to a pixel count of at least 1, or nil when it is not
    /// finite or over `maximumSide`.
    package static func pixels(_ measured: Double) -> Int? {
        guard measured.isFinite, measured < Double(maximumSide) + 0.5 else { return nil }
        return max(1, Int(measured.rounded()))
    }

    deinit { cairo_surface_destroy(surface) }

    /// `cairo_surface_write_to_png`; the caller chooses the (temporary) path.
    package func writePNG(to path: String) throws(EngineError) {
        let status = FileNames.withCString(path) { cairo_surface_write_to_png(surface, $0) }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.cannotWrite(file: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }

    /// The pixel at (x, y) as 0xRRGGBB (alpha ignored; pages are rendered on white).
    package func rgb(x: Int, y: Int) -> UInt32 {
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface), x >= 0, y >= 0, x < width, y < height else { return 0 }
        let pixel = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return pixel & 0x00FF_FFFF
    }
}

extension RasterImage {
    /// A pixel rectangle, inclusive on both ends.
    package typealias PixelArea = (x0: Int, y0: Int, x1: Int, y1: Int)

    /// The smallest pixel rectangle (inclusive x0, y0, x1, y1) holding every
    /// pixel darker than `luminance` (see `forEachDarkPixel`) inside `area`
    /// (the whole image when nil); nil when there is none.
    package func darkBounds(below luminance: Int, in area: PixelArea? = nil) -> PixelArea? {
        var found: PixelArea?
        forEachDarkPixel(below: luminance, in: area) { x, y in
            if let box = found {
                found = (min(box.x0, x), min(box.y0, y), max(box.x1, x), max(box.y1, y))
            } else {
                found = (x, y, x, y)
            }
        }
        return found
    }

    /// How many pixels inside `area` (the whole image when nil) are darker
    /// than `luminance`, and how many pixels the area holds.
    package func darkPixelCount(below luminance: Int, in area: PixelArea? = nil) -> (dark: Int, total: Int) {
        var dark = 0
        forEachDarkPixel(below: luminance, in: area) { _, _ in dark += 1 }
        guard let clipped = clipped(area) else { return (0, 0) }
        return (dark, (clipped.x1 - clipped.x0 + 1) * (clipped.y1 - clipped.y0 + 1))
    }

    private func clipped(_ area: PixelArea?) -> PixelArea? {
        let x0 = max(0, area?.x0 ?? 0)
        let y0 = max(0, area?.y0 ?? 0)
        let x1 = min(width - 1, area?.x1 ?? width - 1)
        let y1 = min(height - 1, area?.y1 ?? height - 1)
        guard x0 <= x1, y0 <= y1 else { return nil }
        return (x0, y0, x1, y1)
    }

    /// THE test of a dark pixel: its luminance (0…255, Rec. 601 weights) below
    /// `luminance`. Calls `body` with each such pixel inside `area`, row by row.
    private func forEachDarkPixel(below luminance: Int, in area: PixelArea?, _ body: (Int, Int) -> Void) {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface), let area = clipped(area) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let limit = luminance * 1000
        for y in area.y0...area.y1 {
            let row = data.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in area.x0...area.x1 {
                let pixel = Int(row[x])
                let red = (pixel >> 16) & 0xFF
                let green = (pixel >> 8) & 0xFF
                let blue = pixel & 0xFF
                if red * 299 + green * 587 + blue * 114 < limit { body(x, y) }
            }
        }
    }
}

extension RasterImage {
    /// A rectangle in pixels from the image's top-left corner, y downward.
    package typealias PaintedRect = (x: Double, y: Double, width: Double, height: Double)

    /// Paints `rects` in one colour with cairo: filled (to whole pixels, so
    /// that no pixel inside is blended with what was there), or outlined
    /// `outline` pixels wide, centred on their edges.
    package func paint(_ rects: [PaintedRect], red: Double, green: Double, blue: Double, outline: Double? = nil) {
        guard !rects.isEmpty, let context = cairo_create(surface) else { return }
        defer {
            cairo_destroy(context)
            cairo_surface_flush(surface)
        }
        cairo_surface_flush(surface)
        cairo_set_source_rgb(context, red, green, blue)
        for rect in rects {
            if outline != nil {
                cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
            } else {
                let x0 = (rect.x).rounded(.down)
                let y0 = (rect.y).rounded(.down)
                cairo_rectangle(context, x0, y0, (rect.x + rect.width).rounded(.up) - x0, (rect.y + rect.height).rounded(.up) - y0)
            }
        }
        if let outline {
            cairo_set_line_width(context, outline)
            cairo_stroke(context)
        } else {
            cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
            cairo_fill(context)
        }
        cairo_surface_mark_dirty(surface)
    }
}
