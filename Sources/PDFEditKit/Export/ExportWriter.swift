#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// What to do with placeholders at export.
public enum PlaceholderPolicy: String, Sendable, CaseIterable {
    /// Refuse the export, naming their positions (the default).
    case refuse
    /// Each placeholder becomes a blank page of its size.
    case blank
}

/// Options shared by every kind of export.
public struct ExportSettings: Sendable {
    /// Replace an existing output (never a source or the session's own files).
    public var force: Bool
    /// What placeholders become: refused (the default) or blank pages.
    public var placeholders: PlaceholderPolicy
    /// The passwords the output is encrypted with; nil: not encrypted (direct mode
    /// then keeps the input's encryption, see `keepEncryptionOf`).
    public var outputEncryption: OutputEncryption?
    /// What the export does with page labels.
    public var pageLabels: PageLabelPolicy
    /// Overrides the title taken from the first source.
    public var title: String?
    /// Told how far writing got (phase "writing": percent of one file, or parts).
    public var progress: ProgressHandler?
    /// Direct mode: the source whose encryption the output keeps (method,
    /// permissions, passwords) when it is encrypted and `outputEncryption` is nil.
    package var keepEncryptionOf: SourceID?
    /// Whether an output written unencrypted although pages come from encrypted
    /// sources gets one warning naming them (not when the user asked to decrypt).
    package var warnsWhenDecrypting = true
    /// Keep the sources' JavaScript (their `/Names /JavaScript` trees, merged under
    /// unique names) and the first source's open action and document actions
    /// (`--keep-scripts`). False (the default) leaves them out, named in one
    /// warning; an open action that only shows a page is kept either way.
    public var keepScripts = false
    /// What the export does with the document's outline (`--outline`): keep it
    /// (the default), one entry per source file, or none.
    public var outline: OutlinePolicy = .keep
    /// Write the output as small as it losslessly can be (`--compress`):
    /// identical streams (fonts, images, ICC profiles, forms that merged sources
    /// carry many times over) written once, every Flate stream recompressed at
    /// zlib's best level, object streams. Such an output is always written by
    /// copying its pages (never as an appended update or an in-place rewrite).
    public var compress = false
    /// Linearize the output for fast web view (`--linearize`, qpdf's
    /// linearization); written by copying its pages, as `compress`.
    public var linearize = false
    /// Resample raster images drawn finer than `images.dpi` to it (`--images
    /// DPI[:QUALITY]`, lossy: photographs become JPEG at `images.quality`),
    /// then write the output as `compress` does, which it implies. Copied, as
    /// `compress`.
    public var images: ImageResampling?
    /// Write every page as one picture at this many dots per inch (`export
    /// --rasterize DPI`, 1 to 2400): an image-only PDF, each page its size as
    /// displayed, with nothing of its text, links, annotations or bookmarks
    /// (a warning says so). Not with `compress`, `linearize` or encryption.
    public var rasterize: Double?
    /// With `rasterize`: the pictures in gray (`--gray`).
    public var rasterizeGray = false
    /// `--rasterize-redacted DPI` (1 to 2400): a page the redaction refuses
    /// (what it cannot judge lies in a region) is written as a picture of
    /// itself at DPI with the regions filled, with a warning that its text is
    /// gone, instead of failing the export; the proof still checks its pixels.
    public var rasterizeRedacted: Double?
    /// `--scrub`: what a redaction by text leaves outside the pages — an
    /// annotation showing it, an annotation's author or subject, a link's
    /// address or launched file, an attachment, a page label's prefix, a
    /// document information entry, the XMP packet, a bookmark's title or
    /// action holding a redacted text — is removed (each named in a warning)
    /// rather than only reported.
    public var scrub = false
    /// Keep the digital signatures of a signed source valid (`--keep-signatures`):
    /// the output is written as the source's bytes, unchanged, followed by an
    /// appended update holding the edit. An edit that cannot be written so (pages
    /// left out, other files' pages, stamps, new metadata or encryption, a
    /// certification that forbids the change, a file that cannot take an update)
    /// is refused (`PDFEditError.usage`, saying why). Without it, an export that
    /// rewrites a signed source warns (`Warning.signaturesInvalidated`).
    public var keepSignatures = false

