#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PageModel

/// What kind of file an input is, decided from its first bytes, never its name.
package enum FileKind: String, Sendable, Codable {
    case pdf
    case jpeg
    case png
}

/// A file that was read and found usable.
package struct LoadedFile: Sendable {
    package var path: String
    package var kind: FileKind
    package var fingerprint: Fingerprint
    package var pageCount: Int
    /// Damage qpdf recovered from, and the like: shown once as a warning.
    package var warnings: [String]
    /// The opened PDF, when the caller asked to keep it for an export.
    package var opened: OpenedPDF? = nil
    /// A PDF's bookmarks, which become the outline of the items it gives.
    package var outline: [SourceOutlineEntry] = []
}

/// The one way a file enters pdfedit (open, insert, fill, info, direct mode): the
/// same code sniffs the type, applies the password and reports damage.
package enum SourceLoader {
    /// Reads the first bytes of `path` and decides its kind.
    package static func sniff(_ path: String) throws(EngineError) -> FileKind {
        var status = stat()
        try nothingOrErrno { stat(path, &status) }.mapError { EngineError.opening(path, errno: $0.rawValue) }.get()
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw EngineError.unreadable(file: path, reason: "not a regular file")
        }
        guard status.st_size > 0 else { throw EngineError.emptyFile(file: path) }
        guard let head = FileHead.read(path, upTo: headBytes) else {
            throw EngineError.unreadable(file: path, reason: "permission denied")
        }
        return try kind(ofHead: head, file: path)
    }

    /// How far into a file its kind is looked for (a PDF's header may come
    /// anywhere in its first 1024 bytes).
    package static let headBytes = 1024

    package static func kind(ofHead bytes: [UInt8], file: String) throws(EngineError) -> FileKind {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        // PDF readers accept the header anywhere in the first 1024 bytes.
        let marker: [UInt8] = Array("%PDF-".utf8)
        if bytes.count >= marker.count {
            for start in 0...(bytes.count - marker.count) where bytes[start..<start + marker.count].elementsEqual(marker) {
                return .pdf
            }
        }
        throw EngineError.notAPDF(file: file)
    }

    /// Opens `path` fully enough to know it is usable: for a PDF, qpdf parses it and
    /// builds its page list (so a bad password, unrecoverable damage or a broken page
    /// tree are found now, not at export). With `keepOpen` the opened PDF is
    /// returned in `opened`, for an export in the same process to use. An image is
    /// decoded whole (`ImagePage.validate`), its size checked against
    /// `maximumPixels` (`Limits.pixels`) first.
    package static func load(
        _ path: String, password: String?, keepOpen: Bool = false,
        maximumPixels: Int = ImagePage.defaultMaximumPixels
    ) throws(EngineError) -> LoadedFile {
        let kind = try sniff(path)
        switch kind {
        case .pdf:
            // Hashed while qpdf opens it; the fingerprint's error, if any, is
            // the one reported (as when it was made first).
            let fingerprinting = Fingerprint.started(file: path)
            let opening = Result { () throws(EngineError) in try OpenedPDF(path: path, password: password) }
            let fingerprint = try fingerprinting.value()
            let document: OpenedPDF
            do {
                document = try opening.get()
            } catch .password {
                throw EngineError.password(file: path, given: !(password ?? "").isEmpty)
            }
            let pages = document.pageCount
            guard pages > 0 else { throw EngineError.unsupported(file: path, page: nil, detail: "the document has no pages") }
            return LoadedFile(
                path: path, kind: .pdf, fingerprint: fingerprint, pageCount: pages, warnings: document.warnings,
                opened: keepOpen ? document : nil, outline: try document.outline())
        case .jpeg, .png:
            let fingerprint = try Fingerprint.of(file: path)
            // Walks the whole file (markers, chunks, CRCs) and decodes a PNG's
            // pixels: a broken or oversized image is refused now, not at export.
            try ImagePage.validate(path, maximumPixels: maximumPixels)
            return LoadedFile(path: path, kind: kind, fingerprint: fingerprint, pageCount: 1, warnings: [])
        }
    }
}
