#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel
import QPDFCore

/// A PDF opened and checked by the bridge (`pe_document_open`): parsed with
/// recovery, the page tree and the trees poppler walks recursively measured first
/// (over `PageTree.maximumDepth`: `.unsupported` for the page tree, `.overLimit`
/// for the others), then its page list built, where page-tree damage shows. The
/// one handle on a PDF through qpdf: loading keeps it when an export follows in
/// the same process (direct mode), so that the file is read and checked once;
/// `info`, `list` and the kit's page sizes read its facts and page geometry.
/// Warnings are never printed: they are kept in `warnings`.
///
/// An export may change the document in memory as it copies from it, so it is
/// handed to one export call at a time and never used by two threads at once;
/// `@unchecked Sendable` only so that it can travel with a loaded file from the
/// loading thread to the exporting one. Parallel work opens one per task.
package final class OpenedPDF: @unchecked Sendable, Equatable {
    /// What a PDF is opened for (`PE_OPEN_*`).
    package enum Use: Sendable {
        /// To be an export's source, and read: a page-tree entry that is not a
        /// page is refused (`.damaged`), what pages inherit is found once.
        case export
        /// To be read only (facts, page geometry, page checks), as `info` shows a
        /// file: the page list is left as qpdf builds it. Never given to an export.
        case reading
    }

    let handle: OpaquePointer
    package let path: String
    package let pageCount: Int
    /// Damage qpdf recovered from while reading, as qpdf words it without the
    /// file name ("(offset N): ...").
    package let warnings: [String]

    /// Opens and checks `path` with `password` (nil or empty: none) for `use`. A
    /// wrong or missing password is `.password(given: true)`: callers that know
    /// better (the password book) say so.
    package init(path: String, password: String? = nil, for use: Use = .export) throws(EngineError) {
        let collector = OpenWarnings()
        var status = pe_status()
        var document: OpaquePointer?
        var pages: Int32 = 0
        let code = withExtendedLifetime(collector) {
            FileNames.withCString(path) { path in pe_document_open(
                path, password ?? "", Int32(use == .reading ? PE_OPEN_READ : PE_OPEN_EXPORT), &document, &pages,
                { context, _, message in
                    guard let context, let message else { return }
                    Unmanaged<OpenWarnings>.fromOpaque(context).takeUnretainedValue().lines.append(String(cString: message))
                }, Unmanaged.passUnretained(collector).toOpaque(), &status) }
        }
        guard code == Int32(PE_OK), let document else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        handle = document
        self.path = path
        pageCount = Int(pages)
        // qpdf's full text starts with the file name, which every message of ours names anyway.
        warnings = collector.lines.map { $0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0 }
    }

    deinit { pe_document_close(handle) }

    /// Whether an appended update cannot follow this file, as its opening
    /// shows: qpdf repaired it, or it is encrypted (`Appended::for_file`'s
    /// first refusals; what only writing finds is not known here).
    package var updateRefuses: Bool {
        !warnings.isEmpty || ((try? facts().encrypted) ?? true)
    }

    /// `source` opened for an export with its password, else the first of its
    /// alternatives that opens it, as the bridge tries them; nil when none
    /// does, the file cannot be read or qpdf repaired it (copying then opens it
    /// and says why, or passes on qpdf's warnings as the export's).
    package static func opening(_ source: ExportSource) -> OpenedPDF? {
        let start = PhaseTiming.now()
        defer { PhaseTiming.add("open", since: start) }
        for password in [source.password ?? ""] + source.alternatives {
            do {
                let opened = try OpenedPDF(path: source.path, password: password)
                // One export among many (`export --all`): not all kept when closed.
                pe_document_free_on_close(opened.handle)
                return opened.warnings.isEmpty ? opened : nil
            } catch {
                guard case .password = error else { return nil }
            }
        }
        return nil
    }

    package static func == (lhs: OpenedPDF, rhs: OpenedPDF) -> Bool { lhs === rhs }
}

/// Collects the warning lines of an opening (the `pe_warning_fn` context).
final class OpenWarnings {
    var lines: [String] = []
}

/// What a page may make a reader (poppler) decode: bytes per inflated stream,
/// pixels per image and content operators per page (`Limits.inflatedStreamBytes`,
/// `Limits.pixels`, `Limits.operatorsPerPage`).
package struct ReaderLimits: Sendable, Equatable {
    package var inflatedStreamBytes: Int
    package var pixels: Int
    package var operators: Int

    package init(inflatedStreamBytes: Int, pixels: Int, operators: Int = Limits.standard.operatorsPerPage) {
        self.inflatedStreamBytes = inflatedStreamBytes
        self.pixels = pixels
        self.operators = operators
    }
}

