import Foundation
import PDFEngine
import PageModel

/// Reaches a session's source files: where they are, whether they are still the
/// files that were imported, and (lazily, one open handle per source) their page
/// sizes, text and labels. Not `Sendable`: it caches library handles.
///
/// Page texts, labels and sizes are cached per source SHA-256 in the session's
/// cache folder (see `SeeingCache`), so `find`, `list` and `text:` selections
/// extract each page once, and `show` needs no PDF parsing once its thumbnails
/// exist; what a command learnt is written back when the access is released (or
/// by `saveCaches()`).
public final class SourceAccess {
    public let baseDirectory: String
    public let passwords: PasswordBook
    /// The session's cache folder; nil: nothing is cached on disk (direct mode).
    public let cacheDirectory: String?
    private var documents: [SourceID: QPDFDocument] = [:]
    private var popplers: [SourceID: PopplerPDF] = [:]
    private var images: [SourceID: ImageFacts] = [:]
    private var passwordsUsed: [SourceID: String] = [:]
    /// Sources whose password is settled (found, or none needed).
    private var passwordKnown: Set<SourceID> = []
    /// Whether a source still matches its fingerprint, once checked.
    private var unchanged: [SourceID: Bool] = [:]
    private(set) var sources: [SourceID: Source]
    let pageFacts: PageFactsCache

