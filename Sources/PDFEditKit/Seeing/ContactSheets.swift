#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// How ``PageEditor`` draws contact sheets (`pdfedit show`): the grid and the
/// thumbnails' size.
public struct SheetOptions: Sendable {
    /// Thumbnails per row.
    public var columns: Int
    /// The side of the square box each thumbnail fits in, in pixels.
    public var thumbnailSize: Int
    /// At most this many items per sheet; more items give several sheets.
    public var perSheet: Int
    /// Replace existing sheet files.
    public var force: Bool

    /// The defaults of `show`: 6 columns, 200 px thumbnails, 48 items a sheet.
    public static let defaultColumns = 6
    /// The default side of a thumbnail's box, in pixels.
    public static let defaultThumbnailSize = 200
    /// The default number of items per sheet.
    public static let defaultPerSheet = 48

    /// Options of `show`, the defaults unless given.
    public init(
        columns: Int = SheetOptions.defaultColumns, thumbnailSize: Int = SheetOptions.defaultThumbnailSize,
        perSheet: Int = SheetOptions.defaultPerSheet, force: Bool = false
    ) {
        self.columns = columns
        self.thumbnailSize = thumbnailSize
        self.perSheet = perSheet
        self.force = force
    }
}

extension SheetOptions {
    /// Refuses (64) options `show` cannot draw with, and an `output` not named
    /// `.png`: checked before the session is read.
    package func check(output: String) throws(PDFEditError) {
        try SeeingChecks.size(thumbnailSize)
        guard (1...100).contains(columns) else {
            throw PDFEditError.usage("--columns takes 1 to 100, not \(columns)")
        }
        guard perSheet >= 1 else { throw PDFEditError.usage("--per-sheet takes a positive number") }
        let ext = Paths.pathExtension(of: output).lowercased()
        guard ext.isEmpty || ext == "png" else {
            throw PDFEditError.usage("\(output): show writes PNG images; name the output .png")
        }
    }

    /// Refuses (64) a thumbnail size `thumbs` cannot draw: checked before the session is read.
    package static func checkThumbnail(size: Int) throws(PDFEditError) { try SeeingChecks.size(size) }
}

/// What a contact sheet holds (``PageEditor/writeContactSheets(to:pages:document:options:)``,
/// `pdfedit show`): the sheets, where each page is on them, what was rendered.
/// The JSON shape (`show --json`) is documented in docs/manual.md.
public struct SheetReport: Codable, Equatable, Sendable {
    /// One item's picture on a sheet.
    public struct Cell: Codable, Equatable, Sendable {
        /// 1-based position in the document.
        public var position: Int
        /// The item's stable id.
        public var id: String
        /// page, blank, image or placeholder.
        public var kind: String
        /// The page label, when the source has labels.
        public var label: String?
        /// Where the item's picture is on the sheet, in pixels from the top left.
        public var x: Int
        /// Pixels from the top.
        public var y: Int
        /// The picture's size in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// true when the page holds what the renderer skipped (an image wider or
        /// taller than cairo draws, a stream that cannot be decoded): the picture
        /// is not the whole page, and its caption says "incomplete". Absent otherwise.
        public var incomplete: Bool?
    }
    /// One PNG sheet.
    public struct Sheet: Codable, Equatable, Sendable {
        /// The PNG written.
        public var file: String
        /// Its size in pixels, and its grid.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Columns of the grid.
        public var columns: Int
        /// Rows of the grid.
        public var rows: Int
        /// The items on it, in document order.
        public var items: [Cell]
    }
    /// The document shown.
    public var document: String
    /// Items shown, over all sheets.
    public var itemCount: Int
    /// The side of each thumbnail's box, in pixels.
    public var thumbnailSize: Int
    /// The sheets, in order.
    public var sheets: [Sheet]
    /// Pages rendered by this command, and pages read back from the thumbnail cache.
    public var rendered: Int
    /// Pages read back from the thumbnail cache.
    public var cached: Int
    /// Sheets copied unchanged from the sheet cache (their pages are not counted above).
    public var reusedSheets: Int
}

/// Checks shared by `show` and `thumbs`.
enum SeeingChecks {
    static func size(_ value: Int, name: String = "--size") throws(PDFEditError) {
        guard (16...4000).contains(value) else {
            throw PDFEditError.usage("\(name) takes 16 to 4000 pixels, not \(value)")
        }
    }