/// What drawing a page costs a reader, as the bridge measured it (`pe_page_check`).
package struct PageCheck: Sendable, Equatable {
    /// Pixels of its largest image, at any depth (0: none).
    package var largestImage: Int
    /// Content operators drawing it runs, each form counted as often as it is drawn.
    package var operators: Int
    /// It holds what a renderer skips without a word (an image wider or taller
    /// than cairo draws, a stream that cannot be decoded): a rendering of it is
    /// not the whole page, so it is never judged empty.
    package var skipsContent: Bool
}

extension OpenedPDF {
    /// Refuses (`.overLimit`, 65, naming the file and page) a page whose streams
    /// (contents, forms at any depth, appearances, patterns, fonts) inflate past
    /// `limits.inflatedStreamBytes`, whose images have more than `limits.pixels`
    /// pixels, or whose drawing runs more than `limits.operators` operators,
    /// before poppler decodes it (poppler has no such bounds). Decoding stops at
    /// the limit.
    @discardableResult
    package func checkForReader(page index: Int, limits: ReaderLimits) throws(EngineError) -> PageCheck {
        var status = pe_status()
        var check = pe_page_check()
        let code = pe_document_check_page(
            handle, Int32(index), Int64(limits.inflatedStreamBytes), Int64(limits.pixels), Int64(limits.operators),
            &check, &status)
        guard code != Int32(PE_OK) else {
            return PageCheck(
                largestImage: Int(check.largest_image), operators: Int(check.operators), skipsContent: check.skipped != 0)
        }
        if code == Int32(PE_E_LIMIT) {
            throw EngineError.overLimit(file: path, page: index + 1, what: EngineError.detail(of: status))
        }
        status.page = 0 // other failures name no page, as at opening
        throw EngineError(status: status, about: BridgeFailure(file: path))
    }
}

extension OpenedPDF {
    /// The document-level facts `info` reports (`pe_document_read_facts`).
    package func facts() throws(EngineError) -> DocumentFacts {
        var status = pe_status()
        var facts = pe_document_facts()
        let texts = NamedTexts()
        let code = withExtendedLifetime(texts) {
            pe_document_read_facts(
                handle, &facts,
                { context, key, text in
                    guard let context, let key, let text else { return }
                    Unmanaged<NamedTexts>.fromOpaque(context).takeUnretainedValue()
                        .values[String(cString: key)] = String(cString: text)
                }, Unmanaged.passUnretained(texts).toOpaque(), &status)
        }
        guard code == Int32(PE_OK) else { throw EngineError(status: status, about: BridgeFailure(file: path)) }
        return DocumentFacts(
            pageCount: Int(facts.page_count),
            pdfVersion: texts.values["Version"] ?? "",
            encrypted: facts.encrypted != 0,
            allowsAssembly: facts.allows_assembly != 0,
            producer: texts.values["Producer"],
            creator: texts.values["Creator"],
            title: texts.values["Title"],
            hasForm: facts.has_form != 0,
            hasOutlines: facts.has_outlines != 0,
            hasPageLabels: facts.has_page_labels != 0,
            isTagged: facts.tagged != 0,
            information: texts.values.filter { $0.key != "Version" })
    }

    /// What the document holds besides its pages (`pe_document_read_contents`),
    /// for `ExportStrategy.allowed`; with `pages` false, what the catalog holds
    /// only (no page keys, annotations or bookmark actions read).
    package func contents(pages: Bool = true) throws(EngineError) -> SourceContents {
        var status = pe_status()
        var read = pe_document_contents()
        let reported = ReportedContents()
        let code = withExtendedLifetime(reported) {
            pe_document_read_contents(
                handle, pages ? 1 : 0, &read,
                { context, kind, text in
                    guard let context, let kind, let text else { return }
                    Unmanaged<ReportedContents>.fromOpaque(context).takeUnretainedValue().add(
                        kind: String(cString: kind), String(cString: text))
                }, Unmanaged.passUnretained(reported).toOpaque(), &status)
        }
        guard code == Int32(PE_OK) else { throw EngineError(status: status, about: BridgeFailure(file: path)) }
        var contents = SourceContents(
            catalogKeys: reported.catalog, nameTrees: reported.names, pageKeys: reported.pageKeys,
            openAction: reported.openAction, outlineActions: reported.outlineActions,
            formFields: read.form_fields != 0, xfa: read.xfa != 0)
        contents.annotations = Int(read.annotations)
        contents.annotationShapes = reported.annotations
        contents.fieldPages = reported.fieldPages
        return contents
    }

