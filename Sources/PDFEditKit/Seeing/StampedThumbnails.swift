#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
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
///
/// Resized items are composed here too: the source page drawn where the resize
/// places it (`PageResize.matrix`, the rule export uses), clipped to what it
/// shows, on a white page of the new size.
final class StampedRenderer: @unchecked Sendable {
    /// Where a resized item's source page goes on the page as displayed (points,
    /// from the top-left corner): the whole visible page stretched to `page`,
    /// turned `quarterTurns` clockwise beyond its own /Rotate, clipped to `clip`.
    private struct Placement {
        var page: (x: Double, y: Double, width: Double, height: Double)
        var clip: (x: Double, y: Double, width: Double, height: Double)
        var quarterTurns: Int
    }

    private struct StampDrawing {
        enum Picture {
            /// Page `page` (0-based) of a document workers open, `size` as its reader shows it.
            case page(document: String, page: Int, size: PageSize)
            /// A generated text as export writes it on this item.
            case text(String, TextMark)
        }

        var picture: Picture
        var placement: StampPlacement
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
        /// Pixels per point: the width's share (thumbnails), or exactly the
        /// resolution's (`render --dpi`, whose sides are rounded up as
        /// poppler's tools round them, the last pixel partly outside the page).
        var scale: Double
        var stamps: [StampDrawing]
        var placement: Placement?
        /// Whether its annotations are drawn (`drawsAnnotations(of:)`).
        var annotations: Bool
        /// Pending redaction regions outlined (`show`, `thumbs`): in pixels
        /// from the top-left corner, with their labels.
        var regions: [(area: RasterImage.PaintedRect, label: String?)] = []
    }

    let size: Int
    /// How big each picture is: fitted in `size` × `size` (thumbnails), or at
    /// a resolution, width or height (`render`).
    let sizing: PixelSizing
    /// `render`: every item is drawn here (not only those with stamps, resized,
    /// cropped or sheets), nothing cached.
    private let everyItem: Bool
    /// Pages drawn on white (else on nothing: transparent).
    private let white: Bool
    /// Pages drawn with their annotations.
    private let annotations: Bool
    /// Whether pending redaction regions are drawn as outlined boxes with
    /// their labels (thumbnails: `show`, `thumbs`); never in what is written
    /// as a page (`render`, `export --rasterize`).
    private let outlinesRedactions: Bool
    private let cache: SeeingCache?
    /// Set up on the calling thread by `prepare`, only read by workers.
    private var openings: [String: SourceOpening] = [:]
    private var drawings: [ItemID: ItemDrawing] = [:]
    private let lock = Lock()
    private var renderedCount = 0
    private var cachedCount = 0

    var rendered: Int { lock.withLock { renderedCount } }
    var cached: Int { lock.withLock { cachedCount } }

    /// The generated stamps' texts by item, as export writes them.
    private let texts: [ItemID: [String]]

    init(access: SourceAccess, size: Int, texts: [ItemID: [String]] = [:]) {
        self.size = size
        self.texts = texts
        sizing = .fitting(size)
        everyItem = false
        white = true
        annotations = true
        outlinesRedactions = true
        cache = access.cacheDirectory.map { SeeingCache(directory: $0) }
    }

    /// The renderer of `render`: every item at `sizing`, its crop shown, on
    /// white or transparent, with or without annotations, nothing cached (a
    /// picture at 300 dpi is no thumbnail to keep).
    init(sizing: PixelSizing, texts: [ItemID: [String]], transparent: Bool, annotations: Bool) {
        size = 0
        self.sizing = sizing
        self.texts = texts
        everyItem = true
        white = !transparent
        self.annotations = annotations
        outlinesRedactions = false
        cache = nil
    }

    /// Whether a picture of `item` draws the page's annotations: not once a
    /// `strip annotations|links|fields` step is on it, so that nothing the
    /// session removes comes back in a picture of it (`render`, `export
    /// --rasterize`, the redaction fallback). Poppler draws a page's
    /// annotations all or none, so stripping some (links, fields) leaves the
    /// picture without any.
    static func drawsAnnotations(of item: PageItem) -> Bool {
        !item.finish.contains { if case .stripAnnotations = $0 { true } else { false } }
    }