    /// Settings for an export.
    ///
    /// - Parameters:
    ///   - force: Replace an existing output (never a source or the session's own files).
    ///   - placeholders: Refuse placeholders (the default) or write them as blank pages.
    ///   - encryption: Encrypt the output; nil writes it unencrypted (and byte-for-byte reproducible).
    ///   - pageLabels: What becomes of the sources' page labels.
    ///   - title: The output's title; nil takes the first source's.
    public init(
        force: Bool = false, placeholders: PlaceholderPolicy = .refuse, encryption: OutputEncryption? = nil,
        pageLabels: PageLabelPolicy = .keep, title: String? = nil
    ) {
        self.force = force
        self.placeholders = placeholders
        self.outputEncryption = encryption
        self.pageLabels = pageLabels
        self.title = title
    }

    /// The engine's options, with the process's limits (`PDFEDIT_MAX_STREAM_BYTES`)
    /// and export knobs (`ExportEnvironment`).
    /// `progressUnit`: what the engine's progress counts, "%" of one file or the
    /// "files" of a split (told by the caller, never guessed from the total).
    func engineOptions(progressUnit: String) -> ExportOptions {
        let maxStreamBytes = ProcessLimits.current.inflatedStreamBytes
        var writing: (@Sendable (Int, Int) -> Void)?
        if let handler = progress {
            writing = { done, total in
                handler(ProgressUpdate(done: done, total: total, unit: progressUnit, phase: "writing"))
            }
        }
        var options = ExportOptions(
            deterministicID: outputEncryption == nil, encryption: outputEncryption, labels: pageLabels, title: title,
            maxStreamBytes: maxStreamBytes, progress: writing, threads: ExportEnvironment.threads,
            inPlace: ExportEnvironment.inPlace, keepScripts: keepScripts)
        options.appendUpdate = ExportEnvironment.appendUpdate
        options.compress = compress
        options.linearize = linearize
        options.images = images
        options.maxPixels = ProcessLimits.current.pixels
        options.cancel = CancellationToken.current?.flag
        return options
    }
}

/// The result of writing one PDF.
public struct ExportResult: Encodable, Sendable, Equatable {
    /// The file written.
    public var output: String
    /// The document it was exported from.
    public var document: String
    /// Pages in the file.
    public var pageCount: Int
    /// 1-based positions (in the document) of the first and last exported item.
    public var first: Int?
    /// 1-based position of the last exported item.
    public var last: Int?
    /// Problems the export recovered from (damaged sources, dropped links), one each.
    public var warnings: [Warning]
    /// With `ExportSettings.compress` (one file): what sharing identical streams
    /// and recompressing saved, for `optimize`'s report; not in export's JSON.
    package var savings: CompressionSavings? = nil

    private enum CodingKeys: String, CodingKey {
        case output, document, pageCount, first, last, warnings
    }
}

/// The engine's view of some page items: the sources they read and the pages in order.
struct EnginePlan {
    var sources: [ExportSource]
    var items: [ExportItem]
    /// Which session source each engine source is (nil for converted images).
    var sessionSources: [SourceID?]
    /// Pages drawn onto the items (see `addStamps`).
    var stamps: [ExportStamp] = []
    /// The private folder holding the PDF of the texts drawn by Pango
    /// (`addStamps`), removed with the plan once the export is written.
    var textFolder: ScratchDirectory?
}

/// Turns page items into an engine plan and writes it atomically under its final name.
struct ExportWriter {
    let session: Session
    let access: SourceAccess
    /// Where images are converted to one-page PDFs (cached by fingerprint and
    /// size); nil where the session has no image source (direct mode then makes
    /// no scratch folder).
    let cacheDirectory: String?
    /// Files this export may replace without --force (the session's own previous
    /// exports, as they were written).
    var replaceable: Set<WrittenFile> = []
    /// Files no export may replace, `--force` or not: the session's own (`SessionStore.ownFiles`).
    var protected: [String] = []
    /// The one source this export may replace: the input of `--in-place`.
    var allowedSource: String? = nil
    /// Direct mode: there is no session, the sources are the command's input files
    /// (which is what a refusal to write over one says).
    var direct = false
    /// Sources the loader opened in this process (direct mode), by absolute path:
    /// the export uses them rather than reading and checking the files again, and
    /// does not hash them again (they were hashed when loaded, moments ago, and
    /// the export reads the very file that was opened then).
    var preopened: [String: OpenedPDF] = [:]
    /// `write` is the last use of the preopened documents: the export may free
    /// them before writing its output (direct mode writes once).
    var lastUseOfPreopened = false

