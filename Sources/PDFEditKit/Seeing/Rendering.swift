#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// How `render` draws pages and writes them as image files.
///
/// ```swift
/// var settings = RenderSettings()
/// settings.resolution = .dpi(300)
/// settings.colors = .gray
/// try editor.render(to: "pages/page-{n}.png", settings: settings)
/// ```
public struct RenderSettings: Sendable {
    /// How large each image is.
    public enum Resolution: Sendable, Equatable {
        /// Dots per inch (1 to 2400): a page side of S points is S × N / 72
        /// pixels, rounded up as `pdftoppm -r N` rounds.
        case dpi(Double)
        /// This many pixels wide (1 to 32,767), the height in proportion.
        case width(Int)
        /// This many pixels high (1 to 32,767), the width in proportion.
        case height(Int)
    }

    /// The image file format.
    public enum Format: String, Sendable, CaseIterable, Codable {
        /// PNG (8-bit RGB, RGBA, gray, gray and alpha, or 1-bit).
        case png
        /// Baseline JPEG (libjpeg-turbo), RGB or gray; no transparency.
        case jpeg
        /// TIFF (libtiff, Deflate; CCITT Group 4 when mono): one file of several
        /// pages when items share a name.
        case tiff
    }

    /// The colours written.
    public enum Colors: String, Sendable, CaseIterable, Codable {
        /// RGB.
        case color
        /// 8-bit luminance.
        case gray
        /// 1 bit a pixel: white where the luminance is at least half, else black (no dithering).
        case mono
    }

    /// How large each image is (default 150 dpi).
    public var resolution: Resolution = .dpi(150)
    /// The format; nil: from the file name's extension (`.png`, `.jpg`/`.jpeg`, `.tif`/`.tiff`).
    public var format: Format?
    /// JPEG quality, 1 to 100 (default 90); other formats are lossless.
    public var quality = 90
    /// Colour, gray or black and white.
    public var colors: Colors = .color
    /// Pages on a transparent background instead of white (PNG and TIFF; not with mono).
    public var transparent = false
    /// Draw the pages' annotations (default); false leaves them out, as
    /// printing without annotations does (form fields are still drawn).
    public var annotations = true
    /// Replace image files that exist.
    public var force = false
    /// Told how many pages are done (phase "rendering", unit "pages"), from worker threads.
    public var progress: ProgressHandler?
    /// Threads drawing pages (nil: one per core). `apply` draws each file on one.
    package var threads: Int?

    /// The default settings: 150 dpi PNG in colour on white, with annotations.
    public init() {}

    /// The checks a command line makes of its values (64): the resolution's
    /// range, the quality's, and pairs a format cannot write.
    func check(format: Format) throws(PDFEditError) {
        switch resolution {
        case .dpi(let dpi):
            try checkedResolution(dpi, option: "--dpi")
        case .width(let pixels), .height(let pixels):
            guard (1...RasterImage.maximumSide).contains(pixels) else {
                let name = if case .width = resolution { "--width" } else { "--height" }
                throw PDFEditError.usage("\(name) takes 1 to \(RasterImage.maximumSide) pixels, not \(pixels)")
            }
        }
        guard (1...100).contains(quality) else { throw PDFEditError.usage("--quality takes 1 to 100, not \(quality)") }
        if transparent && format == .jpeg {
            throw PDFEditError.usage("--background transparent: JPEG has no transparency (write PNG or TIFF)")
        }
        if transparent && colors == .mono {
            throw PDFEditError.usage("--background transparent does not go with --mono (1-bit images have no alpha)")
        }
    }

    var sizing: PixelSizing {
        switch resolution {
        case .dpi(let dpi): .dpi(dpi)
        case .width(let pixels): .width(pixels)
        case .height(let pixels): .height(pixels)
        }
    }
}

/// What `render` wrote. The JSON shape is documented in docs/manual.md.
public struct RenderResult: Encodable, Equatable, Sendable {
    /// One page written.
    public struct Image: Codable, Equatable, Sendable {
        /// 1-based position in the document.
        public var position: Int
        /// The item's stable id.
        public var id: String
        /// page, blank, image, placeholder or sheet.
        public var kind: String
        /// The file it is in.
        public var file: String
        /// Its page in that file (1 but in a multi-page TIFF).
        public var page: Int
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
    }