    /// The outline of pending redaction regions (red, as a reviewer's mark).
    static let redactionOutline = (red: 1.0, green: 0.0, blue: 0.0)

    /// The key of what a stamped item's thumbnail shows, "" for an item without
    /// stamps (for sheet keys, which must change when stamps do).
    static func key(of item: PageItem, texts: [String], access: SourceAccess) -> String {
        if let sheet = item.content.sheet {
            var plain = item
            plain.content = .blank(sheet.size)
            return "sheet " + SheetPictures.key(of: sheet, access: access) + " " + key(of: plain, texts: texts, access: access)
        }
        guard item.isComposed else { return "" }
        let resized = item.resize.map { " resize \($0.size.width) \($0.size.height) \($0.mode) \($0.quarterTurns) \(String(describing: $0.crop))" } ?? ""
        let cropped = item.boxes.crop.map { " crop \($0.x0) \($0.y0) \($0.x1) \($0.y1)" } ?? ""
        var texts = texts[...]
        let stamps = item.stamps.map { stamp in
            let drawn: String
            switch stamp.content {
            case .page(let source, let page):
                drawn = "\(access.source(source)?.sha256 ?? source.description) \(page)"
            case .text(let mark):
                drawn = "text \(mark) \(texts.popFirst() ?? mark.format)"
            }
            return "\(drawn) \(stamp.under) \(stamp.fit) \(stamp.opacity) \(stamp.placement)"
        }
        let regions = item.finish.compactMap { step -> String? in
            guard case .redact(let region) = step else { return nil }
            return "\(region.rect) \(region.fill.rgb) \(region.label ?? "")"
        }
        let redacted = regions.isEmpty ? "" : " redact " + regions.joined(separator: ";")
        return "stamps " + stamps.joined(separator: ";") + resized + cropped + redacted
    }

    /// Finds (on this thread) what workers need: the documents to open, sizes and
    /// cache keys. Stamp files that changed or vanished are refused (75).
    func prepare(
        _ items: [PageItem], access: SourceAccess,
        imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String
    ) throws(PDFEditError) {
        try access.verify(Set(items.flatMap { $0.stamps.compactMap(\.source) + $0.content.sources }))
        for item in items where (everyItem || item.isComposed) && drawings[item.id] == nil {
            // What the item shows: its crop, as export writes it.
            let shown = access.shownSize(of: item)
            let own = item.resize?.size ?? shown ?? PageSize(width: 612, height: 792)
            let displayed = item.rotation % 2 == 1 ? own.swapped : own
            let pixels = try pixelSize(of: item, displayed: displayed, access: access)
            let scale: Double =
                if case .dpi(let dpi) = sizing { dpi / 72 } else { Double(pixels.width) / displayed.width }
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
                        of: sheet, sheetTurns: item.rotation, pixelsPerPoint: scale,
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
            var itemTexts = (texts[item.id] ?? [])[...]
            for stamp in item.stamps {
                let picture: StampDrawing.Picture
                switch stamp.content {
                case .text(let mark):
                    picture = .text(itemTexts.popFirst() ?? mark.format, mark)
                case .page(let source, let page):
                    let kind = access.source(source)?.kind ?? .pdf
                    let content: ItemContent = kind == .pdf ? .page(source: source, page: page) : .image(source: source)
                    let document =
                        kind == .pdf
                        ? try open(source, access: access) : try openImage(source, fit: nil, imagePDF: imagePDF)
                    guard let size = access.displayedSize(of: PageItem(id: item.id, content: content)) else {
                        throw PDFEditError.engine(
                            .unreadable(file: access.path(of: source) ?? "", reason: "cannot read the stamp's page size"))
                    }
                    picture = .page(document: document, page: kind == .pdf ? page - 1 : 0, size: size)
                }
                stamps.append(
                    StampDrawing(
                        picture: picture, placement: stamp.placement, under: stamp.under, fit: stamp.fit,
                        opacity: stamp.opacity))
            }
            var placement: Placement?
            if let resize = item.resize, case .page = base {
                guard let frame = access.frame(of: item) else {
                    throw PDFEditError.engine(
                        .unreadable(
                            file: item.content.source.flatMap { access.path(of: $0) } ?? "",
                            reason: "cannot read the page's size"))
                }
                placement = Self.placement(of: resize, frame: frame, rotation: item.rotation)
            } else if let crop = item.boxes.crop, case .page = base {
                var plain = item
                plain.boxes = PageBoxes()
                guard let frame = access.frame(of: plain) else {
                    throw PDFEditError.engine(
                        .unreadable(
                            file: item.content.source.flatMap { access.path(of: $0) } ?? "",
                            reason: "cannot read the page's size"))
                }
                placement = Self.placement(crop: crop, frame: frame, rotation: item.rotation)
            }
            let drawsAnnotations = annotations && Self.drawsAnnotations(of: item)
            let description =
                [
                    "stamped v2", content, String(item.rotation),
                    Self.key(of: item, texts: texts[item.id] ?? [], access: access), "\(pixels.width)x\(pixels.height)",
                ] + (drawsAnnotations ? [] : ["no annotations"])
            drawings[item.id] = ItemDrawing(
                key: Fingerprint.sha256(of: Data(description.joined(separator: "\n").utf8)), base: base,
                rotation: item.rotation, displayed: displayed, width: pixels.width, height: pixels.height, scale: scale,
                stamps: stamps, placement: placement, annotations: drawsAnnotations,
                regions: outlinesRedactions ? Self.regions(of: item, displayed: displayed, scale: scale, access: access) : [])
        }
    }