    /// Checks that `items` can be exported and builds the engine's plan.
    func plan(_ items: [PageItem], document name: String, settings: ExportSettings) throws(PDFEditError) -> EnginePlan {
        guard !items.isEmpty else { throw PDFEditError.notExportable("document \"\(name)\" is empty: nothing to export") }
        // The metadata rule of `meta`, for the one value an export itself sets.
        if let title = settings.title, let problem = DocumentMetadata.problem(ofValue: title) {
            throw PDFEditError.usage("--title \(problem)")
        }
        try refusePlaceholders(items, document: name, settings: settings)
        let used = Set(items.flatMap(\.content.sources))
        try PhaseTiming.measure("open") { () throws(PDFEditError) in
            try access.verify(used.filter { id in access.path(of: id).map { preopened[$0] == nil } ?? true })
        }
        return try planChecked(items, document: name, settings: settings)
    }

    /// Placeholders are refused (65, naming their positions) unless `settings`
    /// makes them blank pages.
    func refusePlaceholders(_ items: [PageItem], document name: String, settings: ExportSettings) throws(PDFEditError) {
        let placeholders = items.indices.filter { items[$0].content.isPlaceholder }
        if !placeholders.isEmpty, settings.placeholders == .refuse {
            let which = placeholders.count == 1 ? "a placeholder at " : "placeholders at "
            let them = placeholders.count == 1 ? "fill it" : "fill them"
            throw PDFEditError.notExportable(
                "document \"\(name)\" still holds \(which)\(positionsPhrase(placeholders.map { $0 + 1 })); "
                    + "\(them) or export with --placeholders blank")
        }
    }

