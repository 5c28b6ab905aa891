#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel
import Synchronization

/// Where the session's caches live and how files get there.
///
/// Layout under the cache folder (`SessionStore.cacheDirectory`, `.pdfedit/cache/`
/// for the default session), keyed by the source's SHA-256 so that a moved or
/// renamed file keeps its cache and a changed one never uses a stale entry:
///
///     pages/<sha256>.json                  page texts, labels and sizes of one source
///     thumbs/v1/<sha256>/<page>-<px>.png   page <page> rendered to fit <px> × <px>,
///                                          its own /Rotate applied, not the item's rotation
///     thumbs/v1/<sha256>/image[-WxH]-<px>.png  an image source as its page (export's
///                                          one-page PDF from `images/`, rendered)
///     sheets/v1/<key>.png                  a contact sheet, keyed by the SHA-256 of what
///                                          it shows (pages, rotations, captions, layout);
///                                          the most recently used 200 are kept
///
/// Entries are written to a temporary file and renamed into place, so concurrent
/// pdfedit processes never see half a file; a lost race only costs a re-render.
/// Caches are never required: a failed write is ignored. Folders are 0700 and
/// files 0600; an entry is read only when it is this user's and nobody else may
/// write it (`CacheFolder.isTrustedEntry`); see `CacheFolder` for trust, pruning
/// and the size cap.
struct SeeingCache: Sendable {
    let directory: String

    /// The rendered page of a source, as a PNG: `name` is the page number, or
    /// `image` (+ `-WxH` of its fit size, in hundredths of a point) for an image.
    func thumbnailPath(sha256: String, name: String, size: Int) -> String {
        "\(directory)/thumbs/v1/\(sha256)/\(name)-\(size).png"
    }

    func recordPath(sha256: String) -> String { "\(directory)/pages/\(sha256).json" }

    func sheetPath(key: String) -> String { "\(directory)/sheets/v1/\(key).png" }

    static let keptSheets = 200

    /// Keeps the most recently used sheets (by modification time; reuse touches them).
    func pruneSheets() {
        let folder = "\(directory)/sheets/v1"
        guard let names = Files.names(in: folder), names.count > Self.keptSheets else { return }
        let dated = names.map { name -> (String, Int) in
            let path = "\(folder)/\(name)"
            var status = stat()
            guard lstat(path, &status) == 0 else { return (path, 0) }
            return (path, status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec)
        }
        for (path, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.keptSheets) { unlink(path) }
    }

    /// Whether the entry at `path` may be used (`CacheFolder.isTrustedEntry`).
    func has(_ path: String) -> Bool { CacheFolder.isTrustedEntry(path) }

    /// Writes `data` under `path` by rename (no fsync: a cache entry lost in a crash is re-made).
    func store(_ data: Data, at path: String) {
        storeFile(at: path) { temporary in StagedOutput.createTemporary(data, at: temporary, sync: false) == nil }
    }

    /// Lets `write` make a temporary file beside `path`, then renames it into place,
    /// private (folders 0700, file 0600), in folders that are this user's own
    /// (`CacheFolder.make`). Nothing is written once this process has read an
    /// encrypted source, unless `PDFEDIT_CACHE_ENCRYPTED=1` (see `noteDecrypted`).
    func storeFile(at path: String, _ write: (String) -> Bool) {
        guard Self.mayWrite else { return }
        guard CacheFolder.make(Paths.folder(of: path), root: directory) else { return }
        let staged = StagedOutput(path)
        guard write(staged.temporary) else { return staged.discard() }
        // No fsync of the folder either: a lost entry is re-made.
        if (try? staged.commit(permissions: .privateFile, syncFolder: false)) != nil { CacheFolder.noteWritten() }
    }

    /// Called when a source was opened with a password: from then on this process
    /// writes no cache entry (texts, thumbnails, sheets may all show the decrypted
    /// pages), unless the user asked for it with `PDFEDIT_CACHE_ENCRYPTED=1`.
    static func noteDecrypted() {
        if !CacheFolder.cachesEncrypted() { decrypted.store(true, ordering: .relaxed) }
    }

    static var mayWrite: Bool { !decrypted.load(ordering: .relaxed) }

    private static let decrypted = Atomic<Bool>(false)
}

/// The one naming of an image source at a fit size in the caches: export's
/// one-page PDF `images/<sha256>[-WxH].pdf`, its thumbnails
/// `thumbs/v1/<sha256>/image[-WxH]-<px>.png`, and the key of a sheet cell showing it.
enum ImageCacheKey {
    /// `-WxH`, the fit size in hundredths of a point; "" for an image at its own size.
    static func fit(_ fit: PageSize?) -> String {
        fit.map { "-\(Int(($0.width * 100).rounded()))x\(Int(($0.height * 100).rounded()))" } ?? ""
    }

    /// The file name of the image's one-page PDF in `images/`.
    static func imagePDF(sha256: String, fit: PageSize?) -> String {
        "\(sha256)\(Self.fit(fit)).pdf"
    }
}