    /// Refuses (64) a layout whose largest sheet, holding `cells` cells, would pass
    /// `limits.pixels` (PDFEDIT_MAX_PIXELS) or the side cairo can draw, before
    /// anything is rendered or allocated.
    static func sheet(_ layout: SheetLayout, cells: Int, perSheet: Int, limits: Limits) throws(PDFEditError) {
        let (width, height) = layout.sheetSize(cells: cells)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let what = "--size \(layout.thumbnailSize) with \(cells) per sheet (--per-sheet \(perSheet)) makes a sheet of "
            + "\(width) x \(height)"
        guard !overflow, pixels <= limits.pixels else {
            throw PDFEditError.usage(
                "\(what) = \(overflow ? "too many" : String(pixels)) pixels, over the limit of \(limits.pixels) "
                    + "(PDFEDIT_MAX_PIXELS): lower --size or --per-sheet")
        }
        guard width <= RasterImage.maximumSide, height <= RasterImage.maximumSide else {
            throw PDFEditError.usage(
                "\(what) pixels, over the \(RasterImage.maximumSide) pixels a side can have: "
                    + "lower --size or --per-sheet, or add --columns")
        }
    }

    /// The checks of `show`'s and `thumbs`' outputs (`OutputChecks`): not a source,
    /// nor the session's own files (`protected`), nor an existing file without `force`.
    static func outputs(session: Session, access: SourceAccess, force: Bool, protected: [String]) -> OutputChecks {
        OutputChecks(
            sources: session.sources.map { access.absolutePath($0.path) }, protected: protected, force: force)
    }

    /// Writes an image as PNG under `path` atomically (temporary file, rename). The
    /// caller syncs the folders once at the end (`StagedOutput.syncFolders`), not once per file.
    static func write(_ image: RasterImage, to path: String) throws(PDFEditError) {
        try write(image.fastPNGData(), to: path)
    }

    static func write(_ data: Data, to path: String) throws(PDFEditError) {
        let staged = StagedOutput(path)
        try staged.write(data, sync: false)
        try staged.commit(syncFolder: false)
    }
}

extension SessionView {
    /// How images become pages to render: export's one-page PDFs, cached in the
    /// session's cache folder (`images/`), so shown and exported images are the same.
    /// Without a cache folder to trust, a scratch folder of this command's own.
    func imagePDFs(session: Session, access: SourceAccess) throws(PDFEditError)
        -> (SourceID, PageSize?) throws(PDFEditError) -> String
    {
        let cache = store.cacheDirectory
        let scratch = cache == nil ? try ScratchDirectory.forImages(of: session, shared: nil) : nil
        let writer = ExportWriter(session: session, access: access, cacheDirectory: cache ?? scratch?.path)
        return { (source, fit) throws(PDFEditError) in
            try withExtendedLifetime(scratch) { () throws(PDFEditError) in try writer.imagePDF(source, fit: fit) }
        }
    }

    /// The items of a document (or the selected ones), checked to be showable:
    /// not empty, every source unchanged (75 otherwise).
    func itemsToShow(
        _ session: Session, doc: String?, selection: PageSelection?, access: SourceAccess
    ) throws(PDFEditError) -> (name: String, document: Document, indices: [Int]) {
        let document = try session.chosenDocument(doc)
        let name = document.name
        guard !document.items.isEmpty else {
            throw PDFEditError.notExportable("document \"\(name)\" is empty: nothing to show")
        }
        let indices = try access.indices(of: selection, in: document)
        try access.verify(indices.compactMap { document.items[$0].content.source })
        return (name, document, indices)
    }

