#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// An area of a picture in pixels from its top-left corner (fractions kept).
typealias PixelArea = (x: Double, y: Double, width: Double, height: Double)


/// One cell of a sheet as a picture draws it: the page of `document` (as poppler
/// shows it: its own crop box and /Rotate) stretched over `rect` turned
/// `quarterTurns`, seen only inside `clip` (the item's own crop).
struct CellDrawing: Sendable {
    var document: String
    var page: Int
    var rect: PixelArea
    var clip: PixelArea
    var quarterTurns: Int
    /// The cell item's stamps, centred on the cell's page as displayed, upright.
    var stamps: [CellStampDrawing] = []
}

/// A stamp of a sheet's cell as a picture draws it.
struct CellStampDrawing: Sendable {
    var document: String
    var page: Int
    var rect: PixelArea
    var quarterTurns: Int
    var under: Bool
    var opacity: Double
}

enum SheetPictures {
    /// Where a cell's page goes on a sheet's picture, from THE cell matrix
    /// (`Imposition.cellMatrix`, which export's bridge computes alike): the
    /// source's visible box and the item's shown box (its crop) mapped onto the
    /// sheet, then to pixels of the sheet turned `sheetTurns` as displayed.
    static func placement(
        matrix: PlacementMatrix, sourceVisible: BoxRect, shown: BoxRect, sheet: PageSize, sheetTurns: Int,
        pixelsPerPoint: Double
    ) -> (rect: PixelArea, clip: PixelArea) {
        let turns = ((sheetTurns % 4) + 4) % 4
        let width = sheet.width * pixelsPerPoint
        let height = sheet.height * pixelsPerPoint
        func pixel(_ x: Double, _ y: Double) -> (Double, Double) {
            let placed = matrix.apply(x: x, y: y)
            let u = placed.x * pixelsPerPoint
            let v = (sheet.height - placed.y) * pixelsPerPoint
            switch turns {
            case 1: return (height - v, u)
            case 2: return (width - u, height - v)
            case 3: return (v, width - u)
            default: return (u, v)
            }
        }
        func bounds(_ box: BoxRect) -> PixelArea {
            let corners = [pixel(box.x0, box.y0), pixel(box.x1, box.y0), pixel(box.x0, box.y1), pixel(box.x1, box.y1)]
            let xs = corners.map(\.0)
            let ys = corners.map(\.1)
            let x = xs.min() ?? 0
            let y = ys.min() ?? 0
            return (x, y, (xs.max() ?? 0) - x, (ys.max() ?? 0) - y)
        }
        return (bounds(sourceVisible), bounds(shown))
    }

    /// The drawings of a sheet's cells for a picture `pixelsPerPoint` fine, the
    /// sheet item turned `sheetTurns`; `open` names the document a worker opens
    /// for a cell's page (nil for blank cells, which show nothing).
    static func cells(
        of sheet: Sheet, sheetTurns: Int, pixelsPerPoint: Double, access: SourceAccess,
        open: (PageItem) throws(PDFEditError) -> (document: String, page: Int)?,
        openStamp: (Stamp) throws(PDFEditError) -> (document: String, page: Int, size: PageSize)
    ) throws(PDFEditError) -> [CellDrawing] {
        var drawings: [CellDrawing] = []
        for cell in sheet.cells {
            guard let item = cell.item, let (document, page) = try open(item) else { continue }
            var plain = item
            plain.boxes = PageBoxes()
            guard let frame = access.frame(of: plain) else { continue }
            let shown = item.boxes.crop ?? frame.visibleBox
            let matrix = Imposition.cellMatrix(
                cell: cell.rect, visible: shown, quarterTurns: frame.quarterTurns + item.rotation)
            let (rect, clip) = placement(
                matrix: matrix, sourceVisible: frame.visibleBox, shown: shown, sheet: sheet.size,
                sheetTurns: sheetTurns, pixelsPerPoint: pixelsPerPoint)
            var drawing = CellDrawing(
                document: document, page: page, rect: rect, clip: clip, quarterTurns: item.rotation + sheetTurns)
            // As on a page: centred on what the reader sees of the cell's page,
            // upright, at its size (scaled with the page) or fitted to it.
            let turnedPage = (frame.quarterTurns + item.rotation) % 2 == 1
            let shownWidth = turnedPage ? shown.height : shown.width
            let shownHeight = turnedPage ? shown.width : shown.height
            let scale = (matrix.a * matrix.a + matrix.b * matrix.b).squareRoot() * pixelsPerPoint
            let sideways = ((sheetTurns % 4) + 4) % 2 == 1
            // Page stamps only: a cell's text stamps are drawn at export, not in pictures.
            for stamp in item.stamps where stamp.source != nil {
                let (stampDocument, stampPage, size) = try openStamp(stamp)
                guard size.width > 0, size.height > 0 else { continue }
                let fit = stamp.fit ? min(shownWidth / size.width, shownHeight / size.height) : 1
                let width = size.width * fit * scale
                let height = size.height * fit * scale
                let (w, h) = sideways ? (height, width) : (width, height)
                drawing.stamps.append(
                    CellStampDrawing(
                        document: stampDocument, page: stampPage,
                        rect: (clip.x + (clip.width - w) / 2, clip.y + (clip.height - h) / 2, w, h),
                        quarterTurns: sheetTurns, under: stamp.under, opacity: stamp.opacity))
            }
            drawings.append(drawing)
        }
        return drawings
    }

    /// What decides a sheet's pixels: each cell's rectangle, item and the
    /// fingerprints of the files it shows.
    static func key(of sheet: Sheet, access: SourceAccess) -> String {
        sheet.cells.map { cell in
            guard let item = cell.item else { return "\(cell.rect) empty" }
            let sha256 = item.content.source.flatMap { access.source($0)?.sha256 } ?? ""
            let stamps = item.stamps.map { "\($0.source.flatMap { access.source($0)?.sha256 } ?? "") \($0)" }.joined(separator: ",")
            return "\(cell.rect) \(item.content) \(sha256) \(item.rotation) \(item.boxes) \(stamps)"
        }.joined(separator: ";")
    }
}

extension PageItem {
}
