import QPDFBridge

/// A PDF opened read-only by the bridge (`pe_reader_open`) for what `info`,
/// `list` and the kit's page sizes read of it: document facts and page geometry.
///
/// It is opened as an export opens its sources — qpdf with recovery, the page
/// tree and the trees poppler walks recursively measured first (over
/// `PageTree.maximumDepth`: `.unsupported` for the page tree, `.overLimit` for
/// the others), then the page list built, where page-tree damage shows.
/// Warnings are never printed: they are kept in `warnings`.
///
/// Not `Sendable`: the handle must not be used by two threads at once. Parallel
/// work opens one reader per task.
public final class PDFReader {
    private let handle: OpaquePointer
    public let path: String
    public let pageCount: Int
    /// Damage qpdf recovered from while reading, as qpdf words it without the
    /// file name ("(offset N): ...").
    public let warnings: [String]

    /// Opens and checks `path` with `password` (nil or empty: none). A wrong or
    /// missing password is `.password(given: true)`: callers that know better
    /// (the password book) say so.
    public init(path: String, password: String? = nil) throws(EngineError) {
        let collector = OpenWarnings()
        var status = pe_status()
        var reader: OpaquePointer?
        var pages: Int32 = 0
        let code = withExtendedLifetime(collector) {
            pe_reader_open(
                path, password ?? "", &reader, &pages,
                { context, _, message in
                    guard let context, let message else { return }
                    Unmanaged<OpenWarnings>.fromOpaque(context).takeUnretainedValue().lines.append(String(cString: message))
                }, Unmanaged.passUnretained(collector).toOpaque(), &status)
        }
        guard code == Int32(PE_OK), let reader else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        handle = reader
        self.path = path
        pageCount = Int(pages)
        // qpdf's full text starts with the file name, which every message of ours names anyway.
        warnings = collector.lines.map { $0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0 }
    }

    deinit { pe_reader_close(handle) }

    /// The document-level facts `info` reports (`pe_reader_facts_of`).
    public func facts() throws(EngineError) -> DocumentFacts {
        var status = pe_status()
        var facts = pe_reader_facts()
        let texts = NamedTexts()
        let code = withExtendedLifetime(texts) {
            pe_reader_facts_of(
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
            isTagged: facts.tagged != 0)
    }

    /// Effective attributes of the page at 0-based `index`, inherited values
    /// resolved (`pe_reader_page_geometry`, the bridge's geometry rules).
    public func attributes(ofPage index: Int) throws(EngineError) -> PageAttributes {
        guard index >= 0, index < pageCount else {
            throw EngineError.pageOutOfRange(file: path, page: index + 1, pageCount: pageCount)
        }
        var status = pe_status()
        var geometry = pe_page_geometry()
        guard pe_reader_page_geometry(handle, Int32(index), &geometry, &status) == Int32(PE_OK) else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        func rect(_ box: (Double, Double, Double, Double)) -> PDFRect {
            PDFRect(x0: box.0, y0: box.1, x1: box.2, y1: box.3)
        }
        return PageAttributes(
            mediaBox: rect(geometry.media_box), cropBox: rect(geometry.crop_box),
            rotation: Int(geometry.rotation), userUnit: geometry.user_unit)
    }
}

/// The texts `pe_reader_facts_of` hands over, by key.
private final class NamedTexts {
    var values: [String: String] = [:]
}