/// What is cached about one source's pages: texts (by 1-based page number), page
/// labels, displayed sizes, shares of dark pixels, content fingerprints and
/// annotation counts. Stored as `pages/<sha256>.json`.
struct SourcePagesRecord: Codable, Equatable {
    /// 2: fingerprints leave out what an annotation's click does (/A, /Dest):
    /// version 1's digests of pages with links would never equal new ones.
    static let currentVersion = 2
    var version = SourcePagesRecord.currentVersion
    var sha256: String
    /// Extracted page texts, keyed by the 1-based page number as a string.
    var texts: [String: String] = [:]
    /// Whether the file has /PageLabels; nil until known.
    var hasLabels: Bool?
    /// Its /PageLabels ranges when `hasLabels` (read with qpdf; a record written
    /// before held poppler's label texts under "labels", which are not read).
    var pageLabels: SourcePageLabels?
    /// Displayed sizes in points ([width, height], /Rotate applied), keyed like `texts`.
    var sizes: [String: [Double]]? = [:]
    /// Shares of dark pixels (`empty`), keyed by page number, plus " crop x0,y0,x1,y1" for a cropped item.
    var darkShares: [String: Double]? = [:]
    /// What each page draws (`pe_document_page_fingerprint`: 64 hex digits), for `dup`; keyed like `texts`.
    var fingerprints: [String: String]? = [:]
    /// What each page's annotations' clicks do (`pe_document_page_fingerprint`'s
    /// second digest), which `fingerprints` leaves out; `dup` wants both equal.
    var clickFingerprints: [String: String]? = [:]
    /// How many annotations each page carries, popups aside (`annotated`); keyed like `texts`.
    var annotations: [String: Int]? = [:]
    /// Its digital signatures (`OpenedPDF.signatures` with poppler's signers); nil until known.
    var signatures: [DigitalSignature]?

    init(sha256: String) { self.sha256 = sha256 }

    /// Whether every number is one pdfedit could have written: page keys are
    /// whole numbers from 1 (or an image's key), sizes two positive finite
    /// numbers, dark shares from 0 to 1.
    var isPlausible: Bool {
        func isPage(_ key: String) -> Bool { Int(key).map { $0 >= 1 } ?? false }
        guard texts.keys.allSatisfy(isPage) else { return false }
        for (key, size) in sizes ?? [:] {
            guard isPage(key), size.count == 2, size.allSatisfy({ $0.isFinite && $0 > 0 }) else { return false }
        }
        for (key, share) in darkShares ?? [:] {
            let head = String(key.prefix { $0 != " " })
            guard isPage(head) || head.hasPrefix("image"), share.isFinite, (0...1).contains(share) else { return false }
        }
        for (key, digest) in Array(fingerprints ?? [:]) + Array(clickFingerprints ?? [:]) {
            guard isPage(key), digest.utf8.count == 64, digest.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            else { return false }
        }
        for (key, count) in annotations ?? [:] {
            guard isPage(key), count >= 0 else { return false }
        }
        for signature in signatures ?? [] {
            guard signature.docMDP.map({ (1...3).contains($0) }) ?? true,
                signature.byteRange.map({ $0.count == 4 && $0.allSatisfy { $0 >= 0 } }) ?? true
            else { return false }
        }
        return true
    }

    /// Adds what `other` knows and `self` does not.
    mutating func merge(_ other: SourcePagesRecord) {
        texts.merge(other.texts) { mine, _ in mine }
        pageLabels = pageLabels ?? other.pageLabels
        sizes = (sizes ?? [:]).merging(other.sizes ?? [:]) { mine, _ in mine }
        darkShares = (darkShares ?? [:]).merging(other.darkShares ?? [:]) { mine, _ in mine }
        fingerprints = (fingerprints ?? [:]).merging(other.fingerprints ?? [:]) { mine, _ in mine }
        clickFingerprints = (clickFingerprints ?? [:]).merging(other.clickFingerprints ?? [:]) { mine, _ in mine }
        annotations = (annotations ?? [:]).merging(other.annotations ?? [:]) { mine, _ in mine }
        hasLabels = hasLabels ?? other.hasLabels
        signatures = signatures ?? other.signatures
    }
}

/// The page records of a command's sources: read from the cache folder on first
/// use, written back (merged with what another process may have added) by `save`.
final class PageFactsCache {
    private let cache: SeeingCache?
    private var records: [String: SourcePagesRecord] = [:]
    private var dirty: Set<String> = []

    init(cache: SeeingCache?) { self.cache = cache }

    /// The record of the source with this SHA-256 (empty when nothing is cached yet).
    func record(_ sha256: String) -> SourcePagesRecord {
        if let record = records[sha256] { return record }
        let record =
            cache.flatMap { Self.read($0.recordPath(sha256: sha256), sha256: sha256) }
            ?? SourcePagesRecord(sha256: sha256)
        records[sha256] = record
        return record
    }

    /// Changes a record in place (a copy would cost the whole record on every
    /// page: a first listing of n pages was quadratic). Callers have checked the
    /// source against its fingerprint (`SourceAccess.checked`), so what they
    /// learnt is of the content the SHA-256 names and is saved.
    func update(_ sha256: String, _ change: (inout SourcePagesRecord) -> Void) {
        if records[sha256] == nil { _ = record(sha256) }
        change(&records[sha256, default: SourcePagesRecord(sha256: sha256)])
        dirty.insert(sha256)
    }

    func save() {
        guard let cache else { return }
        for sha256 in dirty.sorted() {
            guard var record = records[sha256] else { continue }
            let path = cache.recordPath(sha256: sha256)
            if let onDisk = Self.read(path, sha256: sha256) { record.merge(onDisk) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(record) else { continue }
            cache.store(data, at: path)
        }
        dirty.removeAll()
    }

    /// The largest record read: a text of 4 KB a page for 20,000 pages is 80 MB.
    static let maximumRecordBytes = 256 << 20

    /// The record at `path` when it is a trusted entry of this source whose
    /// values make sense (sizes positive and finite, dark shares from 0 to 1);
    /// else nil, and the facts are read from the source again.
    private static func read(_ path: String, sha256: String) -> SourcePagesRecord? {
        guard let data = CacheFolder.readEntry(path, limit: maximumRecordBytes),
            let record = try? JSONDecoder().decode(SourcePagesRecord.self, from: data),
            record.version == SourcePagesRecord.currentVersion, record.sha256 == sha256, record.isPlausible
        else { return nil }
        return record
    }
}
