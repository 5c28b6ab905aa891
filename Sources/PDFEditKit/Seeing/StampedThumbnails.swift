import Foundation
internal import PDFEngine
import PageModel

/// Thumbnails of items that have stamps, composed as export draws them: a white
/// page, the stamps that go under it, the page's own content (rendered on a
/// transparent background, turned by the item's rotation), then the stamps that go
/// over it — each centred on the page as displayed and upright, at its own size or
/// fitted, with its opacity.
///
/// A composed thumbnail is cached as `thumbs/v1/stamped/<key>-<px>.png`, keyed by
/// everything it shows (the page's and every stamp file's SHA-256, pages, rotation,
/// stamp options), so a stamp or an unstamp never shows a stale picture while plain
/// pages keep their own cache entries.
final class StampedRenderer: @unchecked Sendable {
    private struct StampDrawing {
        var document: String
        /// 0-based page in that document.
        var page: Int
        /// The stamp page as its reader shows it, in points.
        var size: PageSize
        var under: Bool
        var fit: Bool
        var opacity: Double
    }

    private enum Base {
        /// Page `page` (0-based) of a document workers open.
        case page(document: String, page: Int)
        case blank
        case placeholder(label: String?)
        /// A sheet (`nup`, `booklet`): a white page with its cells' pages drawn on it.
        case sheet([CellDrawing])
    }

    private struct ItemDrawing {
        var key: String
        var base: Base
        var rotation: Int
        /// The page as exported (all rotation applied), in points, and in pixels.
        var displayed: PageSize
        var width: Int
        var height: Int
        var stamps: [StampDrawing]
    }

    let size: Int
    private let cache: SeeingCache?
    /// Set up on the calling thread by `prepare`, only read by workers.
    private var openings: [String: SourceOpening] = [:]
    private var drawings: [ItemID: ItemDrawing] = [:]
    private let lock = NSLock()
    private var renderedCount = 0
    private var cachedCount = 0

    var rendered: Int { lock.withLock { renderedCount } }
    var cached: Int { lock.withLock { cachedCount } }

    init(access: SourceAccess, size: Int) {
        self.size = size
        cache = access.cacheDirectory.map { SeeingCache(directory: $0) }
    }

    /// The key of what a stamped item's thumbnail shows, "" for an item without
    /// stamps (for sheet keys, which must change when stamps do).
    static func key(of item: PageItem, access: SourceAccess) -> String {
        if let sheet = item.content.sheet {
            var plain = item
            plain.content = .blank(sheet.size)
            return "sheet " + SheetPictures.key(of: sheet, access: access) + " " + key(of: plain, access: access)
        }
        guard !item.stamps.isEmpty else { return "" }
        let stamps = item.stamps.map { stamp in
            let sha256 = access.source(stamp.source)?.sha256 ?? stamp.source.description
            return "\(sha256) \(stamp.page) \(stamp.under) \(stamp.fit) \(stamp.opacity)"
        }
        return "stamps " + stamps.joined(separator: ";")
    }

    /// Finds (on this thread) what workers need: the documents to open, sizes and
    /// cache keys. Stamp files that changed or vanished are refused (75).
    func prepare(
        _ items: [PageItem], access: SourceAccess,
        imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String
    ) throws(PDFEditError) {
        try access.verify(Set(items.flatMap { $0.stamps.map(\.source) + $0.content.sources }))
        for item in items where item.isComposed && drawings[item.id] == nil {
            let own = access.displayedSize(of: item) ?? PageSize(width: 612, height: 792)
            let displayed = item.rotation % 2 == 1 ? own.swapped : own
            let pixels = fittedPixels(width: displayed.width, height: displayed.height, in: size)
            let base: Base
            let content: String
            switch item.content {
            case .page(let source, let page):
                base = .page(document: try open(source, access: access), page: page - 1)
                content = "page \(access.source(source)?.sha256 ?? "") \(page)"
            case .image(let source, let fit):
                let document = try openImage(source, fit: fit, imagePDF: imagePDF)
                base = .page(document: document, page: 0)
                content = "image \(access.source(source)?.sha256 ?? "") \(document)"
            case .blank(let size):
                base = .blank
                content = "blank \(size)"
            case .placeholder(let size, let label):
                base = .placeholder(label: label)
                content = "placeholder \(size) \(label ?? "")"
            case .sheet(let sheet):
                base = .sheet(
                    try SheetPictures.cells(
                        of: sheet, sheetTurns: item.rotation, pixelsPerPoint: Double(pixels.width) / displayed.width,
                        access: access
                    ) { (cell) throws(PDFEditError) -> (document: String, page: Int)? in
                        switch cell.content {
                        case .page(let source, let page): (try open(source, access: access), page - 1)
                        case .image(let source, let fit): (try openImage(source, fit: fit, imagePDF: imagePDF), 0)
                        case .blank, .placeholder, .sheet: nil
                        }
                    } openStamp: { (stamp) throws(PDFEditError) -> (document: String, page: Int, size: PageSize) in
                        try stampDrawing(stamp, item: item, access: access, imagePDF: imagePDF)
                    })
                content = "sheet \(sheet.size)"
            }
            var stamps: [StampDrawing] = []
            for stamp in item.stamps {
                let kind = access.source(stamp.source)?.kind ?? .pdf
                let content: ItemContent =
                    kind == .pdf ? .page(source: stamp.source, page: stamp.page) : .image(source: stamp.source)
                let document =
                    kind == .pdf
                    ? try open(stamp.source, access: access) : try openImage(stamp.source, fit: nil, imagePDF: imagePDF)
                guard let size = access.displayedSize(of: PageItem(id: item.id, content: content)) else {
                    throw PDFEditError.engine(.unreadable(file: access.path(of: stamp.source) ?? "", reason: "cannot read the stamp's page size"))
                }
                stamps.append(
                    StampDrawing(
                        document: document, page: kind == .pdf ? stamp.page - 1 : 0, size: size, under: stamp.under,
                        fit: stamp.fit, opacity: stamp.opacity))
            }
            let description = [
                "stamped v1", content, String(item.rotation), Self.key(of: item, access: access),
                "\(pixels.width)x\(pixels.height)",
            ]
            drawings[item.id] = ItemDrawing(
                key: Fingerprint.sha256(of: Data(description.joined(separator: "\n").utf8)), base: base,
                rotation: item.rotation, displayed: displayed, width: pixels.width, height: pixels.height,
                stamps: stamps)
        }
    }