    /// The picture's size in pixels for an item `displayed` points large; a
    /// size cairo cannot make, or more pixels than `PDFEDIT_MAX_PIXELS`, is
    /// refused (65) naming the item's file and page.
    private func pixelSize(of item: PageItem, displayed: PageSize, access: SourceAccess) throws(PDFEditError)
        -> (width: Int, height: Int)
    {
        let file = item.content.source.flatMap { access.path(of: $0) } ?? "item \(item.id)"
        let page: Int? = if case .page(_, let number) = item.content { number } else { nil }
        let limit = ProcessLimits.current.pixels
        guard let pixels = sizing.pixels(width: displayed.width, height: displayed.height),
            pixels.width.multipliedReportingOverflow(by: pixels.height).partialValue <= limit
        else {
            throw PDFEditError.engine(
                .overLimit(
                    file: file, page: page,
                    what: "a picture of \(displayed.width.rounded()) x \(displayed.height.rounded()) points at this "
                        + "resolution (at most \(RasterImage.maximumSide) pixels a side and \(limit) pixels, PDFEDIT_MAX_PIXELS)"))
        }
        return pixels
    }

    /// Where an item's source page goes when the item shows `crop` (in the
    /// page's default user space) of it: the page's visible box and the crop,
    /// turned by the page's own /Rotate and then the item's `rotation`, in
    /// points from the top-left corner of the page as displayed.
    private static func placement(crop: BoxRect, frame: PageFrame, rotation: Int) -> Placement {
        typealias Area = (x: Double, y: Double, width: Double, height: Double)
        // Turned clockwise by `turns` within a `w` × `h` frame.
        func turned(_ r: Area, _ w: Double, _ h: Double, _ turns: Int) -> Area {
            switch ((turns % 4) + 4) % 4 {
            case 1: return (h - r.y - r.height, r.x, r.height, r.width)
            case 2: return (w - r.x - r.width, h - r.y - r.height, r.width, r.height)
            case 3: return (r.y, w - r.x - r.width, r.height, r.width)
            default: return r
            }
        }
        let own = frame.quarterTurns
        let (w, h) = (crop.width, crop.height)
        let (shownW, shownH) = own % 2 == 1 ? (h, w) : (w, h)
        func onPage(_ box: BoxRect) -> Area {
            let upright: Area = (box.x0 - crop.x0, crop.y1 - box.y1, box.width, box.height)
            return turned(turned(upright, w, h, own), shownW, shownH, rotation)
        }
        return Placement(page: onPage(frame.visibleBox), clip: onPage(crop), quarterTurns: rotation)
    }

