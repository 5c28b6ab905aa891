#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// What is rendered and cached: a page of a PDF source, or the one page an image
/// source becomes (on a page of its fit size, as export makes it).
struct SourcePage: Hashable, Sendable {
    var source: SourceID
    var page: Int
    var isImage = false
    /// An image's page size when it was inserted with `--fit` (nil: its natural size).
    var fit: PageSize?

    init(source: SourceID, page: Int) {
        self.source = source
        self.page = page
    }

    /// The page an item shows, nil for blanks and placeholders.
    init?(_ item: PageItem) {
        switch item.content {
        case .page(let source, let page):
            self.init(source: source, page: page)
        case .image(let source, let fit):
            self.init(source: source, page: 1)
            isImage = true
            self.fit = fit
        case .blank, .placeholder, .sheet:
            return nil
        }
    }

    /// The PDF page an item shows (what has text), nil for anything else.
    static func ofPDF(_ item: PageItem) -> SourcePage? {
        guard case .page(let source, let page) = item.content else { return nil }
        return SourcePage(source: source, page: page)
    }

    /// Names the document a worker opens to render the page: the source PDF, or
    /// the image's one-page PDF at its fit size.
    var documentKey: String { isImage ? "\(source)-image\(fitKey)" : source.description }

    /// The fit size in file names, as export names its image PDFs (`ImageCacheKey`).
    var fitKey: String { ImageCacheKey.fit(fit) }

    var sortKey: (SourceID, Int, String) { (source, page, documentKey) }
}

/// Renders source pages as thumbnails on every core, through the thumbnail cache:
/// a page already rendered at this size (by this or an earlier command) is read
/// back from its PNG instead. Counts what it rendered and what came from the cache.
final class PageRenderer: @unchecked Sendable {
    let size: Int
    let pool: WorkerPool
    /// The one-page PDF of an image source at a fit size (export's, cached).
    private let imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String
    /// Set up on the calling thread before any job runs, only read by workers.
    private var openings: [String: SourceOpening] = [:]
    private var hashes: [SourceID: String] = [:]
    private let cache: SeeingCache?
    private let lock = Lock()
    private var renderedCount = 0
    private var cachedCount = 0

    var rendered: Int { lock.withLock { renderedCount } }
    var cached: Int { lock.withLock { cachedCount } }

    init(
        access: SourceAccess, size: Int, pool: WorkerPool = WorkerPool(),
        imagePDF: @escaping (SourceID, PageSize?) throws(PDFEditError) -> String
    ) {
        self.size = size
        self.imagePDF = imagePDF
        cache = access.cacheDirectory.map { SeeingCache(directory: $0) }
        self.pool = pool
        for source in access.sources.values { hashes[source.id] = source.sha256 }
    }

    /// Opens (on this thread) what workers need for these pages' sources: paths and
    /// passwords, found once. Call before running jobs.
    /// Pages whose thumbnail is cached need nothing opened.
    func prepare(_ pages: some Sequence<SourcePage>, access: SourceAccess) throws(PDFEditError) {
        for page in pages where openings[page.documentKey] == nil {
            // Before the cache: a thumbnail of a source that changed is not shown.
            try access.checked(page.source)
            if let file = cacheFile(page), CacheFolder.isTrustedEntry(file) { continue }
            if page.isImage {
                let path = try imagePDF(page.source, page.fit)
                openings[page.documentKey] = SourceOpening(key: page.documentKey, path: path, password: nil)
                continue
            }
            openings[page.documentKey] = try access.openingDetails(page.source)
        }
    }

    /// The cache file of a page (nil without a cache folder).
    func cacheFile(_ page: SourcePage) -> String? {
        guard let cache, let sha256 = hashes[page.source] else { return nil }
        if page.isImage { return cache.thumbnailPath(sha256: sha256, name: "image\(page.fitKey)", size: size) }
        return cache.thumbnailPath(sha256: sha256, name: String(page.page), size: size)
    }

