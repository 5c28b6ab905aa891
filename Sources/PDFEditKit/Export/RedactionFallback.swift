internal import PDFEngine
import PageModel

/// `--rasterize-redacted DPI`: a page the redaction refuses (QPDFCore's
/// `cannot redact: …` — a shading or an inline image across a region, an image
/// it cannot decode, text it cannot measure, forms nested too deep) is written
/// as a picture of itself instead: the item drawn as `export --rasterize`
/// draws it (`StampedRenderer`, with its stamps and annotations), its regions
/// filled in the picture, written as a one-page PDF (`RasterPDF`) that takes
/// the item's place in the plan. The regions stay on that page, moved to its
/// space (the picture's page is the item as displayed), so the bridge redacts
/// the picture's samples again and the proof checks its pixels as any page's.
/// Each such page gets a warning that its text is gone.
struct RedactionFallback {
    /// Where the pictures' PDFs are written: made at the first refused page,
    /// removed with the fallback once the export is done.
    private var scratch: ScratchDirectory?
    /// The plan's items already drawn as pictures (never drawn twice).
    private var drawn: Set<Int> = []
    /// One for each page drawn as a picture.
    private(set) var warnings: [Warning] = []

    /// When `error` is the bridge's refusal of a source page that `items` (the
    /// plan's, in order) redact: each of those items is drawn at `dpi` as a
    /// picture replacing it in `plan`, `options.finish` and `items` (its
    /// regions in the picture's page space), and the caller writes again.
    /// False when `error` is another failure, or names nothing left to draw.
    mutating func rasterize(
        refusedBy error: PDFEditError, items: inout [PageItem], plan: inout EnginePlan, options: inout ExportOptions,
        dpi: Double, document name: String, output: String, writer: ExportWriter
    ) throws(PDFEditError) -> Bool {
        guard case .engine(.unsupported(let file, let page?, let detail)) = error, detail.hasPrefix("cannot redact: ")
        else { return false }
        let access = writer.access
        let refused = plan.items.indices.filter { index in
            guard !drawn.contains(index), index < items.count, items[index].resize == nil,
                case .page(let source, let at, _, _, _) = plan.items[index], at == page - 1,
                access.absolutePath(plan.sources[source].path) == access.absolutePath(file)
            else { return false }
            return !Self.regions(of: items[index]).isEmpty
        }
        guard !refused.isEmpty else { return false }
        let folder: ScratchDirectory
        if let scratch {
            folder = scratch
        } else {
            folder = try ScratchDirectory()
            scratch = folder
        }
        let document = writer.session.document(named: name) ?? Document(name: name, items: items)
        let texts = OutputLabels.stampTexts(of: document, access: access)
        for index in refused {
            let item = items[index]
            // Annotations the item strips stay out (StampedRenderer.drawsAnnotations).
            let renderer = StampedRenderer(sizing: .dpi(dpi), texts: texts, transparent: false, annotations: true)
            guard access.frame(of: item) != nil else { return false }
            // What it shows: its other finishing steps (annotations stripped or
            // flattened stay so), not the regions, which are filled below.
            var shown = item
            shown.finish = item.finish.filter { if case .redact = $0 { false } else { true } }
            try access.surfacingLookupFailure { () throws(PDFEditError) in
                try renderer.prepare([shown], access: access) { (source, fit) throws(PDFEditError) in
                    try writer.imagePDF(source, fit: fit)
                }
            }
            let pictures = Slots<RasterImage>(count: 1)
            try renderer.forEach([shown], pool: WorkerPool(workers: 1), progress: nil) { (_, image) throws(PDFEditError) in
                pictures[0] = image
            }
            guard let image = pictures[0], let size = renderer.displayedSize(of: shown) else { return false }
            // The regions on the page as displayed (the picture's page space), filled in it.
            let moved = renderer.fillPendingRedactions(in: image, of: item, access: access)
            let path = Paths.join(folder.path, "page-\(index + 1).pdf")
            do throws(EngineError) {
                let pdf = try RasterPDF(path: path)
                try pdf.add(image, width: size.width, height: size.height, dpi: dpi, gray: false)
                try pdf.finish()
            } catch {
                throw .engine(error)
            }
            let source = plan.sources.count
            plan.sources.append(ExportSource(path: path, name: Paths.stem(of: file), pageCount: 1))
            plan.sessionSources.append(nil)
            plan.items[index] = .page(source: source, index: 0)
            // Its stamps are in the picture.
            plan.stamps.removeAll { $0.item == index }
            let steps = moved.map { PageFinish.redact($0) }
            options.finish?[index] = steps
            items[index].finish = steps
            drawn.insert(index)
            warnings.append(
                .exportNotice(
                    file: output,
                    message: "page \(index + 1) is written as a picture at \(decimalText(dpi, decimals: 3)) dpi with its "
                        + "regions filled (\(detail)): its text, links and annotations are gone"))
        }
        return true
    }

    static func regions(of item: PageItem) -> [Redaction] {
        item.finish.compactMap { if case .redact(let region) = $0 { region } else { nil } }
    }
}