    /// Where `resize` puts the source page (of geometry `frame`) on the resized
    /// page, turned by the item's later `rotation`: from the one placement rule.
    private static func placement(of resize: PageResize, frame: PageFrame, rotation: Int) -> Placement {
        let matrix = resize.matrix(for: frame)
        let (w, h) = (resize.size.width, resize.size.height)
        // PDF space (y up) to the page's top-left corner, then the item's turns.
        func onPage(_ rect: BoxRect) -> (x: Double, y: Double, width: Double, height: Double) {
            let placed = matrix.apply(rect)
            let (u0, v0, u1, v1) = (placed.x0, h - placed.y1, placed.x1, h - placed.y0)
            switch ((rotation % 4) + 4) % 4 {
            case 1: return (h - v1, u0, v1 - v0, u1 - u0)
            case 2: return (w - u1, h - v1, u1 - u0, v1 - v0)
            case 3: return (v0, w - u1, v1 - v0, u1 - u0)
            default: return (u0, v0, u1 - u0, v1 - v0)
            }
        }
        return Placement(
            page: onPage(frame.visibleBox), clip: onPage(resize.shownBox(for: frame)),
            quarterTurns: resize.quarterTurns + rotation)  // drawPage applies the own /Rotate
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

    /// The size in points of a prepared item's page as displayed (its turns applied).
    func displayedSize(of item: PageItem) -> PageSize? { drawings[item.id]?.displayed }

    /// The thumbnail of a prepared item, on the worker running the job: from the
    /// cache, or composed and cached. Opaque, `fittedPixels` of the page as exported.
    func obtain(_ item: PageItem, worker: WorkerContext) throws(PDFEditError) -> RasterImage {
        guard let drawing = drawings[item.id] else {
            throw PDFEditError.usage("internal: thumbnail of \(item.id) not prepared")
        }
        let file = cache?.thumbnailPath(sha256: "stamped", name: drawing.key, size: size)
        if let file, let cache, cache.has(file), let image = try? RasterImage(png: file) {
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
            cache?.storeFile(at: file) { temporary in (try? image.writeFastPNG(to: temporary)) != nil }
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
                    label: label), width: drawing.width, height: drawing.height)
        } else {
            image = try RasterImage.canvas(width: drawing.width, height: drawing.height, white: white)
        }
        for stamp in drawing.stamps where stamp.under {
            try draw(stamp, on: image, drawing: drawing, worker: worker)
        }
        if case .page(let document, let page) = drawing.base, let opening = openings[document] {
            // `render` says when a page is drawn without what poppler skipped.
            if everyItem, try worker.poppler(opening).skipsContent(page: page) {
                WarningChannel.report(
                    .exportNotice(
                        file: opening.path,
                        message: "page \(page + 1): drawn without content the renderer skipped "
                            + "(an image too large to draw, or a stream that cannot be decoded)"))
            }
            if let placement = drawing.placement {
                let k = drawing.scale
                func pixels(_ r: (x: Double, y: Double, width: Double, height: Double))
                    -> (x: Double, y: Double, width: Double, height: Double)
                { (r.x * k, r.y * k, r.width * k, r.height * k) }
                try image.drawPage(
                    try worker.poppler(opening), page: page, in: pixels(placement.page),
                    quarterTurns: placement.quarterTurns, clip: pixels(placement.clip), annotations: drawing.annotations)
            } else {
                try image.drawPage(
                    try worker.poppler(opening), page: page,
                    in: (0, 0, drawing.displayed.width * drawing.scale, drawing.displayed.height * drawing.scale),
                    quarterTurns: drawing.rotation,
                    annotations: drawing.annotations)
            }
        }
        if case .sheet(let cells) = drawing.base {
            for cell in cells {
                guard let opening = openings[cell.document] else { continue }
                for stamp in cell.stamps where stamp.under {
                    try draw(stamp, on: image, worker: worker)
                }
                try image.drawPage(
                    try worker.poppler(opening), page: cell.page, in: cell.rect, quarterTurns: cell.quarterTurns,
                    clip: cell.clip, annotations: drawing.annotations)
                for stamp in cell.stamps where !stamp.under {
                    try draw(stamp, on: image, worker: worker)
                }
            }
        }
        for stamp in drawing.stamps where !stamp.under {
            try draw(stamp, on: image, drawing: drawing, worker: worker)
        }
        try outline(drawing.regions, on: image, scale: drawing.scale)
        return image
    }

    /// An item's pending redaction regions on its picture (`displayed` points
    /// at `scale` pixels each): each region's rectangle in the page's user
    /// space shown as `redact --list` shows it, on the page as displayed.
    private static func regions(of item: PageItem, displayed: PageSize, scale: Double, access: SourceAccess)
        -> [(area: RasterImage.PaintedRect, label: String?)]
    {
        shownRegions(of: item, access: access).map { region in
            let shown = region.rect
            return (
                (x: shown.x0 * scale, y: (displayed.height - shown.y1) * scale, width: shown.width * scale,
                 height: shown.height * scale), region.label)
        }
    }

    /// An item's pending redaction regions moved onto its page as displayed
    /// (points from its lower-left corner, y upward): the page a picture of
    /// the item shows.
    static func shownRegions(of item: PageItem, access: SourceAccess) -> [Redaction] {
        let marked = item.finish.compactMap { if case .redact(let region) = $0 { region } else { nil } }
        guard !marked.isEmpty, item.content.sheet == nil else { return [] }
        let visible: BoxRect
        let turns: Int
        if let resize = item.resize {
            visible = BoxRect(x0: 0, y0: 0, x1: resize.size.width, y1: resize.size.height)
            turns = item.rotation
        } else {
            guard let frame = access.frame(of: item) else { return [] }
            visible = item.boxes.crop ?? frame.visibleBox
            turns = frame.quarterTurns + item.rotation
        }
        return marked.map { region in
            var shown = region
            shown.rect = region.rect.toDisplayed(visible: visible, quarterTurns: turns)
            return shown
        }
    }

    /// The regions outlined, each label written in small type just above its
    /// box's top-left corner (inside the box when there is no room above).
    private func outline(_ regions: [(area: RasterImage.PaintedRect, label: String?)], on image: RasterImage, scale: Double)
        throws(EngineError)
    {
        guard !regions.isEmpty else { return }
        let colour = Self.redactionOutline
        image.paint(regions.map(\.area), red: colour.red, green: colour.green, blue: colour.blue, outline: max(1.5, scale))
        for region in regions {
            guard let label = region.label, case .success(let bytes) = WinAnsi.encode(label) else { continue }
            let size = max(9, 8 * scale)
            let box = StandardFont.helvetica.box(of: bytes, size: size)
            let above = region.area.y - box.ascent - 2
            let baseline = above >= 0 ? region.area.y - 2 : region.area.y + box.ascent + 2
            try image.drawText(
                label, font: .helvetica, width: box.width, descent: box.descent, ascent: box.ascent,
                centreX: region.area.x + box.width / 2 + 2, centreY: baseline - (box.ascent + box.descent) / 2,
                degrees: 0, opacity: 1,
                colors: TextColors(text: colour, background: (1, 1, 1), padding: 1))
        }
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
        guard case .page(let source, let page) = stamp.content else {
            throw PDFEditError.engine(.unreadable(file: "", reason: "a text stamp has no page to draw"))
        }
        let kind = access.source(source)?.kind ?? .pdf
        let content: ItemContent = kind == .pdf ? .page(source: source, page: page) : .image(source: source)
        let document =
            kind == .pdf ? try open(source, access: access) : try openImage(source, fit: nil, imagePDF: imagePDF)
        guard let size = access.displayedSize(of: PageItem(id: item.id, content: content)) else {
            throw PDFEditError.engine(
                .unreadable(file: access.path(of: source) ?? "", reason: "cannot read the stamp's page size"))
        }
        return (document, kind == .pdf ? page - 1 : 0, size)
    }

    /// Centred on the page as displayed, upright, at its size or fitted: as export places it.

    /// Placed on the page as displayed by the stamp's placement (`StampPlacement.frame`,
    /// the rule export's Stamps.cpp follows too), upright, turned by a text's angle.
    private func draw(
        _ stamp: StampDrawing, on image: RasterImage, drawing: ItemDrawing, worker: WorkerContext
    ) throws(EngineError) {
        let page = drawing.displayed
        let pixelsPerPoint = drawing.scale
        // Relative sizes and margins (`--size 2%`) of the page as displayed, as export resolves them.
        var stamp = stamp
        stamp.placement = stamp.placement.resolved(on: page)
        if case .text(let text, let mark) = stamp.picture { stamp.picture = .text(text, mark.sized(on: page)) }
        switch stamp.picture {
        case .page(let document, let index, let size):
            guard let opening = openings[document], size.width > 0, size.height > 0 else { return }
            let frame = stamp.placement.frame(page: page, stamp: size, fit: stamp.fit)
            let width = size.width * frame.scale * pixelsPerPoint
            let height = size.height * frame.scale * pixelsPerPoint
            let left = frame.centreX * pixelsPerPoint - width / 2
            let top = (page.height - frame.centreY) * pixelsPerPoint - height / 2
            try image.drawPage(
                try worker.poppler(opening), page: index, in: (left, top, width, height), opacity: stamp.opacity)
        case .text(let text, let mark) where mark.needsShaping(text):
            let picture = mark.picture(of: text)
            let box = try picture.box()
            let frame = stamp.placement.frame(page: page, stamp: StampPlacement.boundingSize(box, degrees: mark.angle))
            try image.drawPicture(
                picture, box: box, scale: frame.scale * pixelsPerPoint, centreX: frame.centreX * pixelsPerPoint,
                centreY: (page.height - frame.centreY) * pixelsPerPoint, degrees: mark.angle, opacity: stamp.opacity)
        case .text(let text, let mark):
            guard case .success(let bytes) = WinAnsi.encode(text) else { return }
            let box = mark.font.box(of: bytes, size: mark.size)
            let pad = mark.boxPadding
            let upright = PageSize(width: box.width + 2 * pad, height: box.ascent - box.descent + 2 * pad)
            let frame = stamp.placement.frame(
                page: page, stamp: StampPlacement.boundingSize(upright, degrees: mark.angle))
            let scale = frame.scale * pixelsPerPoint
            try image.drawText(
                text, font: mark.font, width: box.width * scale, descent: box.descent * scale,
                ascent: box.ascent * scale, centreX: frame.centreX * pixelsPerPoint,
                centreY: (page.height - frame.centreY) * pixelsPerPoint, degrees: mark.angle, opacity: stamp.opacity,
                colors: TextColors(
                    text: mark.color?.rgb ?? (0, 0, 0), background: mark.background?.rgb, outline: mark.outline?.rgb,
                    padding: pad * scale, lineWidth: mark.size / 20 * scale))
        }
    }

    /// Composes each item's thumbnail on every core and hands it to `use` on the
    /// worker that made it; `use` must only touch what belongs to that job.
    func forEach(
        _ items: [PageItem], pool: WorkerPool, progress: ProgressCounter?,
        _ use: (_ job: Int, _ image: RasterImage) throws(PDFEditError) -> Void
    ) throws(PDFEditError) {
        let failures = Slots<PDFEditError>(count: items.count)
        try pool.run(jobCount: items.count) { job, worker in
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
    static func cell(of item: PageItem, texts: [String], access: SourceAccess) -> (picture: SheetPicture, key: String)? {
        guard item.isComposed else { return nil }
        let size = item.resize?.size ?? access.shownSize(of: item) ?? PageSize(width: 1, height: 1)
        let turned = item.rotation % 2 == 1
        let sha256 = item.content.source.flatMap { access.source($0)?.sha256 } ?? ""
        return (
            .blank(width: turned ? size.height : size.width, height: turned ? size.width : size.height),
            "\(item.content) \(sha256) " + key(of: item, texts: texts, access: access)
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

extension PageItem {
    /// Whether its picture is composed by `StampedRenderer` rather than copied
    /// from a plain page render: it has stamps, it is resized or a sheet, it
    /// shows a crop of its page (or image), or it has pending redactions (outlined).
    var isComposed: Bool {
        !stamps.isEmpty || resize != nil || content.sheet != nil || (boxes.crop != nil && content.source != nil)
            || finish.contains { if case .redact = $0 { true } else { false } }
    }
}
