import Foundation
import PDFEngine
import PageModel

/// Reaches a session's source files: where they are, whether they are still the
/// files that were imported, and (lazily, one open handle per source) their page
/// sizes and text. Not `Sendable`: it caches library handles.
public final class SourceAccess {
    public let baseDirectory: String
    public let passwords: PasswordBook
    private var documents: [SourceID: QPDFDocument] = [:]
    private var popplers: [SourceID: PopplerPDF] = [:]
    private var passwordsUsed: [SourceID: String] = [:]
    private var sources: [SourceID: Source]

    public init(session: Session, baseDirectory: String, passwords: PasswordBook) {
        self.baseDirectory = baseDirectory
        self.passwords = passwords
        sources = Dictionary(session.sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
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
                if now.size != source.size || now.sha256 != source.sha256 {
                    problems.append(.sourceChanged(path: source.path, reason: "changed since it was imported"))
                }
            } catch .missing {
                problems.append(.sourceChanged(path: source.path, reason: "missing (moved or deleted since it was imported)"))
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

    func poppler(_ id: SourceID) throws(EngineError) -> PopplerPDF {
        if let poppler = popplers[id] { return poppler }
        guard let path = path(of: id) else { throw EngineError.missing(file: id.description) }
        let poppler = try PopplerPDF(path: path, password: try password(for: id))
        popplers[id] = poppler
        return poppler
    }

    /// The size a reader shows for an item's page (its own /Rotate applied,
    /// the item's rotation not); nil when it cannot be read.
    public func displayedSize(of item: PageItem) -> PageSize? {
        switch item.content {
        case .page(let source, let page):
            guard let attributes = try? document(source).attributes(ofPage: page - 1) else { return nil }
            let size = attributes.displayedSize
            return PageSize(width: size.width, height: size.height)
        case .blank(let size), .placeholder(let size, _):
            return size
        case .image:
            return nil
        }
    }

    /// The text of an item's page (poppler), nil when it has none or cannot be read.
    public func text(of item: PageItem) -> String? {
        guard case .page(let source, let page) = item.content else { return nil }
        return try? poppler(source).text(ofPage: page - 1)
    }

    /// The lookups the model asks for while applying an edit.
    public var editContext: EditContext {
        EditContext(pageText: { [unowned self] in self.text(of: $0) }, pageSize: { [unowned self] in self.displayedSize(of: $0) })
    }
}