    /// What decides whether an output of every page may be this file written
    /// whole (`pe_document_read_whole_file_facts`: walks its structure tree).
    package func wholeFileFacts() throws(EngineError) -> WholeFileFacts {
        var status = pe_status()
        var read = pe_whole_file_facts()
        guard pe_document_read_whole_file_facts(handle, &read, &status) == Int32(PE_OK) else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        return WholeFileFacts(
            repaired: read.repaired != 0, pageTreeCount: read.page_tree_count >= 0 ? Int(read.page_tree_count) : nil,
            structure: read.structure == 0 ? .none : read.structure == 1 ? .readable : .unusable,
            scripts: read.scripts != 0, xfa: read.xfa != 0, optionalContent: read.optional_content != 0,
            sharedAnnotations: read.shared_annotations != 0)
    }

    /// Effective attributes of the page at 0-based `index`, inherited values
    /// resolved (`pe_document_page_geometry`, the bridge's geometry rules).
    package func attributes(ofPage index: Int) throws(EngineError) -> PageAttributes {
        guard index >= 0, index < pageCount else {
            throw EngineError.pageOutOfRange(file: path, page: index + 1, pageCount: pageCount)
        }
        var status = pe_status()
        var geometry = pe_page_geometry()
        guard pe_document_page_geometry(handle, Int32(index), &geometry, &status) == Int32(PE_OK) else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        func rect(_ box: (Double, Double, Double, Double)) -> BoxRect {
            BoxRect(x0: box.0, y0: box.1, x1: box.2, y1: box.3)
        }
        return PageAttributes(
            mediaBox: rect(geometry.media_box), cropBox: rect(geometry.crop_box),
            rotation: Int(geometry.rotation), userUnit: geometry.user_unit)
    }
}

extension OpenedPDF {
    /// What the page at 0-based `index` draws (`pe_document_page_fingerprint`):
    /// a SHA-256 in hex, equal for copies of a page in one file or two (what
    /// its annotations' clicks do left out), the SHA-256 of what those clicks
    /// do, and how many annotations it carries (popups aside).
    package func fingerprint(ofPage index: Int) throws(EngineError) -> (digest: String, clicks: String, annotations: Int) {
        guard index >= 0, index < pageCount else {
            throw EngineError.pageOutOfRange(file: path, page: index + 1, pageCount: pageCount)
        }
        var status = pe_status()
        var hex = [CChar](repeating: 0, count: 65)
        var clicks = [CChar](repeating: 0, count: 65)
        var annotations: Int32 = 0
        guard pe_document_page_fingerprint(handle, Int32(index), &hex, &clicks, &annotations, &status) == Int32(PE_OK)
        else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        func text(_ characters: [CChar]) -> String {
            String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return (text(hex), text(clicks), Int(annotations))
    }
}

extension OpenedPDF {
    /// The document's bookmarks (`pe_document_read_outline`): targets as 1-based
    /// pages (nil: none), titles cut to `OutlineLimits.maximumTitleLength`.
    package func outline() throws(EngineError) -> [SourceOutlineEntry] {
        var status = pe_status()
        let collected = OutlineItems()
        let code = withExtendedLifetime(collected) {
            pe_document_read_outline(
                handle,
                { context, item in
                    guard let context, let item else { return }
                    Unmanaged<OutlineItems>.fromOpaque(context).takeUnretainedValue().add(item.pointee)
                }, Unmanaged.passUnretained(collected).toOpaque(), &status)
        }
        guard code == Int32(PE_OK) else { throw EngineError(status: status, about: BridgeFailure(file: path)) }
        return collected.tree()
    }
}

extension OpenedPDF {
    /// The document's /PageLabels ranges (`pe_document_read_page_labels`), the
    /// prefixes decoded by the bridge (qpdf's one decoder of PDF text strings:
    /// PDFDocEncoding, UTF-16BE or UTF-8 with their marks); nil when the file
    /// has no /PageLabels. Ranges starting past the last page are left out.
    package func pageLabels() throws(EngineError) -> SourcePageLabels? {
        var status = pe_status()
        var hasLabels: Int32 = 0
        let collected = LabelRanges()
        let code = withExtendedLifetime(collected) {
            pe_document_read_page_labels(
                handle, &hasLabels,
                { context, range in
                    guard let context, let range else { return }
                    Unmanaged<LabelRanges>.fromOpaque(context).takeUnretainedValue().add(range.pointee)
                }, Unmanaged.passUnretained(collected).toOpaque(), &status)
        }
        guard code == Int32(PE_OK) else { throw EngineError(status: status, about: BridgeFailure(file: path)) }
        guard hasLabels != 0 else { return nil }
        return SourcePageLabels(ranges: collected.ranges.filter { $0.firstPage <= pageCount })
    }
}

/// The ranges `pe_document_read_page_labels` hands over.
private final class LabelRanges {
    var ranges: [SourceLabelRange] = []