    /// The document drawn.
    public var document: String
    /// The format written.
    public var format: RenderSettings.Format
    /// The images, in document order.
    public var images: [Image]
    /// The files written, in the order of their first page.
    public var files: [String]
    /// Problems met while drawing (a page drawn without content the renderer skipped).
    public var warnings: [Warning] = []

    private enum CodingKeys: String, CodingKey {
        case document, format, images, files
    }
}

/// `render`: page items drawn as `show` and `thumbs` draw them (`StampedRenderer`,
/// one picture per item at the asked size, on every core), each written as an
/// image file named by a `PartNameTemplate` (the fields of `export --split`),
/// atomically, after the output checks every output passes.
struct PageImages {
    let session: Session
    let access: SourceAccess
    /// The files no output may replace beyond the sources (the session's own).
    let protected: [String]
    /// How an image source becomes the one-page PDF that is drawn.
    let imagePDF: (SourceID, PageSize?) throws(PDFEditError) -> String

    /// Draws `items` (at `positions` of `document`) into the files `pattern`
    /// names: `FOLDER/NAME` where NAME takes `{n}` (the image's number among
    /// them, zero-padded to the width of their count), `{first}`/`{last}` (its
    /// position), `{id}`, `{doc}`, `{src}`, `{srcpage}`. Several items need a
    /// field, except in TIFF, where items given one name are the pages of one file.
    func render(
        _ items: [PageItem], positions: [Int], document: Document, pattern: String, settings: RenderSettings
    ) throws(PDFEditError) -> RenderResult {
        guard !items.isEmpty else {
            throw PDFEditError.notExportable("document \"\(document.name)\" is empty: nothing to render")
        }
        let (folder, name) = Self.folderAndName(pattern)
        let ext = Paths.pathExtension(of: name)
        guard let format = settings.format ?? ImageFileFormat(fileExtension: ext).flatMap({ .init(rawValue: $0.rawValue) })
        else {
            throw PDFEditError.usage(
                "-o \(pattern): say the format with the name's extension (.png, .jpg, .tiff) or with --format")
        }
        try settings.check(format: format)
        let template = try PartNameTemplate(
            name, option: "-o", fileExtension: nil, fields: PartNameTemplate.imageFields)
        if !template.hasFields && items.count > 1 && format != .tiff {
            let stem = Paths.extensionRemoved(name)
            throw PDFEditError.usage(
                "-o \(pattern): \(items.count) images need a field in the name, e.g. -o '\(pattern.contains("/") ? Paths.folderPrefix(folder) : "")\(stem)-{n}.\(ext.isEmpty ? format.rawValue : ext)' (or one multi-page .tiff)")
        }
        // Names, and which items share a file (TIFF) or clash (the others).
        let prefix = pattern.contains("/") ? Paths.folderPrefix(folder) : ""
        var targets: [String] = []
        var firstOfFile: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let file = try template.name(
                number: index + 1, partCount: items.count, first: positions[index], last: positions[index], item: item,
                document: document.name, sourcePath: item.content.source.flatMap { access.path(of: $0) }, title: nil)
            let target = prefix + file
            if let earlier = firstOfFile[target], format != .tiff {
                throw PDFEditError.usage(
                    "-o \(pattern): positions \(positions[earlier]) and \(positions[index]) would both be written to \(target)")
            }
            if firstOfFile[target] == nil { firstOfFile[target] = index }
            targets.append(target)
        }
        var checks = OutputChecks(
            sources: session.sources.map { access.absolutePath($0.path) }, protected: protected, force: settings.force)
        // The folder first: the checks ask whether it can be written in.
        if folder != "." { try ensureDirectory(folder) }
        for (target, _) in firstOfFile.sorted(by: { $0.value < $1.value }) { try checks.check(target) }