    /// `show -o OUT [SEL]`: contact sheets of a document in its current order. One
    /// sheet keeps the name OUT; more are OUT's stem + `-1`, `-2`… (numbers padded to
    /// the width of the sheet count) + its extension.
    ///
    /// Page thumbnails come from the thumbnail cache or are rendered on every core;
    /// a sheet whose content is exactly that of a sheet made before (same pages,
    /// rotations, captions, layout) is copied from the sheet cache. Sheets are
    /// composed in parallel, one per worker, when there are several to make.
    package func contactSheets(
        to output: String, selection: PageSelection?, doc: String?, options: SheetOptions,
        progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> SheetReport {
        try options.check(output: output)
        let session = try read()
        let access = SourceAccess(
            session: session, baseDirectory: store.baseDirectory, passwords: passwords,
            cacheDirectory: store.cacheDirectory)
        let (name, document, indices) = try itemsToShow(session, doc: doc, selection: selection, access: access)

        let chunks = stride(from: 0, to: indices.count, by: options.perSheet).map {
            Array(indices[$0..<min($0 + options.perSheet, indices.count)])
        }
        let layout = SheetLayout(columns: min(options.columns, options.perSheet), thumbnailSize: options.thumbnailSize)
        try SeeingChecks.sheet(
            layout, cells: chunks.map(\.count).max() ?? 1, perSheet: options.perSheet, limits: ProcessLimits.current)
        let files = Self.sheetNames(output, count: chunks.count)
        var checks = SeeingChecks.outputs(
            session: session, access: access, force: options.force, protected: store.ownFiles)
        for file in files { try checks.check(file) }

        let labels = OutputLabels(document: document, access: access)
        let stampTexts = OutputLabels.stampTexts(of: document, access: access)
        let plans = chunks.enumerated().map { number, chunk in
            SheetPlan(
                file: files[number],
                header: sheetHeader(
                    name: name, chunk: chunk, total: document.items.count, sheet: number, of: chunks.count),
                cells: chunk.map { index in
                    CellPlan(
                        item: document.items[index], position: index + 1, access: access, labels: labels,
                        texts: stampTexts[document.items[index].id] ?? [])
                },
                layout: layout)
        }
        let cache = store.cacheDirectory.map { SeeingCache(directory: $0) }
        var made = [SheetReport.Sheet?](repeating: nil, count: plans.count)
        for (number, plan) in plans.enumerated() {
            guard let cached = cache?.sheetPath(key: plan.key), let cache, cache.has(cached),
                let size = Self.pngSize(cached)
            else { continue }
            try Self.copy(cached, to: plan.file)
            utime(cached, nil)  // recently used: kept by pruning
            made[number] = plan.report(width: size.0, height: size.1)
        }
        let pending = plans.indices.filter { made[$0] == nil }

        let renderer = PageRenderer(
            access: access, size: options.thumbnailSize, imagePDF: try imagePDFs(session: session, access: access))
        try renderer.prepare(pending.flatMap { plans[$0].pages }, access: access)
        let stamped = StampedRenderer(access: access, size: options.thumbnailSize, texts: stampTexts)
        try stamped.prepare(
            pending.flatMap { plans[$0].stampedItems }, access: access,
            imagePDF: try imagePDFs(session: session, access: access))
        let counter = ProgressCounter(
            total: pending.map { plans[$0].pages.count + plans[$0].stampedItems.count }.reduce(0, +), unit: "pages",
            phase: "rendering", handler: progress)
        let results = Slots<SheetReport.Sheet>(count: plans.count)
        if pending.count >= renderer.pool.workerCount {
            // Several sheets: each worker renders and composes whole sheets.
            let failures = Slots<PDFEditError>(count: pending.count)
            try renderer.pool.run(jobCount: pending.count) { job, worker in
                let plan = plans[pending[job]]
                do throws(PDFEditError) {
                    var rasters: [SourcePage: RasterImage] = [:]
                    var cacheable = true
                    var incomplete: Set<SourcePage> = []
                    for page in plan.pages {
                        let picture = try renderer.obtain(page, worker: worker)
                        cacheable = cacheable && picture.isCacheable
                        if picture.isIncomplete { incomplete.insert(page) }
                        rasters[page] = try picture.raster()
                        counter.advance()
                    }
                    let composed = try stamped.pictures(of: plan, worker: worker, progress: counter)
                    results[pending[job]] = try plan.make(
                        rasters: rasters, stamped: composed, incomplete: incomplete, cache: cacheable ? cache : nil)
                } catch {
                    failures[job] = error
                }
            }
            try failures.throwFirst()
        } else {
            // One sheet (or as many as workers): its pages are rendered on every core.
            for number in pending {
                let plan = plans[number]
                let rasters = Slots<RasterImage>(count: plan.pages.count)
                let kinds = Slots<RenderedPage.Kind>(count: plan.pages.count)
                try renderer.forEach(plan.pages, access: access, progress: counter) {
                    (job, picture) throws(PDFEditError) in
                    rasters[job] = try picture.raster()
                    kinds[job] = picture.kind
                }
                var byPage: [SourcePage: RasterImage] = [:]
                for (page, raster) in zip(plan.pages, rasters.removeAll()) { byPage[page] = raster }
                let pageKinds = kinds.removeAll()
                let incomplete = Set(zip(plan.pages, pageKinds).filter { $0.1 == .incomplete }.map(\.0))
                let cacheable = pageKinds.allSatisfy { $0 == .complete }
                let composed = try stamped.pictures(of: plan, pool: renderer.pool, progress: counter)
                results[number] = try plan.make(
                    rasters: byPage, stamped: composed, incomplete: incomplete, cache: cacheable ? cache : nil)
            }
        }
        for (number, sheet) in results.removeAll().enumerated() where sheet != nil { made[number] = sheet }
        StagedOutput.syncFolders(of: files)
        cache?.pruneSheets()
        return SheetReport(
            document: name, itemCount: indices.count, thumbnailSize: options.thumbnailSize,
            sheets: made.compactMap { $0 }, rendered: renderer.rendered + stamped.rendered,
            cached: renderer.cached + stamped.cached,
            reusedSheets: plans.count - pending.count)
    }

    static func sheetNames(_ output: String, count: Int) -> [String] {
        guard count > 1 else { return [output] }
        let directory = Paths.folder(of: output)
        let name = Paths.name(of: output)
        let ext = Paths.pathExtension(of: name)
        let stem = Paths.extensionRemoved(name)
        let width = String(count).count
        return (1...count).map { number in
            let padded = String(repeating: "0", count: width - String(number).count) + String(number)
            let file = "\(stem)-\(padded)" + (ext.isEmpty ? "" : ".\(ext)")
            return Paths.join(directory, file)
        }
    }

    /// The second caption line: source page, label, rotation and stamps first (they
    /// tell pages apart), then the source file's name (cut first when space runs out).
    static func caption(of item: PageItem, access: SourceAccess, label: String?) -> String {
        var parts: [String] = []
        var file: String?
        switch item.content {
        case .page(let source, let page):
            parts.append("p.\(page)")
            file = access.source(source).map { Paths.stem(of: $0.path) }
        case .blank(let size):
            parts.append("blank " + (PageSize.commonName(width: size.width, height: size.height) ?? "page"))
        case .placeholder(_, let label):
            parts.append("placeholder" + (label.map { " \"\($0)\"" } ?? ""))
        case .image(let source, _):
            file = access.source(source).map { Paths.name(of: $0.path) } ?? "image"
        case .sheet(let sheet):
            parts.append("sheet " + sheet.cells.map { $0.item?.id.description ?? "–" }.joined(separator: " "))
        }
        if let label { parts.append("label \(label)") }
        if item.rotation != 0 { parts.append("↻\(item.rotation * 90)°") }
        if !item.stamps.isEmpty { parts.append(item.stamps.count == 1 ? "stamped" : "\(item.stamps.count) stamps") }
        if let file { parts.append(file) }
        return parts.joined(separator: " · ")
    }

    private func sheetHeader(name: String, chunk: [Int], total: Int, sheet: Int, of sheets: Int) -> String {
        let first = (chunk.first ?? 0) + 1
        let last = (chunk.last ?? 0) + 1
        let span = first == last ? "position \(first)" : "positions \(first)–\(last)"
        let part = sheets > 1 ? " · sheet \(sheet + 1) of \(sheets)" : ""
        return "\(name) · \(total) page\(total == 1 ? "" : "s") · \(span)\(part)"
    }
}

/// One sheet, planned on the calling thread (captions need the source access),
/// made on a worker.
struct SheetPlan {
    var file: String
    var header: String
    var cells: [CellPlan]
    var layout: SheetLayout
    /// The distinct source pages on the sheet, in a fixed order.
    var pages: [SourcePage]
    /// What the sheet looks like, hashed: equal keys, equal sheets.
    var key: String

