#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

extension ExportWriter {
    /// Adds the stamps of `items` (the plan's items, in order) to `plan`: each stamp's
    /// file as an engine source — shared with the items' own when it is one of them,
    /// an image as export's cached one-page PDF — and one `ExportStamp` per stamp,
    /// in each item's drawing order. Stamp files that changed or vanished are
    /// refused (75) like the items' own sources.
    ///
    /// Generated texts are resolved over the whole document `name` (so a part of
    /// a split keeps the numbers the pages have in it). Those the standard fonts
    /// cannot encode are drawn by Pango, one page each, into one PDF made for
    /// this export in a private scratch folder (`TextPicture.writePDF`), which
    /// becomes an engine source whose pages are placed as stamp files are.
    func addStamps(of items: [PageItem], document name: String, to plan: inout EnginePlan) throws(PDFEditError) {
        let stamped = items.indices.filter { !items[$0].stamps.isEmpty }
        let cells = items.indices.filter { items[$0].content.sheet?.items.contains { !$0.stamps.isEmpty } == true }
        guard !stamped.isEmpty || !cells.isEmpty else { return }
        try access.verify(
            stamped.flatMap { items[$0].stamps.compactMap(\.source) }
                + cells.flatMap { (items[$0].content.sheet?.items ?? []).flatMap { $0.stamps.compactMap(\.source) } })
        let texts = stampTexts(document: name)

        var pdfIndex: [SourceID: Int] = [:]
        var pathIndex: [String: Int] = [:]
        for (index, source) in plan.sources.enumerated() {
            if let id = plan.sessionSources[index] {
                pdfIndex[id] = pdfIndex[id] ?? index
            } else {
                pathIndex[source.path] = pathIndex[source.path] ?? index
            }
        }
        /// A page stamp's file as an engine source, and its engine stamp.
        func exported(_ stamp: Stamp, item: Int) throws(PDFEditError) -> ExportStamp {
            guard case .page(let stampSource, let stampPage) = stamp.content, let source = session.source(stampSource),
                let path = access.path(of: stampSource)
            else {
                let named = stamp.source?.description ?? "?"
                throw PDFEditError.sessionCorrupt(path: named, reason: "unknown source \(named)")
            }
            let index: Int
            switch source.kind {
            case .pdf:
                if let known = pdfIndex[stampSource] {
                    index = known
                } else {
                    index = plan.sources.count
                    plan.sources.append(
                        ExportSource(
                            path: path, alternatives: access.passwords.candidates(for: path),
                            name: Paths.stem(of: source.path)))
                    plan.sessionSources.append(stampSource)
                    pdfIndex[stampSource] = index
                }
            case .image:
                let converted = try imagePDF(stampSource, fit: nil)
                if let known = pathIndex[converted] {
                    index = known
                } else {
                    index = plan.sources.count
                    var image = ExportSource(path: converted, name: Paths.stem(of: source.path))
                    image.datedPath = path
                    plan.sources.append(image)
                    plan.sessionSources.append(nil)
                    pathIndex[converted] = index
                }
            }
            return ExportStamp(
                item: item, source: index, page: source.kind == .pdf ? stampPage - 1 : 0,
                under: stamp.under, fit: stamp.fit, opacity: stamp.opacity, placement: stamp.placement)
        }
        var shaped: [(stamp: Int, picture: TextPicture)] = []
        for item in stamped {
            var itemTexts = texts[items[item].id] ?? []
            // Relative sizes and margins (`--size 2%`) are of the page as it is shown once exported.
            let relative = items[item].stamps.contains { $0.placement.marginShare != nil || $0.text?.sizeShare != nil }
            let shown = relative ? access.shownSize(of: items[item]) : nil
            for var stamp in items[item].stamps {
                if let shown { stamp.placement = stamp.placement.resolved(on: shown) }
                if let mark = stamp.text.map({ mark in shown.map { mark.sized(on: $0) } ?? mark }) {
                    let text = itemTexts.isEmpty ? mark.format : itemTexts.removeFirst()
                    if mark.needsShaping(text) {
                        shaped.append((plan.stamps.count, mark.picture(of: text)))
                        var placed = ExportStamp(
                            item: item, source: -1, page: 0, under: stamp.under, opacity: stamp.opacity,
                            placement: stamp.placement)
                        placed.angle = mark.angle
                        placed.actualText = text
                        plan.stamps.append(placed)
                    } else {
                        plan.stamps.append(try exportStamp(mark, text: text, of: stamp, item: item))
                    }
                } else {
                    plan.stamps.append(try exported(stamp, item: item))
                }
            }
        }
        if !shaped.isEmpty {
            let folder = try ScratchDirectory()
            let path = Paths.join(folder.path, "texts.pdf")
            do throws(EngineError) {
                _ = try TextPicture.writePDF(shaped.map(\.picture), to: path)
            } catch {
                throw PDFEditError.engine(error)
            }
            let index = plan.sources.count
            plan.sources.append(ExportSource(path: path, name: "texts", pageCount: shaped.count))
            plan.sessionSources.append(nil)
            plan.textFolder = folder
            for (page, entry) in shaped.enumerated() {
                plan.stamps[entry.stamp].source = index
                plan.stamps[entry.stamp].page = page
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

    /// The texts of document `name`'s generated stamps by item, as export writes them.
    func stampTexts(document name: String) -> [ItemID: [String]] {
        guard let document = session.document(named: name) else { return [:] }
        return OutputLabels(document: document, access: access, opened: preopened).stampTexts(of: document)
    }

    /// The engine's stamp of generated `text` in a standard font (WinAnsi, which
    /// `needsShaping` has checked; refused (64) were it not).
    private func exportStamp(_ mark: TextMark, text: String, of stamp: Stamp, item: Int) throws(PDFEditError)
        -> ExportStamp
    {
        switch WinAnsi.encode(text) {
        case .failure(let character):
            throw PDFEditError.edit(.unencodableText(character, text: text))
        case .success(let bytes):
            let slanted = mark.angle.truncatingRemainder(dividingBy: 90) != 0
            var drawn = ExportStamp.Text(
                bytes: bytes, font: mark.font, size: mark.size, angle: mark.angle, actualText: slanted ? text : nil)
            drawn.color = mark.color
            drawn.background = mark.background
            drawn.outline = mark.outline
            drawn.padding = mark.boxPadding
            return ExportStamp(
                item: item, text: drawn, under: stamp.under, opacity: stamp.opacity, placement: stamp.placement)
        }
    }
}

extension TextMark {
    /// `text` (this mark's, resolved for one item) as Pango draws it.
    func picture(of text: String) -> TextPicture {
        let font: TextPicture.Font =
            switch fontName {
            case let file? where file.hasPrefix("/"): .file(file)
            case let pattern?: .pattern(pattern)
            case nil: .pattern(shapingFontPattern)
            }
        var picture = TextPicture(text: text, font: font, size: size)
        picture.color = color
        picture.background = background
        picture.outline = outline
        picture.padding = boxPadding
        return picture
    }
}
