import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PopplerPDF {
    /// `--repair`: every page of this document drawn through poppler onto a cairo
    /// PDF surface (`cairo_pdf_surface_create`, `poppler_page_render_for_printing`)
    /// written to `output`, for a file qpdf refuses as damaged beyond repair that
    /// poppler still reads. Vector content, images and text (re-embedded fonts)
    /// are kept; annotations, links, bookmarks, form fields and the structure tree
    /// are not. Each page keeps its size as displayed (its /Rotate applied). A page
    /// poppler cannot read fails the repair, naming it.
    package func redraw(to output: String) throws(EngineError) {
        let count = pageCount
        guard count > 0 else { throw EngineError.damaged(file: path, page: nil, detail: "poppler finds no pages either") }
        let (firstWidth, firstHeight) = try pageSize(0)
        guard let surface = FileNames.withCString(output, { cairo_pdf_surface_create($0, firstWidth, firstHeight) })
        else {
            throw EngineError.cannotWrite(file: output, reason: "cairo could not make a PDF surface")
        }
        defer { cairo_surface_destroy(surface) }
        for index in 0..<count {
            let (width, height) = try pageSize(index)
            guard width > 0, height > 0, width.isFinite, height.isFinite else {
                throw EngineError.damaged(file: path, page: index + 1, detail: "page has no area")
            }
            cairo_pdf_surface_set_size(surface, width, height)
            let cairo = cairo_create(surface)
            defer { cairo_destroy(cairo) }
            try withPage(index) { page in poppler_page_render_for_printing(page, cairo) }
            cairo_show_page(cairo)
            let status = cairo_status(cairo)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw EngineError.damaged(
                    file: path, page: index + 1,
                    detail: "cannot redraw: " + String(cString: cairo_status_to_string(status)))
            }
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.cannotWrite(file: output, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}
