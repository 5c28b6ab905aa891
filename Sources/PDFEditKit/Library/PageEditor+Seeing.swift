#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

// MARK: Contact sheets and thumbnails

extension PageEditor {
    /// Draws contact sheets of a document (nil: the current one), or of the
    /// selected pages of it, as PNG files: what `pdfedit show -o OUT` writes.
    ///
    /// Each thumbnail shows the page as ``write(to:document:pages:settings:)-3v0ab``
    /// writes it (its own rotation and the item's, its crop, its stamps), captioned
    /// with its position and id, then its source page, label and rotation; a blank
    /// page is outlined, a placeholder a dashed frame with its label. One sheet
    /// holds at most `options.perSheet` pages: one sheet is written at `url`,
    /// more as its name + `-1`, `-2`… (`sheet-1.png`). An existing file is
    /// replaced only with `options.force`, and never a file the editor reads.
    ///
    /// - Throws: ``PDFEditError``: options out of range or a name not ending in
    ///   `.png` (`.usage`), an empty document (`.notExportable`), a source that
    ///   changed on disk (`.sourceChanged`).
    @discardableResult
    public func writeContactSheets(
        to url: URL, pages: PageSelection? = nil, document: String? = nil, options: SheetOptions = SheetOptions()
    ) throws(PDFEditError) -> SheetReport {
        try writeContactSheets(toPath: url.path, pages: pages, document: document, options: options)
    }

    /// ``writeContactSheets(to:pages:document:options:)`` with the path as the
    /// command line gives it (messages name it so), and its progress.
    package func writeContactSheets(
        toPath output: String, pages: PageSelection?, document: String?, options: SheetOptions,
        progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> SheetReport {
        try view.contactSheets(to: output, selection: pages, doc: document, options: options, progress: progress)
    }

    /// The contact sheets of ``writeContactSheets(to:pages:document:options:)``
    /// as the bytes of PNG images, one per sheet, in order.
    public func contactSheets(
        pages: PageSelection? = nil, document: String? = nil, options: SheetOptions = SheetOptions()
    ) throws(PDFEditError) -> [Data] {
        var options = options
        options.force = true
        let folder = try freshFolder("sheets")
        defer { Files.removeTree(folder) }
        let report = try writeContactSheets(
            toPath: Paths.join(folder, "sheet.png"), pages: pages, document: document, options: options)
        return try report.sheets.map { (sheet) throws(PDFEditError) in try Self.readBack(sheet.file) }
    }

    /// Draws each page of a document (nil: the current one), or each selected
    /// page, as one PNG in `folder` (made if needed), fitting in `size` x `size`
    /// pixels (16 to 4000): what `pdfedit thumbs DIR` writes. Files are named
    /// `{n}-{id}.png`, the position zero-padded to the width of the page count
    /// (`03-p3.png`), so they sort in document order; each shows the page as
    /// ``write(to:document:pages:settings:)-3v0ab`` writes it. An existing
    /// file is replaced only with `force`.
    @discardableResult
    public func writeThumbnails(
        into folder: URL, pages: PageSelection? = nil, document: String? = nil, size: Int = 200, force: Bool = false
    ) throws(PDFEditError) -> ThumbnailsReport {
        try writeThumbnails(intoPath: folder.path, pages: pages, document: document, size: size, force: force)
    }

    /// ``writeThumbnails(into:pages:document:size:force:)`` with the folder as
    /// the command line gives it, and its progress.
    package func writeThumbnails(
        intoPath folder: String, pages: PageSelection?, document: String?, size: Int, force: Bool,
        progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> ThumbnailsReport {
        try view.thumbnails(
            into: folder, selection: pages, doc: document, size: size, force: force, progress: progress)
    }

    /// The thumbnails of ``writeThumbnails(into:pages:document:size:force:)`` as
    /// the bytes of PNG images, one per page, in document order.
    public func thumbnails(pages: PageSelection? = nil, document: String? = nil, size: Int = 200)
        throws(PDFEditError) -> [Data]
    {
        let folder = try freshFolder("thumbnails")
        defer { Files.removeTree(folder) }
        let report = try writeThumbnails(intoPath: folder, pages: pages, document: document, size: size, force: true)
        return try report.files.map { (file) throws(PDFEditError) in try Self.readBack(file.file) }
    }

    /// A new folder in the editor's temporary folder.
    private func freshFolder(_ stem: String) throws(PDFEditError) -> String {
        let folder = Paths.join(try scratch.path(), "\(stem)-\(UInt64.random(in: 0...UInt64.max))")
        if Files.makeFolders(folder) != nil {
            throw PDFEditError.engine(.cannotWrite(file: folder, reason: "cannot create the folder"))
        }
        return folder
    }

    /// The bytes of a file the editor wrote.
    private static func readBack(_ path: String) throws(PDFEditError) -> Data {
        guard let bytes = Files.contents(path) else {
            throw PDFEditError.engine(.unreadable(file: path, reason: "cannot read it back"))
        }
        return Data(bytes)
    }
}