    private func open(_ source: SourceID, access: SourceAccess) throws(PDFEditError) -> String {
        let key = source.description
        if openings[key] == nil {
            openings[key] = try access.openingDetails(source)
        }
        return key
    }

    private func openImage(
        _ source: SourceID, fit: PageSize?, imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String
    ) throws(PDFEditError) -> String {
        let path = try imagePDF(source, fit)
        let key = "image " + path
        if openings[key] == nil { openings[key] = SourceOpening(key: key, path: path, password: nil) }
        return key
    }

    /// The thumbnail of a prepared item, on the worker running the job: from the
    /// cache, or composed and cached. Opaque, `fittedPixels` of the page as exported.
    func obtain(_ item: PageItem, worker: WorkerContext) throws(PDFEditError) -> RasterImage {
        guard let drawing = drawings[item.id] else {
            throw PDFEditError.usage("internal: thumbnail of \(item.id) not prepared")
        }
        let file = cache?.thumbnailPath(sha256: "stamped", name: drawing.key, size: size)
        if let file, FileManager.default.fileExists(atPath: file), let image = try? RasterImage(png: file) {
            lock.withLock { cachedCount += 1 }
            return image
        }
        let image: RasterImage
        do throws(EngineError) {
            image = try compose(drawing, worker: worker)
        } catch {
            throw PDFEditError.engine(error)
        }
        if let file {
            SeeingCache.storeFile(at: file) { temporary in (try? image.writeFastPNG(to: temporary)) != nil }
        }
        lock.withLock { renderedCount += 1 }
        return image
    }

    private func compose(_ drawing: ItemDrawing, worker: WorkerContext) throws(EngineError) -> RasterImage {
        let image: RasterImage
        if case .placeholder(let label) = drawing.base {
            image = try RasterImage.picture(
                .frame(
                    width: drawing.displayed.width, height: drawing.displayed.height, kind: "placeholder",
                    label: label), fittingIn: size)
        } else {
            image = try RasterImage.canvas(width: drawing.width, height: drawing.height, white: true)
        }
        for stamp in drawing.stamps where stamp.under {
            try draw(stamp, on: image, drawing: drawing, worker: worker)
        }
        if case .page(let document, let page) = drawing.base, let opening = openings[document] {
            try image.drawPage(
                try worker.poppler(opening), page: page,
                in: (0, 0, Double(image.width), Double(image.height)), quarterTurns: drawing.rotation)
        }
        if case .sheet(let cells) = drawing.base {
            for cell in cells {
                guard let opening = openings[cell.document] else { continue }
                for stamp in cell.stamps where stamp.under {
                    try draw(stamp, on: image, worker: worker)
                }
                try image.drawPage(
                    try worker.poppler(opening), page: cell.page, in: cell.rect, quarterTurns: cell.quarterTurns,
                    clip: cell.clip)
                for stamp in cell.stamps where !stamp.under {
                    try draw(stamp, on: image, worker: worker)
                }
            }
        }
        for stamp in drawing.stamps where !stamp.under {
            try draw(stamp, on: image, drawing: drawing, worker: worker)
        }
        return image
    }