    init(file: String, header: String, cells: [CellPlan], layout: SheetLayout) {
        self.file = file
        self.header = header
        self.cells = cells
        self.layout = layout
        pages = Array(Set(cells.compactMap(\.page))).sorted { $0.sortKey < $1.sortKey }
        let description =
            ["sheet v2", "\(layout.columns) \(layout.thumbnailSize)", header]
            + cells.map(\.key)
        key = Fingerprint.sha256(of: Data(description.joined(separator: "\n").utf8))
    }

    /// Draws the sheet, writes it under its name and into the sheet cache (none:
    /// a page of it is a stand-in for one that failed, or incomplete); `stamped`
    /// holds the composed pictures of the cells whose items have stamps, and
    /// `incomplete` the pages drawn without what the renderer skipped (their
    /// captions say so).
    func make(
        rasters: [SourcePage: RasterImage], stamped: [Int: RasterImage] = [:], incomplete: Set<SourcePage> = [],
        cache: SeeingCache?
    ) throws(PDFEditError) -> SheetReport.Sheet {
        let marked = cells.map { plan in plan.page.map { incomplete.contains($0) } ?? false }
        let cells = cells.enumerated().map { index, plan in
            SheetCell(
                picture: stamped[index].map { .page($0, quarterTurns: 0) }
                    ?? plan.page.flatMap { rasters[$0] }.map { .page($0, quarterTurns: plan.item.rotation) }
                    ?? plan.picture,
                title: "\(plan.position)", subtitle: plan.item.id.description,
                detail: marked[index] ? "incomplete · " + plan.detail : plan.detail)
        }
        let drawn: (image: RasterImage, pictures: [PixelRect])
        do throws(EngineError) {
            drawn = try ContactSheet.draw(cells, layout: layout, header: header)
        } catch {
            throw PDFEditError.engine(error)
        }
        let data = drawn.image.fastPNGData()
        try SeeingChecks.write(data, to: file)
        if let cache { cache.store(data, at: cache.sheetPath(key: key)) }
        return report(width: drawn.image.width, height: drawn.image.height, pictures: drawn.pictures, marked: marked)
    }