    /// One page, on the worker running the job: from the cache when it is there
    /// (as a file, undecoded, when `fileOnly`), else rendered and cached.
    func obtain(_ page: SourcePage, worker: WorkerContext, fileOnly: Bool = false) throws(PDFEditError) -> RenderedPage
    {
        let file = cacheFile(page)
        if let file, let cache, cache.has(file) {
            if fileOnly {
                count(cached: true)
                return .cachedFile(file)
            }
            if let image = try? RasterImage(png: file) {
                count(cached: true)
                return .raster(image)
            }
        }
        guard let opening = openings[page.documentKey] else {
            throw PDFEditError.engine(.missing(file: page.source.description))
        }
        let image: RasterImage
        let skipped: Bool
        do throws(EngineError) {
            let poppler = try worker.poppler(opening)
            image = try poppler.render(page: page.page - 1, fittingIn: size)
            skipped = try poppler.skipsContent(page: page.page - 1)
        } catch .damaged(let file, let number?, let detail) {
            // One page that cannot be read or drawn: a marked stand-in, a warning,
            // the other pages shown; never cached (a later run tries again).
            WarningChannel.report(.pageShownAsFrame(file: file, page: number, detail: detail))
            do throws(EngineError) {
                let frame = SheetPicture.frame(width: 3, height: 4, kind: "unreadable", label: "page \(number)")
                return .standIn(try RasterImage.picture(frame, fittingIn: size))
            } catch {
                throw PDFEditError.engine(error)
            }
        } catch {
            throw PDFEditError.engine(error)
        }
        count(cached: false)
        if skipped { return .incomplete(image) }
        if let file {
            cache?.storeFile(at: file) { temporary in (try? image.writeFastPNG(to: temporary)) != nil }
        }
        return .raster(image)
    }

    private func count(cached: Bool) {
        lock.withLock {
            if cached { cachedCount += 1 } else { renderedCount += 1 }
        }
    }

    /// Gets each page on every core and hands it to `use` on the worker that got it;
    /// `use` must only touch what belongs to that job.
    func forEach(
        _ pages: [SourcePage], access: SourceAccess, progress: ProgressCounter?,
        fileOnly: (Int) -> Bool = { _ in false },
        _ use: (_ job: Int, _ picture: RenderedPage) throws(PDFEditError) -> Void
    ) throws(PDFEditError) {
        try prepare(pages, access: access)
        let failures = Slots<PDFEditError>(count: pages.count)
        try pool.run(jobCount: pages.count) { job, worker in
            defer { progress?.advance() }
            do throws(PDFEditError) {
                try use(job, try obtain(pages[job], worker: worker, fileOnly: fileOnly(job)))
            } catch {
                failures[job] = error
            }
        }
        try failures.throwFirst()
    }
}

extension Slots where Value == PDFEditError {
    /// Throws what the jobs failed with: the one error, or all of them.
    func throwFirst() throws(PDFEditError) {
        let problems = removeAll().compactMap { $0 }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw PDFEditError.several(problems) }
    }
}

/// A rendered page as a job gets it.
enum RenderedPage {
    case raster(RasterImage)
    /// The page's PNG in the cache, unrotated (only when the job asked for a file).
    case cachedFile(String)
    /// A marked frame in place of a page that could not be read or rendered
    /// (warned about); whatever shows it must not be cached.
    case standIn(RasterImage)
    /// A page drawn without what the renderer skipped (an image wider or taller
    /// than cairo draws, a stream that cannot be decoded): marked wherever it is
    /// shown, and never cached, so that the mark is found again every time.
    case incomplete(RasterImage)

    var isStandIn: Bool {
        if case .standIn = self { return true }
        return false
    }

    var isIncomplete: Bool {
        if case .incomplete = self { return true }
        return false
    }

    /// Whatever shows it may be cached: neither a stand-in nor incomplete.
    var isCacheable: Bool { kind == .complete }

    /// What a job hands back across threads, without the pixels.
    enum Kind: Sendable, Equatable {
        case complete, standIn, incomplete
    }

    var kind: Kind {
        switch self {
        case .raster, .cachedFile: .complete
        case .standIn: .standIn
        case .incomplete: .incomplete
        }
    }

    func raster() throws(PDFEditError) -> RasterImage {
        switch self {
        case .raster(let image), .standIn(let image), .incomplete(let image): return image
        case .cachedFile(let file):
            do throws(EngineError) { return try RasterImage(png: file) } catch { throw PDFEditError.engine(error) }
        }
    }
}

extension SourceAccess {
    /// The picture of a blank or a placeholder (pages and images come from `PageRenderer`).
    func picture(of item: PageItem) -> SheetPicture {
        let turned = item.rotation % 2 == 1
        func shape(_ size: PageSize) -> (Double, Double) {
            turned ? (size.height, size.width) : (size.width, size.height)
        }
        switch item.content {
        case .page:
            return .frame(width: 3, height: 4, kind: "page", label: nil)
        case .blank(let pageSize):
            let (width, height) = shape(pageSize)
            return .blank(width: width, height: height)
        case .placeholder(let pageSize, let label):
            let (width, height) = shape(pageSize)
            return .frame(width: width, height: height, kind: "placeholder", label: label)
        case .image(let source, _):
            let name = path(of: source).map { Paths.name(of: $0) }
            return .frame(width: 1, height: 1, kind: "image", label: name)
        case .sheet(let sheet):
            let (width, height) = shape(sheet.size)
            return .blank(width: width, height: height)
        }
    }
}
