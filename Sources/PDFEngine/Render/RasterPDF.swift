import CPoppler
import ImageCodecs

/// An image-only PDF (`export --rasterize`): each page one picture on a page
/// of the size given, written by cairo's PDF surface (Flate-compressed images,
/// DeviceGray when every pixel is gray, which cairo finds itself). Nothing of
/// the pages' text, links or annotations is in it.
package final class RasterPDF {
    private let surface: OpaquePointer
    private let path: String

    /// Creates the file at `path` (the caller's temporary).
    package init(path: String) throws(EngineError) {
        self.path = path
        guard let surface = FileNames.withCString(path, { cairo_pdf_surface_create($0, 612, 792) }),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw EngineError.cannotWrite(file: path, reason: "cairo could not make a PDF surface")
        }
        self.surface = surface
    }

    deinit { cairo_surface_destroy(surface) }

    /// Appends a page `width` × `height` points showing `image` from its top-left
    /// corner at `dpi` (its last row and column, rounded up, may reach past the
    /// page's edge, as a rendering's do); `gray` turns the image gray first (it
    /// is changed).
    package func add(_ image: RasterImage, width: Double, height: Double, dpi: Double, gray: Bool) throws(EngineError) {
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw EngineError.cannotWrite(file: path, reason: "a page of \(width) x \(height) points")
        }
        if gray {
            cairo_surface_flush(image.surface)
            if let data = cairo_image_surface_get_data(image.surface) {
                pe_pixels_gray_in_place(
                    data, Int32(image.width), Int32(image.height), cairo_image_surface_get_stride(image.surface))
            }
            cairo_surface_mark_dirty(image.surface)
        }
        cairo_pdf_surface_set_size(surface, width, height)
        guard let cairo = cairo_create(surface) else {
            throw EngineError.cannotWrite(file: path, reason: "cairo could not draw")
        }
        defer { cairo_destroy(cairo) }
        cairo_scale(cairo, 72 / dpi, 72 / dpi)
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        cairo_paint(cairo)
        cairo_show_page(cairo)
        let status = cairo_status(cairo)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.cannotWrite(file: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }

    /// Writes the rest of the file and closes it.
    package func finish() throws(EngineError) {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.cannotWrite(file: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}