    /// `plan` once its checks passed.
    private func planChecked(_ items: [PageItem], document name: String, settings: ExportSettings) throws(PDFEditError)
        -> EnginePlan
    {
        let planning = PhaseTiming.now()
        defer { PhaseTiming.add("plan", since: planning) }

        var plan = EnginePlan(sources: [], items: [], sessionSources: [])
        var pdfIndex: [SourceID: Int] = [:]
        var imageIndex: [String: Int] = [:]
        plan.items.reserveCapacity(items.count)
        func pdfSource(_ source: SourceID) throws(PDFEditError) -> Int {
            if let known = pdfIndex[source] { return known }
            guard let path = access.path(of: source) else {
                throw PDFEditError.sessionCorrupt(path: name, reason: "unknown source \(source)")
            }
            let index = plan.sources.count
            // No probing open: the bridge tries the candidates itself.
            plan.sources.append(
                ExportSource(
                    path: path, alternatives: access.passwords.candidates(for: path),
                    name: Paths.stem(of: session.source(source)?.path ?? path), document: preopened[path],
                    pageCount: session.source(source)?.pageCount))
            plan.sessionSources.append(source)
            pdfIndex[source] = index
            return index
        }
        func imageSource(_ source: SourceID, fit: PageSize?) throws(PDFEditError) -> Int {
            let converted = try imagePDF(source, fit: fit)
            if let known = imageIndex[converted] { return known }
            let index = plan.sources.count
            var image = ExportSource(
                path: converted, name: Paths.stem(of: session.source(source)?.path ?? converted), pageCount: 1)
            image.datedPath = access.path(of: source)
            plan.sources.append(image)
            plan.sessionSources.append(nil)
            imageIndex[converted] = index
            return index
        }
        // The geometry of the pages drawn as forms (resized pages, sheet cells):
        // read once per page from the bridge, placed by the model.
        var frames = PageFrames(access: access, preopened: preopened)
        for item in items {
            switch item.content {
            case .page(let source, let page):
                let index = try pdfSource(source)
                plan.items.append(
                    .page(
                        source: index, index: page - 1, quarterTurns: item.rotation, boxes: item.boxes,
                        resize: try item.resize.map { resize throws(PDFEditError) in
                            ExportResize(
                                size: resize.size,
                                placement: resize.placement(for: try frames.frame(of: plan.sources[index], id: source, page: page - 1)))
                        }))
            case .sheet(let sheet):
                var cells: [ExportCell] = []
                for cell in sheet.cells {
                    let source: Int?
                    var index = 0
                    switch cell.item?.content {
                    case .page(let id, let page)?:
                        source = try pdfSource(id)
                        index = page - 1
                    case .image(let id, let fit)?:
                        source = try imageSource(id, fit: fit)
                    default:
                        source = nil
                    }
                    // Redaction is carried out on pages, not on a sheet's cells: refused,
                    // never dropped (the cell would show what was to be removed).
                    if let redacted = cell.item, redacted.finish.contains(where: { if case .redact = $0 { true } else { false } }) {
                        throw PDFEditError.notExportable(
                            "a sheet of \(name) holds \(redacted.id), which has pending redactions: redaction works on "
                                + "pages, not on a sheet's cells (undo the nup or booklet, or redact the sheet)")
                    }
                    let turns = cell.item?.rotation ?? 0
                    let crop = cell.item?.boxes.crop
                    var placement = FormPlacement(matrix: .identity)
                    if let source {
                        placement = Imposition.cellPlacement(
                            cell: cell.rect, sheet: sheet.size,
                            frame: try frames.frame(of: plan.sources[source], id: plan.sessionSources[source], page: index), quarterTurns: turns,
                            crop: crop, stamped: !(cell.item?.stamps.isEmpty ?? true))
                    }
                    cells.append(
                        ExportCell(
                            source: source, index: index, quarterTurns: turns, crop: crop, placement: placement,
                            finish: cell.item?.finish ?? []))
                }
                plan.items.append(
                    .sheet(
                        width: sheet.size.width, height: sheet.size.height, quarterTurns: item.rotation,
                        boxes: item.boxes, cells: cells))
            case .blank(let size), .placeholder(let size, _):
                // A resized blank page is simply a blank page of the new size.
                let shown = item.resize?.size ?? size
                plan.items.append(
                    .blank(width: shown.width, height: shown.height, quarterTurns: item.rotation, boxes: item.boxes))
            case .image(let source, let fit):
                let index = try imageSource(source, fit: fit)
                plan.items.append(
                    .page(
                        source: index, index: 0, quarterTurns: item.rotation, boxes: item.boxes,
                        resize: try item.resize.map { resize throws(PDFEditError) in
                            ExportResize(
                                size: resize.size,
                                placement: resize.placement(for: try frames.frame(of: plan.sources[index], id: nil, page: 0)))
                        }))
            }
        }
        try addStamps(of: items, document: name, to: &plan)
        if !plan.stamps.isEmpty || plan.items.contains(where: \.hasCellStamps) {
            var stamps = plan.stamps
            var placed = plan.items
            let sources = plan.sources
            let ids = plan.sessionSources
            try ExportStamp.place(&stamps, items: &placed) { source, page throws(PDFEditError) in
                try frames.frame(of: sources[source], id: ids[source], page: page)
            }
            plan.stamps = stamps
            plan.items = placed
        }
        return plan
    }

