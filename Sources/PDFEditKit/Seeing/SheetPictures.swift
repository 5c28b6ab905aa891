import Foundation
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
        open: (PageItem) throws(PDFEditError) -> (document: String, page: Int)?
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
            drawings.append(
                CellDrawing(
                    document: document, page: page, rect: rect, clip: clip,
                    quarterTurns: item.rotation + sheetTurns))
        }
        return drawings
    }

    /// What decides a sheet's pixels: each cell's rectangle, item and the
    /// fingerprints of the files it shows.
    static func key(of sheet: Sheet, access: SourceAccess) -> String {
        sheet.cells.map { cell in
            guard let item = cell.item else { return "\(cell.rect) empty" }
            let sha256 = item.content.source.flatMap { access.source($0)?.sha256 } ?? ""
            return "\(cell.rect) \(item.content) \(sha256) \(item.rotation) \(item.boxes)"
        }.joined(separator: ";")
    }
}

extension PageItem {
    /// Whether `show`/`thumbs` compose this item's picture (stamps, sheets)
    /// rather than render one source page.
    var isComposed: Bool { !stamps.isEmpty || content.sheet != nil }
}
