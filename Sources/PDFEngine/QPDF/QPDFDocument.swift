import CQPDF

/// A PDF opened read-only through libqpdf's C API (`qpdf-c.h`).
///
/// Owns its `qpdf_data` and frees it in `deinit` (`qpdf_cleanup`). Every call goes
/// through `checked(_:)`, which asks `qpdf_has_error` afterwards — the C API's only
/// reliable way to learn about an error — and turns it into an `EngineError` naming
/// the file. Warnings are never printed: they are drained into `warnings`.
///
/// Not `Sendable`: a `qpdf_data` must not be shared between threads. Parallel work
/// opens one document per task.
public final class QPDFDocument {
    let handle: qpdf_data
    public let path: String
    /// Warnings qpdf raised while reading (damage it recovered from, for example).
    public private(set) var warnings: [String] = []

    /// Opens and parses `path` (`qpdf_read`). A read error is fatal even when the
    /// handle would still answer questions (a wrong password leaves it half-usable).
    public init(path: String, password: String? = nil) throws(EngineError) {
        guard let data = qpdf_init() else {
            throw EngineError.library(file: path, message: "qpdf_init failed")
        }
        handle = data
        self.path = path
        qpdf_silence_errors(handle)
        qpdf_set_suppress_warnings(handle, QPDF_TRUE)
        let status = qpdf_read(handle, path, password ?? "")
        if status & QPDF_ERRORS != 0 || qpdf_has_error(handle) != QPDF_FALSE {
            let error = takeError() ?? .library(file: path, message: "qpdf could not read the file")
            throw error
        }
        drainWarnings()
        // qpdf builds the page list recursively: a tree nested too deep would
        // overflow the stack there (see PageTree.maximumDepth), so it is measured first.
        if !pageTreeIsWithinDepth() {
            throw EngineError.unsupported(
                file: path, page: nil,
                detail: "the page tree is nested more than \(PageTree.maximumDepth) levels deep")
        }
        // Trees poppler walks recursively, before poppler ever sees the file.
        try checkTreeDepths()
        // Building the page list is where page-tree damage (loops, bad /Kids) shows.
        _ = qpdf_get_num_pages(handle)
        if let error = takeError() { throw error }
        drainWarnings()
    }

    deinit {
        var data: qpdf_data? = handle
        qpdf_cleanup(&data)
    }

    // MARK: Error plumbing

    /// Runs one C call and throws if qpdf recorded an error during it.
    func checked<T>(_ page: Int? = nil, _ call: (qpdf_data) -> T) throws(EngineError) -> T {
        let value = call(handle)
        if let error = takeError(page: page) { throw error }
        return value
    }

    private func takeError(page: Int? = nil) -> EngineError? {
        guard qpdf_has_error(handle) != QPDF_FALSE, let error = qpdf_get_error(handle) else { return nil }
        let code = qpdf_get_error_code(handle, error)
        let detail = String(cString: qpdf_get_error_message_detail(handle, error))
        return EngineError(qpdfCode: code, file: path, page: page, detail: detail)
    }

    private func drainWarnings() {
        while qpdf_more_warnings(handle) != QPDF_FALSE {
            guard let warning = qpdf_next_warning(handle) else { break }
            // The full text starts with the file name, which every message of ours names anyway.
            let text = String(cString: qpdf_get_error_full_text(handle, warning))
            warnings.append(text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text)
        }
    }

    // MARK: Document facts

    public func pageCount() throws(EngineError) -> Int {
        Int(try checked { qpdf_get_num_pages($0) })
    }

    public func pdfVersion() throws(EngineError) -> String {
        try checked { String(cString: qpdf_get_pdf_version($0)) }
    }

    public func isEncrypted() throws(EngineError) -> Bool {
        try checked { qpdf_is_encrypted($0) } != QPDF_FALSE
    }

    /// Whether the permissions let pages be assembled (inserted, rotated, removed).
    public func allowsAssembly() throws(EngineError) -> Bool {
        try checked { qpdf_allow_modify_assembly($0) } != QPDF_FALSE
    }

    /// A text value from the document information dictionary, e.g. `Producer`,
    /// decoded from PDFDocEncoding or UTF-16 to UTF-8.
    public func infoValue(_ key: String) throws(EngineError) -> String? {
        guard let info = try trailer.value("Info"), try info.isDictionary else { return nil }
        return try info.value(key)?.text
    }

    public var root: QPDFObject {
        get throws(EngineError) { QPDFObject(document: self, handle: try checked { qpdf_get_root($0) }) }
    }

    public var trailer: QPDFObject {
        get throws(EngineError) { QPDFObject(document: self, handle: try checked { qpdf_get_trailer($0) }) }
    }

    /// The page object at 0-based `index` (`qpdf_get_page_n`), bounds-checked first:
    /// qpdf raises an internal error rather than a clean one when out of range.
    public func page(at index: Int) throws(EngineError) -> QPDFObject {
        let count = try pageCount()
        guard index >= 0, index < count else {
            throw EngineError.pageOutOfRange(file: path, page: index + 1, pageCount: count)
        }
        let oh = try checked(index + 1) { qpdf_get_page_n($0, Int(index)) }
        return QPDFObject(document: self, handle: oh)
    }
}