    /// The one-page PDF showing an image source, made once and kept in the cache
    /// (keyed by the image's SHA-256 and the page size), so re-exports are identical.
    func imagePDF(_ source: SourceID, fit: PageSize?) throws(PDFEditError) -> String {
        guard let image = session.source(source), let path = access.path(of: source) else {
            throw PDFEditError.sessionCorrupt(path: source.description, reason: "unknown source \(source)")
        }
        guard let cacheDirectory else {
            throw PDFEditError.engine(.cannotWrite(file: path, reason: "no folder to convert the image in"))
        }
        let directory = Paths.join(cacheDirectory, "images")
        try CacheFolder.require(directory, root: cacheDirectory)
        let cached = Paths.join(directory, ImageCacheKey.imagePDF(sha256: image.sha256, fit: fit))
        if CacheFolder.isTrustedEntry(cached) { return cached }
        let staged = StagedOutput(cached, removingStale: true)
        do throws(EngineError) {
            try ImagePage.writePDF(
                image: path, fit: fit.map { ($0.width, $0.height) }, to: staged.temporary,
                maximumPixels: ProcessLimits.current.pixels)
        } catch {
            staged.discard()
            // A message names the cache file, never its hidden temporary.
            if case .cannotWrite(_, let reason) = error { throw PDFEditError.engine(.cannotWrite(file: cached, reason: reason)) }
            throw PDFEditError.engine(error)
        }
        try staged.commit(permissions: .privateFile)
        CacheFolder.noteWritten()
        return cached
    }

    /// What the document sets for its exports: the labels of its pages
    /// (`OutputLabels`, what `list` shows, when labels are kept) and its metadata
    /// (an export's own `--title` wins over the document's).
    func setDocumentData(of items: [PageItem], document name: String, on options: inout ExportOptions) {
        if options.labels == .keep, let document = session.document(named: name) {
            options.pageLabels = OutputLabels(document: document, access: access, opened: preopened).labelValues(for: items)
        }
        // A sheet's own steps; its cells' items' go with the cells (`ExportCell.finish`).
        options.finish = items.contains { !$0.finish.isEmpty } ? items.map(\.finish) : nil
        options.stripped = session.document(named: name)?.stripped ?? []
        // `optimize` in a session: added to what the export itself asks (its
        // own --images wins). Only the whole-file strategy's list knows these.
        if let optimize = session.document(named: name)?.optimize {
            options.compress = options.compress || optimize.compress
            options.linearize = options.linearize || optimize.linearize
            options.images = options.images ?? optimize.images
        }
        guard let metadata = session.document(named: name)?.metadata else { return }
        options.title = options.title ?? metadata.title
        options.author = metadata.author
        options.subject = metadata.subject
        options.keywords = metadata.keywords
    }

    /// What `write` asks of the engine for `items` (of document `name`): the
    /// plan, and the options with what the document sets (labels, metadata,
    /// bookmarks).
    func request(
        _ items: [PageItem], document name: String, settings: ExportSettings
    ) throws(PDFEditError) -> (plan: EnginePlan, options: ExportOptions) {
        var options = settings.engineOptions(progressUnit: "%")
        setDocumentData(of: items, document: name, on: &options)
        var plan = try plan(items, document: name, settings: settings)
        options.keepEncryptionOf = settings.keepEncryptionOf.flatMap { plan.sessionSources.firstIndex(of: $0) }
        try setAttachments(of: items, plan: plan, document: name, on: &options)
        if var document = session.document(named: name) {
            if document.outline == nil, settings.outline == .perSource {
                document.outline = try access.outline(of: document, in: session)  // an older session's
            }
            options.outline = session.exportedOutline(of: document, items: items, policy: settings.outline)
        }
        if lastUseOfPreopened {
            for index in plan.sources.indices where plan.sources[index].document != nil {
                plan.sources[index].lastUseOfDocument = true
            }
        }
        return (plan, options)
    }

    /// The strategies `write` may take for `items` besides copying (the one
    /// decision, `ExportStrategy.allowed`, on the request `write` makes).
    func strategies(
        _ items: [PageItem], document name: String, settings: ExportSettings
    ) throws(PDFEditError) -> ExportStrategies {
        let (plan, options) = try request(items, document: name, settings: settings)
        // As `PDFExporter.write` decides: with the source opened, and read.
        let sources = PDFExporter.withCandidateOpened(
            sources: plan.sources, items: plan.items, stamps: plan.stamps, options: options)
        return ExportStrategy.allowed(sources: sources, items: plan.items, stamps: plan.stamps, options: options)
    }

