#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// `diff --sheet OUT.png`: a contact sheet (`show`'s drawing) of the pages
/// that differ, two to a row — the left document's page, then the right
/// one's — with the changed regions outlined in red; a removed page has an
/// empty frame on the right, an inserted one on the left.
package struct DiffSheetRequest: Sendable {
    package var path: String
    package var force: Bool
    /// Each picture fits in this many pixels square.
    package var size = 300

    package init(path: String, force: Bool) {
        self.path = path
        self.force = force
    }
}

extension DocumentDiff {
    /// Writes the sheet of `diff` (made of `left` and `right`) as `request` asks,
    /// atomically, after the checks every output passes (`protected`: files no
    /// output may replace).
    static func drawSheet(
        _ diff: DocumentDiff, left: DiffSide, right: DiffSide, request: DiffSheetRequest, protected: [String]
    ) throws(PDFEditError) {
        var checks = OutputChecks(
            sources: (left.access.sourcePaths + right.access.sourcePaths), protected: protected, force: request.force)
        try checks.check(request.path)
        let shown = diff.pages.filter { entry in
            entry.status.contains { $0 == "changed" || $0 == "removed" || $0 == "inserted" }
        }
        let leftPictures = try pictures(of: left, positions: shown.compactMap(\.left), size: request.size)
        let rightPictures = try pictures(of: right, positions: shown.compactMap(\.right), size: request.size)
        var cells: [PDFEngine.SheetCell] = []
        for entry in shown {
            let regions = entry.regions ?? []
            cells.append(
                try sheetCell(
                    entry.left.flatMap { leftPictures[$0] }, title: entry.leftLabel ?? entry.left.map { String($0) } ?? "",
                    side: diff.left.name, missing: "inserted", regions: entry.rotation == nil ? regions : []))
            cells.append(
                try sheetCell(
                    entry.right.flatMap { rightPictures[$0] }, title: entry.right.map { String($0) } ?? "",
                    side: diff.right.name, missing: "removed", regions: regions))
        }
        let header =
            "pdfedit diff: \(diff.left.name) -> \(diff.right.name): "
            + (shown.isEmpty ? "no page changed, removed or inserted" : (shown.count == 1 ? "1 page differs" : "\(shown.count) pages differ"))
        let layout = SheetLayout(columns: 2, thumbnailSize: request.size)
        let size = layout.sheetSize(cells: max(1, cells.count))
        let limit = ProcessLimits.current.pixels
        guard size.width.multipliedReportingOverflow(by: size.height).partialValue <= limit else {
            throw PDFEditError.usage(
                "--sheet \(request.path): \(shown.count) pages make a sheet of more than \(limit) pixels (PDFEDIT_MAX_PIXELS)")
        }
        let image: RasterImage
        do throws(EngineError) {
            image = try ContactSheet.draw(cells, layout: layout, header: header).image
        } catch {
            throw .engine(error)
        }
        try SeeingChecks.write(image, to: request.path)
        StagedOutput.syncFolders(of: [request.path])
    }

    /// One cell: the page with `regions` (points of the page as displayed)
    /// outlined, or an empty frame saying what became of it.
    private static func sheetCell(
        _ picture: (image: RasterImage, pointsWide: Double)?, title: String, side: String, missing: String,
        regions: [Region]
    ) throws(PDFEditError) -> PDFEngine.SheetCell {
        guard let picture else {
            return PDFEngine.SheetCell(
                picture: .frame(width: 210, height: 297, kind: missing, label: nil), title: "", subtitle: side)
        }
        let scale = Double(picture.image.width) / picture.pointsWide
        do throws(EngineError) {
            try picture.image.outline(
                regions.map { ($0.x0 * scale, $0.y0 * scale, ($0.x1 - $0.x0) * scale, ($0.y1 - $0.y0) * scale) },
                lineWidth: 2)
        } catch {
            throw .engine(error)
        }
        return PDFEngine.SheetCell(picture: .page(picture.image, quarterTurns: 0), title: title, subtitle: side)
    }

    /// Pictures of the pages at `positions` (1-based), fitted in `size` pixels,
    /// with the width in points of each page as displayed.
    private static func pictures(of side: DiffSide, positions: [Int], size: Int) throws(PDFEditError)
        -> [Int: (image: RasterImage, pointsWide: Double)]
    {
        guard !positions.isEmpty else { return [:] }
        let items = positions.map { side.items[$0 - 1] }
        let renderer = StampedRenderer(sizing: .fitting(size), texts: side.stampTexts, transparent: false, annotations: true)
        try side.access.surfacingLookupFailure { () throws(PDFEditError) in
            try renderer.prepare(items, access: side.access, imagePDF: side.imagePDF)
        }
        let drawn = Slots<RasterImage>(count: items.count)
        try renderer.forEach(items, pool: WorkerPool(), progress: nil) { (job, image) throws(PDFEditError) in
            drawn[job] = image
        }
        var result: [Int: (image: RasterImage, pointsWide: Double)] = [:]
        for (job, image) in drawn.removeAll().enumerated() {
            guard let image, let shown = renderer.displayedSize(of: items[job]) else { continue }
            result[positions[job]] = (image, shown.width)
        }
        return result
    }
}

extension SourceAccess {
    /// Every source's absolute path (what no output may replace).
    var sourcePaths: [String] { sources.values.map { absolutePath($0.path) } }
}
