#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// The ink of a page, found by rendering it with poppler: where it is (`crop
/// --auto`) and how much of the page it covers (the `empty` selection token).
/// Both ask the one test of a dark pixel (`RasterImage`) with `threshold`.
///
/// A pixel is ink when its luminance is below `threshold` (200 of 255, about
/// 78 %): a light threshold, so that the grey tint of scanned paper and faint
/// scanner noise count as white while text and pictures count. The page is
/// rendered first at low resolution (its longer side `roughPixels`), where
/// specks of dust smaller than a pixel fade below the threshold, then again at
/// `finePixelsPerPoint` (at most `fineMaximumPixels` on the longer side) inside
/// what the rough pass found, one rough pixel wider, to place the edges precisely.
enum PageInkFinder {
    static let threshold = 200
    static let roughPixels = 200
    static let finePixelsPerPoint = 2.0
    /// The fine pass's longer side at most (a 8,400 pt scan would be 16,800
    /// pixels square at 2 px/pt: over 1 GB of ARGB).
    static let fineMaximumPixels = 4000.0
    /// `empty`: pages are rendered at 36 dpi (half a pixel per point), where a
    /// speck of dust is a pixel or two.
    static let emptyPixelsPerPoint = 0.5

    /// The share (0…1) of dark pixels of a page rendered at `emptyPixelsPerPoint`,
    /// counted inside `shown` (margins on the page as displayed, in points; nil:
    /// all of it). A page shown with no area has no dark pixels. A page holding
    /// what the renderer skips without a word (an image too large for cairo, a
    /// stream that cannot be decoded) counts as all ink: its rendering is not the
    /// whole page, and a page whose only ink was such an image was drawn white
    /// and removed as empty.
    static func darkShare(_ poppler: PopplerPDF, page: Int, shown: Margins?) throws(EngineError) -> Double {
        if try poppler.skipsContent(page: page) { return 1 }
        let image = try poppler.render(page: page, scale: emptyPixelsPerPoint)
        var area: RasterImage.PixelArea?
        if let shown {
            let scale = emptyPixelsPerPoint
            area = (
                x0: Int((shown.left * scale).rounded(.down)), y0: Int((shown.top * scale).rounded(.down)),
                x1: Int((Double(image.width) - shown.right * scale).rounded(.up)) - 1,
                y1: Int((Double(image.height) - shown.bottom * scale).rounded(.up)) - 1
            )
        }
        let counted = image.darkPixelCount(below: threshold, in: area)
        return counted.total == 0 ? 0 : Double(counted.dark) / Double(counted.total)
    }

    /// The ink box in the page's displayed space, as margins from its edges (points).
    static func inkMargins(_ poppler: PopplerPDF, page: Int) throws(EngineError) -> Margins? {
        let rough = try poppler.render(page: page, fittingIn: roughPixels)
        guard let found = rough.darkBounds(below: threshold) else { return nil }
        let (width, height) = try poppler.pageSize(page)
        let roughScale = Double(rough.width) / width
        let fineScale = min(finePixelsPerPoint, fineMaximumPixels / max(width, height))
        let fine = try poppler.render(page: page, scale: fineScale)
        // The rough box, one rough pixel wider on every side, in fine pixels.
        let factor = fineScale / roughScale
        let area = (
            x0: Int((Double(found.x0 - 1) * factor).rounded(.down)), y0: Int((Double(found.y0 - 1) * factor).rounded(.down)),
            x1: Int((Double(found.x1 + 2) * factor).rounded(.up)), y1: Int((Double(found.y1 + 2) * factor).rounded(.up))
        )
        let exact = fine.darkBounds(below: threshold, in: area) ?? (
            x0: Int(Double(found.x0) * factor), y0: Int(Double(found.y0) * factor),
            x1: Int(Double(found.x1 + 1) * factor) - 1, y1: Int(Double(found.y1 + 1) * factor) - 1
        )
        let fineWidth = Double(fine.width) / fineScale
        let fineHeight = Double(fine.height) / fineScale
        return Margins(
            top: Double(exact.y0) / fineScale, right: fineWidth - Double(exact.x1 + 1) / fineScale,
            bottom: fineHeight - Double(exact.y1 + 1) / fineScale, left: Double(exact.x0) / fineScale)
    }
}

extension SourceAccess {
    /// The ink of a PDF page item's source page in its default user space (see
    /// `PageInkFinder`); `.none` for a blank; nil for images and placeholders and
    /// when the page cannot be rendered.
    package func ink(of item: PageItem) -> PageInk? {
        if case .blank = item.content { return PageInk.none }
        if let sheet = item.content.sheet { return ink(of: sheet) }
        guard case .page(let source, let page) = item.content else { return nil }
        var plain = item
        plain.boxes = PageBoxes()
        plain.rotation = 0
        guard let frame = frame(of: plain) else { return nil }
        // A page that cannot be rendered (a bomb over a limit, damage) is the
        // command's failure with its own code (65), not "cannot find the ink" (64).
        return recordingLookupFailure { () throws(PDFEditError) -> PageInk? in
            let document = try poppler(source)
            let found: Margins?
            do throws(EngineError) { found = try PageInkFinder.inkMargins(document, page: page - 1) } catch {
                throw .engine(error)
            }
            guard let margins = found else { return PageInk.none }
            return .box(margins.applied(to: frame.visibleBox, quarterTurns: frame.quarterTurns))
        }
    }