    /// Writes `items` (of document `name`) to `output`.
    func write(
        _ items: [PageItem], document name: String, to output: String, settings: ExportSettings,
        positions: ClosedRange<Int>? = nil
    ) throws(PDFEditError) -> ExportResult {
        // Checked before anything is read, whether or not a page needs it.
        if let dpi = settings.rasterizeRedacted { try checkedResolution(dpi, option: "--rasterize-redacted") }
        if let dpi = settings.rasterize {
            return try rasterize(items, document: name, to: output, dpi: dpi, settings: settings, positions: positions)
        }
        try checkOutput(output, settings: settings)
        let request = try request(items, document: name, settings: settings)
        var plan = request.plan
        var options = request.options
        let signed = try signedSources(of: plan)
        if settings.keepSignatures, !signed.isEmpty {
            options.appendUpdate = true
            plan.sources = PDFExporter.withCandidateOpened(
                sources: plan.sources, items: plan.items, stamps: plan.stamps, options: options)
            try requireKeptSignatures(signed, plan: plan, options: options)
            options.requireAppendedUpdate = true
        }
        options.redactedTexts = RedactionProof.texts(in: items)
        options.scrub = settings.scrub
        let staged = StagedOutput(output, removingStale: true)
        var proven = items
        var fallback = RedactionFallback()
        var written: ExportReport?
        while written == nil {
            let current = options
            do throws(PDFEditError) {
                written = try run(&plan, staged: [staged]) { (plan) throws(EngineError) in
                    try PDFExporter.write(
                        sources: plan.sources, items: plan.items, stamps: plan.stamps, options: current, to: staged.temporary)
                }
            } catch {
                // `--rasterize-redacted`: the refused page becomes a picture of itself, then again.
                guard let dpi = settings.rasterizeRedacted,
                    try fallback.rasterize(
                        refusedBy: error, items: &proven, plan: &plan, options: &options, dpi: dpi, document: name,
                        output: output, writer: self)
                else { throw error }
            }
        }
        guard let report = written else { throw PDFEditError.notExportable("\(output): nothing was written") }
        do throws(PDFEditError) {
            try RedactionProof.verify(
                staged.temporary, output: output, items: proven, passwords: [options.encryption?.userPassword].compactMap { $0 } + plan.sources.compactMap(\.password))
        } catch {
            staged.discard()
            throw error
        }
        try PhaseTiming.measure("commit") { () throws(PDFEditError) in try staged.commit() }
        return ExportResult(
            output: output, document: name, pageCount: items.count, first: positions?.lowerBound,
            last: positions?.upperBound,
            warnings: report.warnings.map { describe($0, output: output) } + decryptionWarning(report, output: output, settings: settings)
                + signatureWarnings(signed, plan: plan, appendedTo: report.appendedTo, output: output)
                + fallback.warnings,
            savings: report.savings.map(CompressionSavings.init))
    }

