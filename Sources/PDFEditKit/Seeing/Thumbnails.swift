#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// The thumbnails written (``PageEditor/writeThumbnails(into:pages:document:size:force:)``,
/// `pdfedit thumbs`): one PNG per page. The JSON shape (`thumbs --json`) is
/// documented in docs/manual.md.
public struct ThumbnailsReport: Codable, Equatable, Sendable {
    /// One PNG written.
    public struct File: Codable, Equatable, Sendable {
        /// 1-based position in the document.
        public var position: Int
        /// The item's stable id.
        public var id: String
        /// page, blank, image or placeholder.
        public var kind: String
        /// The PNG's path.
        public var file: String
        /// Its size in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
    }
    /// The document drawn.
    public var document: String
    /// The folder the files went to.
    public var directory: String
    /// The side of each picture's box, in pixels.
    public var thumbnailSize: Int
    /// The files, in document order.
    public var files: [File]
    /// Pages rendered by this command, and pages taken from the thumbnail cache.
    public var rendered: Int
    /// Pages taken from the thumbnail cache.
    public var cached: Int
}

extension SessionView {
    /// `thumbs DIR [SEL]`: one PNG per item, `DIR/{n}-{id}.png`, where `{n}` is the
    /// item's position zero-padded to the width of the document's page count
    /// (`03-p3.png`), so the files sort in document order. Each picture fits in
    /// `size` × `size` pixels and shows the page as exported (its /Rotate and the
    /// item's rotation applied).
    package func thumbnails(
        into directory: String, selection: PageSelection?, doc: String?, size: Int, force: Bool,
        progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> ThumbnailsReport {
        try SeeingChecks.size(size)
        let session = try read()
        let access = SourceAccess(
            session: session, baseDirectory: store.baseDirectory, passwords: passwords,
            cacheDirectory: store.cacheDirectory)
        let (name, document, indices) = try itemsToShow(session, doc: doc, selection: selection, access: access)
        if let folder = Files.isFolder(directory), !folder {
            throw PDFEditError.engine(.cannotWrite(file: directory, reason: "exists and is not a directory"))
        }
        try ensureDirectory(directory)

        let width = String(document.items.count).count
        let targets = indices.map { index -> String in
            let number = String(index + 1)
            let file = String(repeating: "0", count: width - number.count) + number + "-\(document.items[index].id).png"
            return Paths.join(directory, file)
        }
        var checks = SeeingChecks.outputs(session: session, access: access, force: force, protected: store.ownFiles)
        for target in targets { try checks.check(target) }

        let renderer = PageRenderer(access: access, size: size, imagePDF: try imagePDFs(session: session, access: access))
        // One job per source page; a page shown by several items (copies) is rendered once.
        var pages: [SourcePage] = []
        var itemsOfPage: [[Int]] = []
        var jobOfPage: [SourcePage: Int] = [:]
        let sizes = Slots<(Int, Int)>(count: indices.count)
        for (slot, index) in indices.enumerated() {
            guard !document.items[index].isComposed, let page = SourcePage(document.items[index]) else { continue }
            if let job = jobOfPage[page] {
                itemsOfPage[job].append(slot)
            } else {
                jobOfPage[page] = pages.count
                pages.append(page)
                itemsOfPage.append([slot])
            }
        }
        let counter = ProgressCounter(total: indices.count, unit: "pages", phase: "rendering", handler: progress)
        // A page that no item turns is copied from the cache as it is, not decoded.
        let unturned = itemsOfPage.map { slots in slots.allSatisfy { document.items[indices[$0]].rotation == 0 } }
        let fileOnly: (Int) -> Bool = { unturned[$0] }
        try renderer.forEach(pages, access: access, progress: nil, fileOnly: fileOnly) {
            (job, picture) throws(PDFEditError) in
            for slot in itemsOfPage[job] {
                let item = document.items[indices[slot]]
                if case .cachedFile(let file) = picture {
                    try Self.copy(file, to: targets[slot])
                    sizes[slot] = Self.pngSize(targets[slot]) ?? (0, 0)
                } else {
                    let image = try picture.raster()
                    let turned: RasterImage
                    do throws(EngineError) {
                        turned = item.rotation == 0 ? image : try image.rotated(quarterTurns: item.rotation)
                    } catch {
                        throw PDFEditError.engine(error)
                    }
                    try SeeingChecks.write(turned, to: targets[slot])
                    sizes[slot] = (turned.width, turned.height)
                }
                counter.advance()
            }
        }
        // Items with stamps are composed apart (see `StampedRenderer`).
        let stampedSlots = indices.indices.filter { document.items[indices[$0]].isComposed }
        let stampTexts = OutputLabels.stampTexts(of: document, access: access)
        let stamped = StampedRenderer(access: access, size: size, texts: stampTexts)
        try stamped.prepare(
            stampedSlots.map { document.items[indices[$0]] }, access: access,
            imagePDF: imagePDFs(session: session, access: access))
        try stamped.forEach(stampedSlots.map { document.items[indices[$0]] }, pool: renderer.pool, progress: counter) {
            (job, image) throws(PDFEditError) in
            try SeeingChecks.write(image, to: targets[stampedSlots[job]])
            sizes[stampedSlots[job]] = (image.width, image.height)
        }
        for (slot, index) in indices.enumerated()
        where SourcePage(document.items[index]) == nil && !document.items[index].isComposed {
            let picture = access.picture(of: document.items[index])
            let image: RasterImage
            do throws(EngineError) {
                image = try RasterImage.picture(picture, fittingIn: size)
            } catch {
                throw PDFEditError.engine(error)
            }
            try SeeingChecks.write(image, to: targets[slot])
            sizes[slot] = (image.width, image.height)
            counter.advance()
        }
        StagedOutput.syncFolders(of: targets)
        let measured = sizes.removeAll()
        let files = indices.enumerated().map { slot, index in
            let item = document.items[index]
            return ThumbnailsReport.File(
                position: index + 1, id: item.id.description, kind: item.content.kindName, file: targets[slot],
                width: measured[slot]?.0 ?? 0, height: measured[slot]?.1 ?? 0)
        }
        return ThumbnailsReport(
            document: name, directory: directory, thumbnailSize: size, files: files,
            rendered: renderer.rendered + stamped.rendered, cached: renderer.cached + stamped.cached)
    }

    /// Copies a cached PNG into place atomically.
    static func copy(_ file: String, to target: String) throws(PDFEditError) {
        let staged = StagedOutput(target)
        try staged.copy(from: file)
        try staged.commit(syncFolder: false)
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ path: String) -> (Int, Int)? {
        guard let bytes = FileHead.read(path, upTo: 24), bytes.count == 24 else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