    /// What the report says about the sheet; `pictures` are where the cells' pictures
    /// were drawn (computed from the layout for a sheet taken from the cache),
    /// `marked` the cells drawn incomplete (none on a cached sheet: such a sheet is
    /// never cached).
    func report(width: Int, height: Int, pictures: [PixelRect]? = nil, marked: [Bool] = []) -> SheetReport.Sheet {
        SheetReport.Sheet(
            file: file, width: width, height: height, columns: min(layout.columns, cells.count),
            rows: layout.rows(for: cells.count),
            items: cells.enumerated().map { index, cell in
                let rect =
                    pictures?[index]
                    ?? layout.placement(of: cell.picture.pixelSize(fittingIn: layout.thumbnailSize), inCell: index)
                return SheetReport.Cell(
                    position: cell.position, id: cell.item.id.description, kind: cell.item.content.kindName,
                    label: cell.label, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                    incomplete: index < marked.count && marked[index] ? true : nil)
            })
    }
}

/// One cell of a planned sheet.
struct CellPlan {
    var item: PageItem
    var position: Int
    var label: String?
    var detail: String
    /// The source page to render, or (for other items) the picture to draw.
    var page: SourcePage?
    var picture: SheetPicture
    /// Everything that decides the cell's pixels.
    var key: String

    init(item: PageItem, position: Int, access: SourceAccess, labels: OutputLabels, texts: [String]) {
        self.item = item
        self.position = position
        label = labels.label(of: item)
        detail = SessionView.caption(of: item, access: access, label: label)
        // Stamped items are composed apart (see `StampedRenderer`), shaped like pages.
        page = item.isComposed ? nil : SourcePage(item)
        var content = "\(item.content)"
        if let stamped = StampedRenderer.cell(of: item, texts: texts, access: access) {
            (picture, content) = stamped
        } else if let page, let sha256 = access.source(page.source)?.sha256 {
            // The page's size decides the cell's shape before its raster exists.
            let size = access.displayedSize(of: item) ?? PageSize(width: 1, height: 1)
            picture = .blank(
                width: item.rotation % 2 == 1 ? size.height : size.width,
                height: item.rotation % 2 == 1 ? size.width : size.height)
            content = page.isImage ? "image \(sha256)\(page.fitKey)" : "page \(sha256) \(page.page)"
        } else {
            picture = access.picture(of: item)
        }
        key = [String(position), item.id.description, content, String(item.rotation), label ?? "", detail]
            .joined(separator: "|")
    }
}
