#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

// MARK: Pages as images

extension PageEditor {
    /// Draws a document (nil: the current one), or the selected pages of it,
    /// into image files: what `pdfedit render` writes.
    ///
    /// Each item becomes one picture, drawn as `pdfedit show` draws it
    /// (poppler through cairo; its rotation, crop, resize, stamps; a blank page
    /// white, a placeholder as a labelled frame), on every core. `pattern` is
    /// `FOLDER/NAME`, the folder made if needed; NAME takes the fields of
    /// ``writeParts(into:grouping:name:outlineLevel:maximumBytes:document:pages:settings:)``
    /// but `{title}`: `{n}` (the image's number, zero-padded), `{first}` and
    /// `{last}` (its position), `{id}`, `{doc}`, `{src}`, `{srcpage}`. Several
    /// pages need a field in NAME, except in TIFF, where the pages given one
    /// name are the pages of one file. The format is `settings.format`, or the
    /// name's extension. Each file is written atomically; one that exists is
    /// replaced only with `settings.force`, and never a file the editor reads.
    /// An empty document is refused (`.notExportable`), and so is a source
    /// that changed on disk since it was read (`.sourceChanged`).
    ///
    /// ```swift
    /// var settings = RenderSettings()
    /// settings.resolution = .width(800)
    /// let result = try editor.render(to: "previews/{id}.jpg", pages: .pages(1...3), settings: settings)
    /// print(result.files)
    /// ```
    @discardableResult
    public func render(
        to pattern: String, document: String? = nil, pages: PageSelection? = nil,
        settings: RenderSettings = RenderSettings()
    ) throws(PDFEditError) -> RenderResult {
        let session = session
        let access = access
        let seeing = self.view
        let (_, chosen, indices) = try seeing.itemsToShow(session, doc: document, selection: pages, access: access)
        let images = PageImages(
            session: session, access: access, protected: protectedFiles,
            imagePDF: try seeing.imagePDFs(session: session, access: access))
        return try access.surfacingLookupFailure { () throws(PDFEditError) in
            try images.render(
                indices.map { chosen.items[$0] }, positions: indices.map { $0 + 1 }, document: chosen,
                pattern: pattern, settings: settings)
        }
    }
}