        let renderer = StampedRenderer(
            sizing: settings.sizing, texts: OutputLabels.stampTexts(of: document, access: access),
            transparent: settings.transparent, annotations: settings.annotations)
        try renderer.prepare(items, access: access, imagePDF: imagePDF)
        let pool = WorkerPool(workers: settings.threads ?? ProcessInfo.processInfo.activeProcessorCount)
        let counter = ProgressCounter(total: items.count, unit: "pages", phase: "rendering", handler: settings.progress)
        let dpi: Double = if case .dpi(let value) = settings.resolution { value } else { 0 }
        let sizes = Slots<(Int, Int)>(count: items.count)
        let encode = { (image: RasterImage) -> PackedPixels in
            image.packed(colors: PixelColors(rawValue: settings.colors.rawValue) ?? .color, alpha: settings.transparent)
        }
        var pageInFile = Array(repeating: 1, count: items.count)
        if format == .tiff {
            // Pages of one file go in order: a round of one item per worker is
            // drawn at once, then appended in order (so memory holds a round).
            var open: [String: (staged: StagedOutput, writer: TIFFWriter)] = [:]
            var lastOfFile: [String: Int] = [:]
            var pagesSoFar: [String: Int] = [:]
            for (index, target) in targets.enumerated() {
                lastOfFile[target] = index
                pagesSoFar[target, default: 0] += 1
                pageInFile[index] = pagesSoFar[target] ?? 1
            }
            do throws(PDFEditError) {
                var start = 0
                while start < items.count {
                    let round = Array(start..<min(items.count, start + pool.workerCount))
                    let drawn = Slots<PackedPixels>(count: round.count)
                    try renderer.forEach(round.map { items[$0] }, pool: pool, progress: counter) {
                        (job, image) throws(PDFEditError) in
                        renderer.fillPendingRedactions(in: image, of: items[round[job]], access: access)
                        drawn[job] = encode(image)
                    }
                    for (job, index) in round.enumerated() {
                        guard let pixels = drawn[job] else { continue }
                        let target = targets[index]
                        if open[target] == nil {
                            let staged = StagedOutput(target, removingStale: true)
                            do throws(EngineError) {
                                open[target] = (staged, try TIFFWriter(path: staged.temporary))
                            } catch {
                                staged.discard()
                                throw PDFEditError.engine(error)
                            }
                        }
                        guard let file = open[target] else { continue }
                        do throws(EngineError) {
                            try file.writer.add(pixels, dpi: dpi)
                            if lastOfFile[target] == index { try file.writer.close() }
                        } catch {
                            throw PDFEditError.engine(.cannotWrite(file: target, reason: error.description))
                        }
                        if lastOfFile[target] == index {
                            open[target] = nil
                            try file.staged.commit(syncFolder: false)
                        }
                        sizes[index] = (pixels.width, pixels.height)
                    }
                    start += round.count
                }
            } catch {
                for file in open.values { file.staged.discard() }
                throw error
            }
        } else {
            let quality = settings.quality
            let plainColor = settings.colors == .color && !settings.transparent
            try renderer.forEach(items, pool: pool, progress: counter) { (job, image) throws(PDFEditError) in
                renderer.fillPendingRedactions(in: image, of: items[job], access: access)
                let bytes: [UInt8]
                let size = (image.width, image.height)
                if format == .png && plainColor {
                    bytes = ImageEncoding.png(image, dpi: dpi)
                } else if format == .jpeg {
                    let pixels = encode(image)
                    do throws(EngineError) {
                        bytes = try ImageEncoding.jpeg(pixels, quality: quality, dpi: dpi, file: targets[job])
                    } catch {
                        throw PDFEditError.engine(error)
                    }
                } else {
                    bytes = ImageEncoding.png(encode(image), dpi: dpi)
                }
                guard !bytes.isEmpty else { throw PDFEditError.engine(.outOfMemory(file: targets[job])) }
                try SeeingChecks.write(Data(bytes), to: targets[job])
                sizes[job] = size
            }
        }
        let files = firstOfFile.sorted { $0.value < $1.value }.map(\.key)
        StagedOutput.syncFolders(of: files)
        let measured = sizes.removeAll()
        let images = items.enumerated().map { index, item in
            RenderResult.Image(
                position: positions[index], id: item.id.description, kind: item.content.kindName, file: targets[index],
                page: pageInFile[index], width: measured[index]?.0 ?? 0, height: measured[index]?.1 ?? 0)
        }
        return RenderResult(document: document.name, format: format, images: images, files: files)
    }

    /// `out/page-{n}.png` → ("out", "page-{n}.png"); a bare name → (".", name).
    static func folderAndName(_ pattern: String) -> (String, String) {
        guard let slash = pattern.lastIndex(of: "/") else { return (".", pattern) }
        let folder = String(pattern[..<slash])
        return (folder.isEmpty ? "/" : folder, String(pattern[pattern.index(after: slash)...]))
    }

    /// An `apply` output (`out/a.png`, apply's fields filled) as a render
    /// pattern: `out/a-{n}.png`, one image per page; a TIFF stays one file.
    static func applyPattern(_ output: String, settings: RenderSettings) -> String {
        let (folder, name) = folderAndName(output)
        let ext = Paths.pathExtension(of: name)
        let format = settings.format ?? ImageFileFormat(fileExtension: ext).flatMap { .init(rawValue: $0.rawValue) }
        if format == .tiff { return output }
        let stem = ext.isEmpty ? name : Paths.extensionRemoved(name)
        return Paths.join(folder, stem + "-{n}" + (ext.isEmpty ? "" : "." + ext))
    }
}

