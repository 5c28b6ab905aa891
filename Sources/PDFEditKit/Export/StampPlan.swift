import Foundation
internal import PDFEngine
import PageModel

extension ExportWriter {
    /// Adds the stamps of `items` (the plan's items, in order) to `plan`: each stamp's
    /// file as an engine source — shared with the items' own when it is one of them,
    /// an image as export's cached one-page PDF — and one `ExportStamp` per stamp,
    /// in each item's drawing order. Stamp files that changed or vanished are
    /// refused (75) like the items' own sources.
    func addStamps(of items: [PageItem], to plan: inout EnginePlan) throws(PDFEditError) {
        let stamped = items.indices.filter { !items[$0].stamps.isEmpty }
        let cells = items.indices.filter { items[$0].content.sheet?.items.contains { !$0.stamps.isEmpty } == true }
        guard !stamped.isEmpty || !cells.isEmpty else { return }
        try access.verify(
            stamped.flatMap { items[$0].stamps.map(\.source) }
                + cells.flatMap { (items[$0].content.sheet?.items ?? []).flatMap { $0.stamps.map(\.source) } })

        var pdfIndex: [SourceID: Int] = [:]
        var pathIndex: [String: Int] = [:]
        for (index, source) in plan.sources.enumerated() {
            if let id = plan.sessionSources[index] {
                pdfIndex[id] = pdfIndex[id] ?? index
            } else {
                pathIndex[source.path] = pathIndex[source.path] ?? index
            }
        }
        func exported(_ stamp: Stamp, item: Int) throws(PDFEditError) -> ExportStamp {
            guard let source = session.source(stamp.source), let path = access.path(of: stamp.source) else {
                throw PDFEditError.sessionCorrupt(path: stamp.source.description, reason: "unknown source \(stamp.source)")
            }
            let index: Int
            switch source.kind {
            case .pdf:
                if let known = pdfIndex[stamp.source] {
                    index = known
                } else {
                    index = plan.sources.count
                    plan.sources.append(
                        ExportSource(
                            path: path, alternatives: access.passwords.candidates(for: path),
                            name: Paths.stem(of: source.path)))
                    plan.sessionSources.append(stamp.source)
                    pdfIndex[stamp.source] = index
                }
            case .image:
                let converted = try imagePDF(stamp.source, fit: nil)
                if let known = pathIndex[converted] {
                    index = known
                } else {
                    index = plan.sources.count
                    plan.sources.append(ExportSource(path: converted, name: Paths.stem(of: source.path)))
                    plan.sessionSources.append(nil)
                    pathIndex[converted] = index
                }
            }
            return ExportStamp(
                item: item, source: index, page: source.kind == .pdf ? stamp.page - 1 : 0, under: stamp.under,
                fit: stamp.fit, opacity: stamp.opacity)
        }
        for item in stamped {
            for stamp in items[item].stamps {
                plan.stamps.append(try exported(stamp, item: item))
            }
        }
        // A sheet's cells carry their items' stamps (drawn on the cell's page).
        for item in cells {
            guard let sheet = items[item].content.sheet,
                case .sheet(let width, let height, let turns, let boxes, var exportCells) = plan.items[item]
            else { continue }
            for (offset, cell) in sheet.cells.enumerated() where offset < exportCells.count {
                for stamp in cell.item?.stamps ?? [] {
                    exportCells[offset].stamps.append(try exported(stamp, item: item))
                }
            }
            plan.items[item] = .sheet(width: width, height: height, quarterTurns: turns, boxes: boxes, cells: exportCells)
        }
    }
}