    /// Writes several parts from one bridge call (which writes them on as many
    /// threads as there are cores, see `pe_export_parts`); all parts reach their
    /// final names only when every one was written.
    func writeParts(
        _ items: [PageItem], document name: String, parts: [(items: Range<Int>, output: String)],
        positions: [Int], settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        if settings.rasterize != nil { throw PDFEditError.usage("--rasterize writes one file, not parts") }
        if settings.rasterizeRedacted != nil {
            throw PDFEditError.usage("--rasterize-redacted writes one file, not parts: export the pages as one file")
        }
        let targets = parts.map { FileIdentity(of: $0.output) }
        var seen: [FileIdentity: String] = [:]
        for (part, key) in zip(parts, targets) {
            if let earlier = seen[key] {
                throw PDFEditError.usage("two parts would both be named \(earlier): make --name tell them apart")
            }
            seen[key] = part.output
        }
        // Folders are made only once the names are known to be distinct.
        for directory in Set(parts.map { Paths.quickFolder(of: $0.output) }) {
            try ensureDirectory(directory)
        }
        var checks = outputChecks(settings)
        try PhaseTiming.measure("plan") { () throws(PDFEditError) in
            for (part, target) in zip(parts, targets) { try checks.check(part.output, identity: target) }
        }
        var options = settings.engineOptions(progressUnit: "files")
        setDocumentData(of: items, document: name, on: &options)
        options.redactedTexts = RedactionProof.texts(in: items)
        options.scrub = settings.scrub
        var plan = try plan(items, document: name, settings: settings)
        let signed = try signedSources(of: plan)
        if settings.keepSignatures, let first = signed.first {
            throw PDFEditError.usage(
                "\(session.source(first.id)?.path ?? first.id.description): --keep-signatures: parts of a split are"
                    + " copied, never appended to a signed file")
        }
        options.keepEncryptionOf = settings.keepEncryptionOf.flatMap { plan.sessionSources.firstIndex(of: $0) }
        try setAttachments(of: items, plan: plan, document: name, on: &options)
        let staged = StagedOutput.staging(parts.map(\.output))
        var engineParts = zip(parts, staged).map { ExportPart(items: $0.items, path: $1.temporary) }
        if let document = session.document(named: name), document.outline != nil || settings.outline == .none {
            // The model's outline, pruned to each part (an older session's document: the sources').
            options.outline = []
            let pruning = PhaseTiming.now()
            defer { PhaseTiming.add("outlines", since: pruning) }
            for index in engineParts.indices {
                let part = Array(items[parts[index].items])
                engineParts[index].outline =
                    session.exportedOutline(of: document, items: part, policy: settings.outline) ?? []
            }
        }
        let report = try run(&plan, staged: staged) { (plan) throws(EngineError) in
            try PDFExporter.writeParts(
                sources: plan.sources, items: plan.items, stamps: plan.stamps, parts: engineParts,
                options: options)
        }
        do throws(PDFEditError) {
            for (part, file) in zip(parts, staged) {
                try RedactionProof.verify(
                    file.temporary, output: part.output, items: Array(items[part.items]),
                    passwords: [options.encryption?.userPassword].compactMap { $0 } + plan.sources.compactMap(\.password))
            }
        } catch {
            staged.forEach { $0.discard() }
            throw error
        }
        // All parts appear together: a Ctrl-C now takes effect once every one is renamed.
        try PhaseTiming.measure("commit") { () throws(PDFEditError) in
            try Cancellation.deferringSignals { () throws(PDFEditError) in try StagedOutput.commitAll(staged) }
        }
        let folder = parts.first.map { Paths.quickFolder(of: $0.output) } ?? "."
        let shownFolder = folder.hasSuffix("/") ? folder : folder + "/"
        let warnings =
            report.warnings.map { describe($0, output: shownFolder, parts: parts.map(\.output)) }
            + decryptionWarning(report, output: shownFolder, settings: settings)
            + signatureWarnings(signed, plan: plan, appendedTo: nil, output: shownFolder)
        return parts.enumerated().map { index, part in
            ExportResult(
                output: part.output, document: name, pageCount: part.items.count,
                first: positions[part.items.lowerBound], last: positions[part.items.upperBound - 1],
                warnings: index == 0 ? warnings : [])
        }
    }