    /// The ink of a sheet, in its user space: its cells' ink placed by the cell
    /// matrix (an image cell is all ink), nil when a cell's cannot be found.
    private func ink(of sheet: Sheet) -> PageInk? {
        var union: BoxRect?
        for cell in sheet.cells {
            guard let item = cell.item else { continue }
            var plain = item
            plain.boxes = PageBoxes()
            plain.rotation = 0
            guard let frame = frame(of: plain) else { return nil }
            let shown = item.boxes.crop ?? frame.visibleBox
            var box = shown
            switch item.content {
            case .blank: continue
            case .page:
                guard let ink = ink(of: item) else { return nil }
                guard case .box(let found) = ink else { continue }
                box = BoxRect(
                    x0: max(found.x0, shown.x0), y0: max(found.y0, shown.y0), x1: min(found.x1, shown.x1),
                    y1: min(found.y1, shown.y1))
                guard box.isValid else { continue }
            default: break
            }
            let placed = Imposition.cellMatrix(
                cell: cell.rect, visible: shown, quarterTurns: frame.quarterTurns + item.rotation
            ).apply(box)
            union = union.map {
                BoxRect(
                    x0: min($0.x0, placed.x0), y0: min($0.y0, placed.y0), x1: max($0.x1, placed.x1),
                    y1: max($0.y1, placed.y1))
            } ?? placed
        }
        return union.map { .box($0) } ?? PageInk.none
    }
}

extension SourceAccess {
    /// The share of dark pixels of a page or image item's page as it is shown
    /// (inside its crop box, when it has one), for the `empty` token; cached per
    /// source SHA-256 with the texts (`SourcePagesRecord.darkShares`). An image
    /// is rendered as the page export makes of it. nil for blank pages and
    /// placeholders (their rule is `EmptyPage`'s). A page that cannot be
    /// rendered is a failure for `surfacingLookupFailure`.
    package func darkShare(of item: PageItem) -> Double? {
        guard let source = item.content.source, let sha256 = sources[source]?.sha256 else { return nil }
        return recordingLookupFailure { () throws(PDFEditError) -> Double? in
            try checked(source)
            var key: String
            switch item.content {
            case .page(_, let page): key = String(page)
            case .image(_, let fit): key = "image" + ImageCacheKey.fit(fit)
            case .blank, .placeholder, .sheet: return nil
            }
            var shown: Margins?
            // A resized page shows its source page inside the crop frozen into the
            // resize (in the source page's space, like an item's own crop).
            if let crop = item.resize.map({ $0.crop }) ?? item.boxes.crop {
                var plain = item
                plain.boxes = PageBoxes()
                plain.rotation = 0
                guard let frame = frame(of: plain) else { return nil }
                shown = Margins(of: crop, in: frame.visibleBox, quarterTurns: frame.quarterTurns)
                key += " crop " + [crop.x0, crop.y0, crop.x1, crop.y1].map { "\($0)" }.joined(separator: ",")
            }
            if let cached = pageFacts.record(sha256).darkShares?[key] { return cached }
            // Opened outside the rendering: a password that is missing is 77, not a render failure.
            let document: PopplerPDF? = if case .page = item.content { try poppler(source) } else { nil }
            let share: Double
            do throws(EngineError) {
                switch item.content {
                case .page(_, let page):
                    guard let document else { return nil }
                    share = try PageInkFinder.darkShare(document, page: page - 1, shown: shown)
                case .image(_, let fit):
                    share = try imageDarkShare(source, fit: fit, shown: shown)
                case .blank, .placeholder, .sheet:
                    return nil
                }
            } catch {
                throw .engine(error)
            }
            pageFacts.update(sha256) { record in
                if record.darkShares == nil { record.darkShares = [:] }
                record.darkShares?[key] = share
            }
            return share
        }
    }

    /// An image source's page, made as export makes it into a temporary PDF
    /// (removed at once, and on Ctrl-C), rendered as a PDF page is.
    private func imageDarkShare(_ source: SourceID, fit: PageSize?, shown: Margins?) throws(EngineError) -> Double {
        guard let path = path(of: source) else { throw EngineError.missing(file: source.description) }
        let temporary = Paths.join(
            Paths.temporaryFolder, ".pdfedit-empty-\(getpid())-\(UUID().uuidString).pdf")
        TemporaryFiles.shared.register(temporary)
        defer {
            unlink(temporary)
            TemporaryFiles.shared.unregister(temporary)
        }
        try ImagePage.writePDF(
            image: path, fit: fit.map { ($0.width, $0.height) }, to: temporary, maximumPixels: ProcessLimits.current.pixels)
        let poppler = try PopplerPDF(path: temporary, password: nil, limits: ProcessLimits.reader)
        return try PageInkFinder.darkShare(poppler, page: 0, shown: shown)
    }
}
