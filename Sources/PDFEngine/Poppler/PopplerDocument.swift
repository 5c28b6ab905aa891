import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A PDF opened through poppler-glib, for what qpdf cannot do: text, labels, rendering.
///
/// Owns its `PopplerDocument*` (released with `g_object_unref` in `deinit`). Not
/// `Sendable`: parallel rendering opens one document per worker.
package final class PopplerPDF {
    let handle: OpaquePointer
    package let path: String
    /// What a page may make poppler decode, checked through qpdf before poppler
    /// reads or draws it (`checkForReader`); nil: unchecked.
    let limits: ReaderLimits?
    let password: String?
    /// The bridge's opening of the file for those checks, made on first need.
    var checker: OpenedPDF?
    var checkedPages: Set<Int> = []
    /// What each checked page costs to draw.
    var pageChecks: [Int: PageCheck] = [:]

    /// `poppler_document_new_from_file`. Poppler wants a URI, and
    /// `g_filename_to_uri` rejects relative paths, so the path is made absolute first
    /// — by prefixing the current directory, never by folding `..` as text, which
    /// would name another file than the kernel (and qpdf) reach through a link.
    package init(path: String, password: String? = nil, limits: ReaderLimits? = nil) throws(EngineError) {
        self.path = path
        self.limits = limits
        self.password = password
        let absolute = path.hasPrefix("/") ? path : FileNames.currentDirectory + "/" + path
        var error: UnsafeMutablePointer<GError>?
        guard let uri = FileNames.withCString(absolute, { g_filename_to_uri($0, nil, &error) }) else {
            throw EngineError.library(file: path, message: Self.take(error) ?? "not a valid file name")
        }
        defer { g_free(uri) }
        guard let document = poppler_document_new_from_file(uri, password, &error) else {
            let encrypted = error.map { $0.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) } ?? false
            let message = Self.take(error) ?? "poppler could not open the file"
            if encrypted {
                throw EngineError.password(file: path, given: password != nil)
            }
            throw EngineError.damaged(file: path, page: nil, detail: message)
        }
        handle = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Copies a GError's message and frees it.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }

    package var pageCount: Int { Int(poppler_document_get_n_pages(handle)) }

    /// Runs `body` with the page at 0-based `index`, released afterwards. Page
    /// numbers come from qpdf's view of the file; a page poppler does not have (it
    /// gave up on the page tree, or on the page: /Annots not an array, a huge
    /// /Count) is an unreadable page of a damaged file, named.
    func withPage<T>(_ index: Int, _ body: (OpaquePointer) throws(EngineError) -> T) throws(EngineError) -> T {
        guard index >= 0, index <= Int(Int32.max) else {
            throw EngineError.pageOutOfRange(file: path, page: index + 1, pageCount: pageCount)
        }
        guard index < pageCount, let page = poppler_document_get_page(handle, Int32(index)) else {
            throw EngineError.damaged(file: path, page: index + 1, detail: "poppler cannot read this page")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return try body(page)
    }

    /// The page size as poppler reports it: width and height swapped for /Rotate 90/270.
    package func pageSize(_ index: Int) throws(EngineError) -> (width: Double, height: Double) {
        try withPage(index) { page in
            var width = 0.0
            var height = 0.0
            poppler_page_get_size(page, &width, &height)
            return (width, height)
        }
    }

    /// All text of a page in reading order (`poppler_page_get_text`).
    package func text(ofPage index: Int) throws(EngineError) -> String {
        try checkForReader(page: index)
        return try SlowWork.during("reading the text of page \(index + 1) of \(path)") { () throws(EngineError) in
            try withPage(index) { page in
                guard let text = poppler_page_get_text(page) else { return "" }
                defer { g_free(text) }
                return String(cString: text)
            }
        }
    }

    /// Renders a page on white so that it fits in `maxPixels` × `maxPixels`,
    /// with the page's own /Rotate applied (as a reader shows it).
    package func render(page index: Int, fittingIn maxPixels: Int) throws(EngineError) -> RasterImage {
        let (width, height) = try pageSize(index)
        guard width > 0, height > 0 else {
            throw EngineError.damaged(file: path, page: index + 1, detail: "page has no area")
        }
        let scale = Double(maxPixels) / max(width, height)
        return try render(page: index, scale: scale)
    }

    /// A failure point for tests: with `PDFEDIT_TEST_FAIL_RENDER=1` every render
    /// ends with cairo in an error state, as one that ran out of memory does.
    static let failingRenders = EnvironmentVariables.process["PDFEDIT_TEST_FAIL_RENDER"] == "1"

    /// Renders a page at `scale` pixels per point.
    package func render(page index: Int, scale: Double) throws(EngineError) -> RasterImage {
        try checkForReader(page: index)
        try reserveMemoryForImages(page: index)
        return try SlowWork.during("drawing page \(index + 1) of \(path)") { () throws(EngineError) in
            try draw(page: index, scale: scale)
        }
    }

    private func draw(page index: Int, scale: Double) throws(EngineError) -> RasterImage {
        try withPage(index) { (page) throws(EngineError) -> RasterImage in
            var width = 0.0
            var height = 0.0
            poppler_page_get_size(page, &width, &height)
            let image = try RasterImage(measuredWidth: width * scale, height: height * scale, file: path, page: index + 1)
            let cairo = cairo_create(image.surface)
            defer { cairo_destroy(cairo) }
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_paint(cairo)
            cairo_scale(cairo, scale, scale)
            poppler_page_render(page, cairo)
            if Self.failingRenders { cairo_restore(cairo) }  // unbalanced: puts `cairo` in an error state
            cairo_surface_flush(image.surface)
            // poppler_page_render returns nothing: a drawing that failed (out of
            // memory, an invalid matrix) shows only in cairo's status, and the
            // picture is then blank or partial, never to be shown or cached.
            var status = cairo_status(cairo)
            if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(image.surface) }
            guard status == CAIRO_STATUS_SUCCESS else {
                throw EngineError.damaged(
                    file: path, page: index + 1,
                    detail: "rendering failed (cairo: \(String(cString: cairo_status_to_string(status))))")
            }
            return image
        }
    }
}