    private func draw(_ stamp: CellStampDrawing, on image: RasterImage, worker: WorkerContext) throws(EngineError) {
        guard let opening = openings[stamp.document] else { return }
        try image.drawPage(
            try worker.poppler(opening), page: stamp.page, in: stamp.rect, quarterTurns: stamp.quarterTurns,
            opacity: stamp.opacity)
    }

    /// A stamp's document (opened by workers), 0-based page and size as displayed.
    private func stampDrawing(
        _ stamp: Stamp, item: PageItem, access: SourceAccess,
        imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String
    ) throws(PDFEditError) -> (document: String, page: Int, size: PageSize) {
        let kind = access.source(stamp.source)?.kind ?? .pdf
        let content: ItemContent =
            kind == .pdf ? .page(source: stamp.source, page: stamp.page) : .image(source: stamp.source)
        let document =
            kind == .pdf
            ? try open(stamp.source, access: access) : try openImage(stamp.source, fit: nil, imagePDF: imagePDF)
        guard let size = access.displayedSize(of: PageItem(id: item.id, content: content)) else {
            throw PDFEditError.engine(
                .unreadable(file: access.path(of: stamp.source) ?? "", reason: "cannot read the stamp's page size"))
        }
        return (document, kind == .pdf ? stamp.page - 1 : 0, size)
    }

    /// Centred on the page as displayed, upright, at its size or fitted: as export places it.
    private func draw(
        _ stamp: StampDrawing, on image: RasterImage, drawing: ItemDrawing, worker: WorkerContext
    ) throws(EngineError) {
        guard let opening = openings[stamp.document], stamp.size.width > 0, stamp.size.height > 0 else { return }
        let page = drawing.displayed
        let scale = stamp.fit ? min(page.width / stamp.size.width, page.height / stamp.size.height) : 1
        let pixelsPerPoint = Double(image.width) / page.width
        let width = stamp.size.width * scale * pixelsPerPoint
        let height = stamp.size.height * scale * pixelsPerPoint
        try image.drawPage(
            try worker.poppler(opening), page: stamp.page,
            in: ((Double(image.width) - width) / 2, (Double(image.height) - height) / 2, width, height),
            opacity: stamp.opacity)
    }

    /// Composes each item's thumbnail on every core and hands it to `use` on the
    /// worker that made it; `use` must only touch what belongs to that job.
    func forEach(
        _ items: [PageItem], pool: WorkerPool, progress: ProgressCounter?,
        _ use: (_ job: Int, _ image: RasterImage) throws(PDFEditError) -> Void
    ) throws(PDFEditError) {
        let failures = Slots<PDFEditError>(count: items.count)
        pool.run(jobCount: items.count) { job, worker in
            defer { progress?.advance() }
            do throws(PDFEditError) {
                try use(job, try obtain(items[job], worker: worker))
            } catch {
                failures[job] = error
            }
        }
        try failures.throwFirst()
    }
}

extension StampedRenderer {
    /// A stamped item's cell before its picture exists: shaped like the page as
    /// exported, keyed by what it shows (for the sheet cache). Nil without stamps.
    static func cell(of item: PageItem, access: SourceAccess) -> (picture: SheetPicture, key: String)? {
        guard item.isComposed else { return nil }
        let size = access.displayedSize(of: item) ?? PageSize(width: 1, height: 1)
        let turned = item.rotation % 2 == 1
        let sha256 = item.content.source.flatMap { access.source($0)?.sha256 } ?? ""
        return (
            .blank(width: turned ? size.height : size.width, height: turned ? size.width : size.height),
            "\(item.content) \(sha256) " + key(of: item, access: access)
        )
    }

    /// The pictures of a sheet's stamped cells, by cell index, made on every core.
    func pictures(of plan: SheetPlan, pool: WorkerPool, progress: ProgressCounter?) throws(PDFEditError)
        -> [Int: RasterImage]
    {
        let cells = plan.stampedCells
        let made = Slots<RasterImage>(count: cells.count)
        try forEach(cells.map { plan.cells[$0].item }, pool: pool, progress: progress) {
            (job, image) throws(PDFEditError) in
            made[job] = image
        }
        var pictures: [Int: RasterImage] = [:]
        for (cell, image) in zip(cells, made.removeAll()) { pictures[cell] = image }
        return pictures
    }

    /// The same on one worker (when each worker makes whole sheets).
    func pictures(of plan: SheetPlan, worker: WorkerContext, progress: ProgressCounter?) throws(PDFEditError)
        -> [Int: RasterImage]
    {
        var pictures: [Int: RasterImage] = [:]
        for cell in plan.stampedCells {
            pictures[cell] = try obtain(plan.cells[cell].item, worker: worker)
            progress?.advance()
        }
        return pictures
    }
}

extension SheetPlan {
    /// The cells whose items have stamps (composed by `StampedRenderer`), and those items.
    var stampedCells: [Int] { cells.indices.filter { cells[$0].item.isComposed } }
    var stampedItems: [PageItem] { stampedCells.map { cells[$0].item } }
}