    /// `cacheDirectory` nil means the default session's cache when `baseDirectory`
    /// holds a `.pdfedit` folder, else no disk cache (direct mode leaves nothing behind).
    public init(session: Session, baseDirectory: String, passwords: PasswordBook, cacheDirectory: String? = nil) {
        self.baseDirectory = baseDirectory
        self.passwords = passwords
        let cacheDirectory = cacheDirectory ?? Self.defaultCacheDirectory(baseDirectory: baseDirectory)
        self.cacheDirectory = cacheDirectory
        pageFacts = PageFactsCache(cache: cacheDirectory.map { SeeingCache(directory: $0) })
        sources = Dictionary(session.sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    deinit { pageFacts.save() }

    /// Writes the page caches (texts, labels, sizes) now; also done when the access is released.
    public func saveCaches() { pageFacts.save() }

    static func defaultCacheDirectory(baseDirectory: String) -> String? {
        let folder = (baseDirectory as NSString).appendingPathComponent(".pdfedit")
        var isDirectory: ObjCBool = false
        guard baseDirectory != "/", FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { return nil }
        return (folder as NSString).appendingPathComponent("cache")
    }

    /// The absolute path of a stored source path (relative ones are below the base directory).
    public func absolutePath(_ stored: String) -> String {
        stored.hasPrefix("/") ? stored : (baseDirectory as NSString).appendingPathComponent(stored)
    }

    public func path(of id: SourceID) -> String? { sources[id].map { absolutePath($0.path) } }

    /// Refuses (75) a source that vanished or whose size or SHA-256 changed since import.
    public func verify(_ ids: some Sequence<SourceID>) throws(PDFEditError) {
        var problems: [PDFEditError] = []
        for id in Set(ids).sorted() {
            guard let source = sources[id] else { continue }
            let path = absolutePath(source.path)
            do throws(EngineError) {
                let now = try Fingerprint.of(file: path)
                let same = now.size == source.size && now.sha256 == source.sha256
                unchanged[id] = same
                if !same {
                    problems.append(.sourceChanged(path: source.path, reason: "changed since it was imported"))
                }
            } catch .missing {
                unchanged[id] = false
                problems.append(
                    .sourceChanged(path: source.path, reason: "missing (moved or deleted since it was imported)"))
            } catch {
                problems.append(.engine(error))
            }
        }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw .several(problems) }
    }

    /// The open qpdf document of a PDF source, opened once with the password book.
    public func document(_ id: SourceID) throws(EngineError) -> QPDFDocument {
        if let document = documents[id] { return document }
        guard let path = path(of: id) else { throw EngineError.missing(file: id.description) }
        let opened = try passwords.open(path) { password throws(EngineError) in
            try QPDFDocument(path: path, password: password)
        }
        documents[id] = opened.pdf
        if let password = opened.password { passwordsUsed[id] = password }
        return opened.pdf
    }

    /// The password that opened a source, if one was needed.
    public func password(for id: SourceID) throws(EngineError) -> String? {
        _ = try document(id)
        return passwordsUsed[id]
    }

    /// The open poppler document of a PDF source. Its password is found through
    /// poppler itself when qpdf has not opened the file yet (text needs no qpdf).
    func poppler(_ id: SourceID) throws(EngineError) -> PopplerPDF {
        if let poppler = popplers[id] { return poppler }
        guard let path = path(of: id) else { throw EngineError.missing(file: id.description) }
        if documents[id] != nil || passwordKnown.contains(id) {
            let poppler = try PopplerPDF(path: path, password: passwordsUsed[id])
            popplers[id] = poppler
            return poppler
        }
        let opened = try passwords.open(path) { password throws(EngineError) in
            try PopplerPDF(path: path, password: password)
        }
        popplers[id] = opened.pdf
        passwordKnown.insert(id)
        if let password = opened.password { passwordsUsed[id] = password }
        return opened.pdf
    }

    /// What a worker thread needs to open a source on its own: path and password.
    func openingDetails(_ id: SourceID) throws(EngineError) -> SourceOpening {
        _ = try poppler(id)
        guard let path = path(of: id) else { throw EngineError.missing(file: id.description) }
        return SourceOpening(key: id.description, path: path, password: passwordsUsed[id])
    }

    /// Whether the file still matches the fingerprint taken at import (checked once).
    func isUnchanged(_ id: SourceID) -> Bool {
        if let known = unchanged[id] { return known }
        guard let source = sources[id] else { return false }
        let now = try? Fingerprint.of(file: absolutePath(source.path))
        let same = now?.size == source.size && now?.sha256 == source.sha256
        unchanged[id] = same
        return same
    }

    /// The size a reader shows for an item's page (its own /Rotate applied,
    /// the item's rotation not; an image's page as export makes it); nil when it
    /// cannot be read.
    public func displayedSize(of item: PageItem) -> PageSize? {
        switch item.content {
        case .page(let source, let page):
            let sha256 = sources[source]?.sha256 ?? ""
            if let known = pageFacts.record(sha256).sizes?[String(page)], known.count == 2 {
                return PageSize(width: known[0], height: known[1])
            }
            guard let attributes = try? document(source).attributes(ofPage: page - 1) else { return nil }
            let size = attributes.displayedSize
            // Kept only once this command has checked the file (show, find): sizes are
            // asked for by every edit, which must not hash a large source each time.
            pageFacts.update(sha256, persist: unchanged[source] == true) {
                $0.sizes = ($0.sizes ?? [:]).merging([String(page): [size.width, size.height]]) { _, new in new }
            }
            return PageSize(width: size.width, height: size.height)
        case .blank(let size), .placeholder(let size, _):
            return size
        case .image(let source, let fit):
            guard let facts = imageFacts(source) else { return nil }
            let size = ImagePage.pageSize(facts, fit: fit.map { ($0.width, $0.height) })
            return PageSize(width: size.width, height: size.height)
        }
    }

    /// What an image source is (read once): its page size comes from it, as on export.
    private func imageFacts(_ id: SourceID) -> ImageFacts? {
        if let known = images[id] { return known }
        guard let path = path(of: id),
            let facts = try? ImagePage.inspect(path, maximumPixels: ProcessLimits.current.pixels)
        else { return nil }
        images[id] = facts
        return facts
    }

    /// The text of an item's page (poppler, cached), nil when it has none or cannot be read.
    public func text(of item: PageItem) -> String? {
        guard case .page(let source, let page) = item.content, let sha256 = sources[source]?.sha256 else { return nil }
        if let cached = pageFacts.record(sha256).texts[String(page)] { return cached }
        guard let text = try? poppler(source).text(ofPage: page - 1) else { return nil }
        pageFacts.update(sha256, persist: isUnchanged(source)) { $0.texts[String(page)] = text }
        return text
    }

    /// The page label of an item's page when its source has /PageLabels (cached), else nil.
    public func label(of item: PageItem) -> String? {
        guard case .page(let source, let page) = item.content, let sha256 = sources[source]?.sha256 else { return nil }
        var record = pageFacts.record(sha256)
        if record.hasLabels == nil {
            guard let facts = try? document(source).facts() else { return nil }
            pageFacts.update(sha256, persist: isUnchanged(source)) { $0.hasLabels = facts.hasPageLabels }
            record = pageFacts.record(sha256)
        }
        guard record.hasLabels == true else { return nil }
        if let cached = record.labels[String(page)] { return cached }
        guard let label = (try? poppler(source).label(ofPage: page - 1)) ?? nil else { return nil }
        pageFacts.update(sha256, persist: isUnchanged(source)) { $0.labels[String(page)] = label }
        return label
    }

    /// The source with this id, as the session stores it.
    public func source(_ id: SourceID) -> Source? { sources[id] }

    /// The lookups the model asks for while applying an edit.
    public var editContext: EditContext {
        EditContext(
            pageText: { [unowned self] in self.text(of: $0) },
            pageSize: { [unowned self] in self.displayedSize(of: $0) }, limits: ProcessLimits.current)
    }
}

/// A source as a worker thread opens it: each worker opens its own handle
/// (poppler documents are not thread-safe).
struct SourceOpening: Sendable {
    /// What workers keep the open document under.
    var key: String
    var path: String
    var password: String?
}