extension DirectMode {
    /// `render [SEL] FILE -o PATTERN` (or `--from FILE`): pages of a file drawn
    /// into image files without a session (see `PageImages.render`).
    package func render(selection: PageSelection?, pattern: String, settings: RenderSettings) throws(PDFEditError)
        -> RenderResult
    {
        let editor = try open()
        let name = editor.documentNames[0]
        let chosen = try Self.naming(input) { () throws(PDFEditError) in try editor.pick(selection, in: name) }
        var result = try editor.renderImages(
            chosen.items, positions: chosen.positions, document: try editor.session.chosenDocument(name),
            pattern: pattern, settings: settings)
        result.warnings = Warning.oneDamageWarningPerFile(editor.openingWarnings)
        return result
    }
}

extension PageEditor {
    /// Draws `items` of `document` into the files `pattern` names (see
    /// `PageImages.render`), images converted in the editor's folder: what
    /// direct mode's `render FILE` and `apply`'s `render` line draw.
    package func renderImages(
        _ items: [PageItem], positions: [Int], document: Document, pattern: String, settings: RenderSettings
    ) throws(PDFEditError) -> RenderResult {
        let access = access
        let writer = ExportWriter(session: session, access: access, cacheDirectory: try imageFolder())
        let images = PageImages(
            session: session, access: access, protected: protectedFiles,
            imagePDF: { (source, fit) throws(PDFEditError) in try writer.imagePDF(source, fit: fit) })
        return try access.surfacingLookupFailure { () throws(PDFEditError) in
            try images.render(items, positions: positions, document: document, pattern: pattern, settings: settings)
        }
    }
}