    /// Runs an engine write into the staged outputs' temporaries, asking for a
    /// password on the terminal once when none of the known ones worked. On failure
    /// the temporaries are removed, and a write error names the output the user
    /// asked for, not its temporary file.
    func run(
        _ plan: inout EnginePlan, staged: [StagedOutput], _ body: (EnginePlan) throws(EngineError) -> ExportReport
    ) throws(PDFEditError) -> ExportReport {
        func removeTemporaries() { staged.forEach { $0.discard() } }
        do throws(PDFEditError) {
            try CancellationToken.check()
        } catch {
            removeTemporaries()
            throw error
        }
        func attempt(_ plan: EnginePlan) -> Result<ExportReport, EngineError> {
            do throws(EngineError) { return .success(try body(plan)) } catch { return .failure(error) }
        }
        var outcome = attempt(plan)
        if case .failure(.password(let file, _)) = outcome, access.passwords.mayPrompt {
            if let index = plan.sources.firstIndex(where: { $0.path == file }),
                let id = plan.sessionSources[index]
            {
                do throws(PDFEditError) {
                    plan.sources[index].password = try access.password(for: id)
                } catch {
                    removeTemporaries()
                    throw error
                }
                outcome = attempt(plan)
            } else {
                outcome = .failure(.password(file: file, given: true))
            }
        }
        switch outcome {
        case .success(let report):
            return report
        case .failure(let error):
            removeTemporaries()
            // Stopped by the host's token (`pe_export_options.cancel`), not a failure of a file.
            try CancellationToken.check()
            // `--keep-signatures` on a file that cannot take an appended update:
            // the command asked for what this file cannot give (64).
            if case .library(let file, let message) = error, message.hasPrefix(ExportStrategy.notAppendedMessage) {
                let shown = session.sources.first { access.absolutePath($0.path) == file }?.path ?? file
                throw PDFEditError.usage(
                    "\(shown): --keep-signatures: \(message.dropFirst(ExportStrategy.notAppendedMessage.count))")
            }
            // A failure of an output is told by its final name, never the hidden temporary's.
            if let output = staged.first(where: { $0.temporary == error.file })?.path {
                switch error {
                case .cannotWrite(_, let reason):
                    throw PDFEditError.engine(.cannotWrite(file: output, reason: reason))
                case .library(_, let message):
                    throw PDFEditError.engine(.library(file: output, message: message))
                case .outOfMemory:
                    throw PDFEditError.engine(.outOfMemory(file: output))
                default:
                    break
                }
            }
            throw PDFEditError.engine(error)
        }
    }

    /// An engine warning as the kit's `Warning`, naming the source as the session
    /// stores it (as the user gave it), not by the absolute path the engine was handed.
    /// A split's redaction leftovers name their part (`parts`: the parts' outputs, in order).
    func describe(_ warning: ExportWarning, output: String = "output", parts: [String] = []) -> Warning {
        if warning.file == nil, warning.message.hasPrefix(ExportWarning.redactedLeftoverPrefix) {
            let line = warning.message.dropFirst(ExportWarning.redactedLeftoverPrefix.count)
            if !parts.isEmpty, let colon = line.firstIndex(of: ":"), let index = Int(line[..<colon]),
                parts.indices.contains(index)
            {
                let message = line[line.index(after: colon)...].drop { $0 == " " }
                return .exportNotice(file: parts[index], message: String(message))
            }
            return .exportNotice(file: output, message: String(line))
        }
        guard let file = warning.file else { return Warning(warning, file: "output") }
        let shown = session.sources.first { access.absolutePath($0.path) == file }?.path ?? file
        return Warning(warning, file: shown)
    }

    /// The one warning of an output written unencrypted from encrypted sources
    /// (named as the session stores them), unless the user asked to decrypt.
    func decryptionWarning(_ report: ExportReport, output: String, settings: ExportSettings) -> [Warning] {
        guard settings.warnsWhenDecrypting, !report.decryptedSources.isEmpty else { return [] }
        let shown = report.decryptedSources.map { file in
            session.sources.first { access.absolutePath($0.path) == file }?.path ?? file
        }
        return [.writtenUnencrypted(output: output, encryptedSources: shown)]
    }

    /// An output may not name a source (73), nor replace a file without --force (73)
    /// (see `OutputChecks`).
    func checkOutput(_ output: String, settings: ExportSettings) throws(PDFEditError) {
        var checks = outputChecks(settings)
        try checks.check(output)
    }

    /// The checks of this export's outputs.
    func outputChecks(_ settings: ExportSettings) -> OutputChecks {
        OutputChecks(
            sources: session.sources.map { access.absolutePath($0.path) }, protected: protected,
            force: settings.force, replaceable: replaceable, allowedSource: allowedSource, direct: direct,
            alsoRead: fontFiles.map { ($0, "a font file") })
    }

    /// The font files the session's text stamps draw with (`--font FILE`, kept by
    /// absolute path): read at export like sources, so no output may replace one.
    private var fontFiles: [String] {
        var files: Set<String> = []
        for document in session.documents {
            for item in document.items {
                for stamp in item.stamps {
                    if let name = stamp.text?.fontName, name.hasPrefix("/") { files.insert(name) }
                }
            }
        }
        return files.sorted()
    }
}