    func add(_ range: pe_label_range) {
        // A key a page can have (0-based, so page key + 1); others name no page.
        guard range.first >= 0, range.first < Int64(Int32.max) else { return }
        var label: PageLabelValue?
        if range.usable != 0 {
            let style =
                range.style == 0
                ? LabelStyle.none : LabelStyle(rawValue: String(UnicodeScalar(UInt8(bitPattern: range.style)))) ?? .none
            label = PageLabelValue(
                style: style, number: Int(clamping: range.start), prefix: range.prefix.map { String(cString: $0) } ?? "")
        }
        ranges.append(SourceLabelRange(firstPage: Int(range.first) + 1, label: label))
    }
}

/// The bookmarks `pe_document_read_outline` hands over, depth first, with their levels.
private final class OutlineItems {
    var items: [(level: Int, entry: SourceOutlineEntry)] = []

    func add(_ item: pe_outline_item) {
        let title = item.title.map { String(cString: $0) } ?? ""
        let view = item.view.map { String(cString: $0).split(separator: "\n").map(String.init) }
        let entry = SourceOutlineEntry(
            title: String(title.prefix(OutlineLimits.maximumTitleLength)), page: item.page >= 0 ? Int(item.page) + 1 : nil,
            isOpen: item.open != 0, view: view,
            color: item.has_color != 0 ? [item.color.0, item.color.1, item.color.2] : nil,
            style: item.flags >= 0 ? Int(item.flags) : nil, uri: item.uri.map { String(cString: $0) },
            action: item.action.map { String(cString: $0) })
        items.append((Int(item.level), entry))
    }

    /// The flat list as a tree (a child follows its parent, one level deeper).
    func tree() -> [SourceOutlineEntry] {
        var index = 0
        return children(level: 0, index: &index)
    }

    private func children(level: Int, index: inout Int) -> [SourceOutlineEntry] {
        var result: [SourceOutlineEntry] = []
        while index < items.count, items[index].level == level {
            var entry = items[index].entry
            index += 1
            entry.children = children(level: level + 1, index: &index)
            result.append(entry)
        }
        return result
    }
}

/// The texts `pe_document_read_facts` hands over, by key.
private final class NamedTexts {
    var values: [String: String] = [:]
}

/// What `pe_document_read_contents` reports, gathered (its `each` context).
private final class ReportedContents {
    var catalog: Set<String> = []
    var names: Set<String> = []
    var pageKeys: Set<String> = []
    var annotations: Set<AnnotationShape> = []
    var fieldPages: Set<Int> = []
    var openAction: ObjectShape?
    var outlineActions: Set<ObjectShape> = []

    /// A shape the reader words in a way not known here is "other": never on
    /// a list, so the output is copied.
    func add(kind: String, _ text: String) {
        switch kind {
        case "catalog": catalog.insert(text)
        case "names": names.insert(text)
        case "page": pageKeys.insert(text)
        case "annotation":
            // "PAGE<tab>shape<tab>action"
            let page = text.prefix { $0 != "\t" }
            let shape = AnnotationShape(reported: String(text.dropFirst(page.count + 1))) ?? AnnotationShape(ObjectShape(.other))
            annotations.insert(shape)
            if shape.isField { fieldPages.insert(Int(page) ?? -1) }
        case "open": openAction = ObjectShape(reported: Substring(text)) ?? ObjectShape(.other)
        case "outline action": outlineActions.insert(ObjectShape(reported: Substring(text)) ?? ObjectShape(.other))
        default: catalog.insert(kind)  // a kind of fact not known here: judged as an unknown catalog entry
        }
    }
}