extension ExportWriter {
    /// `export --rasterize DPI [--gray]`: `items` drawn as `render` draws them
    /// (on white, with annotations), each written as one picture on a page of
    /// its size as displayed (`RasterPDF`, cairo's PDF surface), atomically.
    /// A round of one page per core is drawn at once, then written in order.
    func rasterize(
        _ items: [PageItem], document name: String, to output: String, dpi: Double, settings: ExportSettings,
        positions: ClosedRange<Int>?
    ) throws(PDFEditError) -> ExportResult {
        guard !items.isEmpty else { throw PDFEditError.notExportable("document \"\(name)\" is empty: nothing to export") }
        try checkedResolution(dpi, option: "--rasterize")
        if settings.compress || settings.linearize || settings.images != nil || settings.outputEncryption != nil {
            throw PDFEditError.usage(
                "--rasterize writes its own file: not with --compress, --linearize, --images or --encrypt")
        }
        try refusePlaceholders(items, document: name, settings: settings)
        let signed = try access.surfacingLookupFailure { () throws(PDFEditError) in
            access.signedSources(items.flatMap(\.content.sources))
        }
        if settings.keepSignatures, let first = signed.first {
            throw PDFEditError.usage("\(first.source): --keep-signatures: a rasterized output is drawn anew, not appended")
        }
        try checkOutput(output, settings: settings)
        // Placeholders left are blank pages (`--placeholders blank`).
        let drawn = items.map { item -> PageItem in
            guard case .placeholder(let size, _) = item.content else { return item }
            var blank = item
            blank.content = .blank(size)
            return blank
        }
        let document = session.document(named: name) ?? Document(name: name, items: drawn)
        let renderer = StampedRenderer(
            sizing: .dpi(dpi), texts: OutputLabels.stampTexts(of: document, access: access), transparent: false,
            annotations: true)
        try access.surfacingLookupFailure { () throws(PDFEditError) in
            try renderer.prepare(drawn, access: access) { (source, fit) throws(PDFEditError) in
                try imagePDF(source, fit: fit)
            }
        }
        let pool = WorkerPool()
        let counter = ProgressCounter(
            total: drawn.count, unit: "pages", phase: "rasterizing", handler: settings.progress)
        let staged = StagedOutput(output, removingStale: true)
        var proven = drawn
        do throws(PDFEditError) {
            let pdf: RasterPDF
            do throws(EngineError) { pdf = try RasterPDF(path: staged.temporary) } catch { throw .engine(error) }
            var start = 0
            while start < drawn.count {
                let round = Array(start..<min(drawn.count, start + pool.workerCount))
                let images = Slots<RasterImage>(count: round.count)
                try renderer.forEach(round.map { drawn[$0] }, pool: pool, progress: counter) {
                    (job, image) throws(PDFEditError) in
                    images[job] = image
                }
                for (job, index) in round.enumerated() {
                    guard let image = images[job], let size = renderer.displayedSize(of: drawn[index]) else { continue }
                    // Pending redactions: the picture is all the page keeps, so
                    // its regions are filled in it (and proven below).
                    let regions = renderer.fillPendingRedactions(in: image, of: drawn[index], access: access)
                    proven[index].finish = regions.map { PageFinish.redact($0) }
                    do throws(EngineError) {
                        try pdf.add(image, width: size.width, height: size.height, dpi: dpi, gray: settings.rasterizeGray)
                    } catch {
                        throw .engine(error)
                    }
                }
                start += round.count
            }
            do throws(EngineError) { try pdf.finish() } catch { throw .engine(error) }
            try RedactionProof.verify(staged.temporary, output: output, items: proven, passwords: [])
            try staged.commit()
        } catch {
            staged.discard()
            throw error
        }
        let notice = Warning.exportNotice(
            file: output,
            message: "rasterized at \(decimalText(dpi, decimals: 3)) dpi: its pages are pictures only, "
                + "their text, links, annotations, form fields and bookmarks are gone")
        return ExportResult(
            output: output, document: name, pageCount: items.count, first: positions?.lowerBound,
            last: positions?.upperBound,
            warnings: [notice]
                + signed.map {
                    .signaturesInvalidated(source: $0.source, output: output, signatures: $0.signatures.map(\.shownName))
                })
    }
}

extension StampedRenderer {
    /// Paints an item's pending redaction regions in the fill colour on its
    /// picture (the page as displayed): a rendered or rasterized page never
    /// shows what a pending redaction will remove. Returns the regions, moved
    /// onto the page as displayed.
    @discardableResult
    func fillPendingRedactions(in image: RasterImage, of item: PageItem, access: SourceAccess) -> [Redaction] {
        let regions = StampedRenderer.shownRegions(of: item, access: access)
        guard !regions.isEmpty, let size = displayedSize(of: item) else { return regions }
        let across = Double(image.width) / size.width
        let down = Double(image.height) / size.height
        for region in regions {
            let (red, green, blue) = region.fill.rgb
            let rect = region.rect
            image.paint(
                [(x: rect.x0 * across, y: (size.height - rect.y1) * down, width: rect.width * across,
                  height: rect.height * down)], red: red, green: green, blue: blue)
        }
        return regions
    }
}

/// The one check of a resolution in dots per inch (`--dpi`, `--rasterize`,
/// `--rasterize-redacted`): a finite number from 1 to 2400, else a usage
/// error naming the option.
func checkedResolution(_ dpi: Double, option: String) throws(PDFEditError) {
    guard dpi.isFinite, dpi >= 1, dpi <= 2400 else {
        throw PDFEditError.usage("\(option) takes 1 to 2400 dots per inch, not \(decimalText(dpi, decimals: 3))")
    }
}
