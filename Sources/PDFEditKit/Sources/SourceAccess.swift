#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
package import PDFEngine
import PageModel

/// Reaches a session's source files: where they are, whether they are still the
/// files that were imported, and (lazily, one open handle per source) their page
/// sizes, text and labels. Not `Sendable`: it caches library handles.
///
/// Nothing of a source is used — an open handle, a cached text, label, size or
/// thumbnail — before `checked(_:)` has found the file unchanged since import
/// (75 otherwise); the check hashes each file once per process.
///
/// Page texts, labels and sizes are cached per source SHA-256 in the session's
/// cache folder (see `SeeingCache`), so `find`, `list` and `text:` selections
/// extract each page once, and `show` needs no PDF parsing once its thumbnails
/// exist; what a command learnt is written back when the access is released (or
/// by `saveCaches()`).
package final class SourceAccess {
    package let baseDirectory: String
    package let passwords: PasswordBook
    /// The session's cache folder; nil: nothing is cached on disk (direct mode).
    package let cacheDirectory: String?
    private var documents: [SourceID: OpenedPDF] = [:]
    private var popplers: [SourceID: PopplerPDF] = [:]
    private var images: [SourceID: ImageFacts] = [:]
    private var passwordsUsed: [SourceID: String] = [:] {
        didSet { if !passwordsUsed.isEmpty { SeeingCache.noteDecrypted() } }
    }
    /// Sources whose password is settled (found, or none needed).
    private var passwordKnown: Set<SourceID> = []
    /// The first failure of a lookup that cannot throw (`editContext`, `text:`
    /// selections), rethrown by `surfacingLookupFailure`.
    private var lookupFailure: PDFEditError?
    private(set) var sources: [SourceID: Source]
    let pageFacts: PageFactsCache

    /// `cacheDirectory` nil: nothing is read from or written to a disk cache (direct
    /// mode, which must neither trust nor leave anything in a folder it only
    /// passes through — not even the `.pdfedit/cache` of a session there).
    /// Sessions give their cache folder once it is trusted (`SessionStore.cacheDirectory`).
    package init(session: Session, baseDirectory: String, passwords: PasswordBook, cacheDirectory: String? = nil) {
        self.baseDirectory = baseDirectory
        self.passwords = passwords
        self.cacheDirectory = cacheDirectory
        pageFacts = PageFactsCache(cache: cacheDirectory.map { SeeingCache(directory: $0) })
        sources = Dictionary(session.sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    deinit {
        pageFacts.save()
        if let cacheDirectory { CacheFolder.enforceCapIfWritten(cacheDirectory) }
    }

    /// Writes the page caches (texts, labels, sizes) now; also done when the access is released.
    package func saveCaches() { pageFacts.save() }

    /// The absolute path of a stored source path (relative ones are below the base directory).
    package func absolutePath(_ stored: String) -> String {
        stored.hasPrefix("/") ? stored : Paths.join(baseDirectory, stored)
    }

    package func path(of id: SourceID) -> String? { sources[id].map { absolutePath($0.path) } }

    /// Refuses (75) a source that vanished or whose size or SHA-256 changed since
    /// import; all of `ids` are checked and every problem reported.
    package func verify(_ ids: some Sequence<SourceID>) throws(PDFEditError) {
        var problems: [PDFEditError] = []
        for id in Set(ids).sorted() {
            do throws(PDFEditError) { try checked(id) } catch { problems.append(error) }
        }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw .several(problems) }
    }

    /// Refuses (75) a source that vanished or changed since import. Every way to
    /// a source's content (handles, cached facts, thumbnails) passes here first;
    /// the file is hashed once per process (`SourceChecks`).
    func checked(_ id: SourceID) throws(PDFEditError) {
        guard let source = sources[id] else { return }
        if let failure = SourceChecks.shared.result(path: absolutePath(source.path), source: source) {
            throw failure
        }
    }

    /// Runs `body`, which may use the lookups that cannot throw (`editContext`,
    /// `text:` selections); when one of them failed, that failure is thrown
    /// instead of `body`'s result or error (which came from the missing answer).
    /// A failure stays recorded for the access's life (one command), so nested
    /// calls cannot lose it.
    func surfacingLookupFailure<T>(_ body: () throws(PDFEditError) -> T) throws(PDFEditError) -> T {
        let result: T
        do throws(PDFEditError) {
            result = try body()
        } catch {
            throw lookupFailure ?? error
        }
        if let lookupFailure { throw lookupFailure }
        return result
    }

    /// Applies `edits` to `session` as one undo step named `label`: the one way
    /// an edit is made, for the command line's sessions (`Workspace`) and the
    /// library's `PageEditor` alike. Files the edits read become sources of the
    /// session (`adopting`); the model applies them, asking this access for what
    /// it needs from the files (text, sizes, ink); all or nothing.
    /// `batch`: the edits are a script's lines (`run`), and a failure names its line.
    func apply(
        _ edits: [(edit: Edit, doc: String?)], to session: inout Session, label: String, batch: Bool = false
    ) throws(PDFEditError) -> [ChangeSummary] {
        var adopted = edits
        for index in adopted.indices { adopted[index].edit = try adopting(adopted[index].edit, session: session) }
        do throws(EditError) {
            if !batch, adopted.count == 1 {
                return [try session.apply(adopted[0].edit, doc: adopted[0].doc, label: label, context: editContext)]
            }
            return try session.applyAll(adopted, label: label, context: editContext)
        } catch {
            throw PDFEditError.edit(error)
        }
    }

    /// `lookup`'s answer; nil (with the failure kept for `surfacingLookupFailure`) when it fails.
    func recordingLookupFailure<T>(_ lookup: () throws(PDFEditError) -> T?) -> T? { recordingFailure(lookup) }

    /// `lookup`'s answer; nil (with the failure kept for `surfacingLookupFailure`) when it fails.
    private func recordingFailure<T>(_ lookup: () throws(PDFEditError) -> T?) -> T? {
        do throws(PDFEditError) {
            return try lookup()
        } catch {
            if lookupFailure == nil { lookupFailure = error }
            return nil
        }
    }

    /// The open reader of a PDF source (the bridge's `OpenedPDF`), opened once with the password book.
    package func document(_ id: SourceID) throws(PDFEditError) -> OpenedPDF {
        if let document = documents[id] { return document }
        try checked(id)
        do throws(EngineError) { return try openDocument(id) } catch { throw .engine(error) }
    }

    private func openDocument(_ id: SourceID) throws(EngineError) -> OpenedPDF {
        guard let path = path(of: id) else { throw EngineError.missing(file: id.description) }
        let opened = try passwords.open(path) { password throws(EngineError) in
            try OpenedPDF(path: path, password: password, for: .reading)
        }
        documents[id] = opened.pdf
        if let password = opened.password { passwordsUsed[id] = password }
        return opened.pdf
    }

    /// The password that opened a source, if one was needed.
    package func password(for id: SourceID) throws(PDFEditError) -> String? {
        _ = try document(id)
        return passwordsUsed[id]
    }

    /// The open poppler document of a PDF source. Its password is found through
    /// poppler itself when qpdf has not opened the file yet (text needs no qpdf).
    func poppler(_ id: SourceID) throws(PDFEditError) -> PopplerPDF {
        if let poppler = popplers[id] { return poppler }
        try checked(id)
        do throws(EngineError) { return try openPoppler(id) } catch { throw .engine(error) }
    }

    private func openPoppler(_ id: SourceID) throws(EngineError) -> PopplerPDF {
        guard let path = path(of: id) else { throw EngineError.missing(file: id.description) }
        if documents[id] != nil || passwordKnown.contains(id) {
            let poppler = try PopplerPDF(path: path, password: passwordsUsed[id], limits: ProcessLimits.reader)
            popplers[id] = poppler
            return poppler
        }
        let opened = try passwords.open(path) { password throws(EngineError) in
            try PopplerPDF(path: path, password: password, limits: ProcessLimits.reader)
        }
        popplers[id] = opened.pdf
        passwordKnown.insert(id)
        if let password = opened.password { passwordsUsed[id] = password }
        return opened.pdf
    }

    /// What a worker thread needs to open a source on its own: path and password.
    func openingDetails(_ id: SourceID) throws(PDFEditError) -> SourceOpening {
        _ = try poppler(id)
        guard let path = path(of: id) else { throw .engine(.missing(file: id.description)) }
        return SourceOpening(key: id.description, path: path, password: passwordsUsed[id])
    }

    /// The size a reader shows for an item's page (its own /Rotate applied,
    /// the item's rotation not; an image's page as export makes it); nil when it
    /// cannot be read. A changed source is a failure for `surfacingLookupFailure`.
    package func displayedSize(of item: PageItem) -> PageSize? {
        recordingFailure { () throws(PDFEditError) in try checkedSize(of: item) }
    }

    private func checkedSize(of item: PageItem) throws(PDFEditError) -> PageSize? {
        if let source = item.content.source { try checked(source) }
        switch item.content {
        case .page(let source, let page):
            let sha256 = sources[source]?.sha256 ?? ""
            if let known = pageFacts.record(sha256).sizes?[String(page)], known.count == 2 {
                return PageSize(width: known[0], height: known[1])
            }
            // The file must open (a missing password is 77, not an unknown size);
            // a page whose attributes cannot be read has none to show.
            let opened = try document(source)
            guard let attributes = try? opened.attributes(ofPage: page - 1) else { return nil }
            let size = attributes.displayedSize
            pageFacts.update(sha256) { record in
                if record.sizes == nil { record.sizes = [:] }
                record.sizes?[String(page)] = [size.width, size.height]
            }
            return PageSize(width: size.width, height: size.height)
        case .blank(let size), .placeholder(let size, _):
            return size
        case .sheet(let sheet):
            return sheet.size
        case .image(let source, let fit):
            guard let facts = imageFacts(source) else { return nil }
            let size = ImagePage.pageSize(facts, fit: fit.map { ($0.width, $0.height) })
            return PageSize(width: size.width, height: size.height)
        }
    }

    /// The size a reader sees of the item's page once exported: its crop box
    /// (`crop`) when it has one, turned by the page's own /Rotate; else
    /// `displayedSize(of:)`. The item's own rotation is not applied.
    package func shownSize(of item: PageItem) -> PageSize? {
        if let resize = item.resize {
            // The resized page is [0 0 W H], unrotated; a later crop is on it.
            guard let crop = item.boxes.crop else { return resize.size }
            return PageSize(width: crop.width, height: crop.height)
        }
        guard let crop = item.boxes.crop else { return displayedSize(of: item) }
        var plain = item
        plain.boxes = PageBoxes()
        guard let frame = frame(of: plain) else { return nil }
        return frame.quarterTurns % 2 == 0
            ? PageSize(width: crop.width, height: crop.height) : PageSize(width: crop.height, height: crop.width)
    }

    /// The source geometry of a page or image item, for `crop --margins`: an
    /// image page is `[0 0 W H]`, unrotated.
    package func frame(of item: PageItem) -> PageFrame? {
        recordingFailure { () throws(PDFEditError) -> PageFrame? in
            if let source = item.content.source { try checked(source) }
            switch item.content {
            case .page(let source, let page):
                let opened = try document(source)
                guard let attributes = try? opened.attributes(ofPage: page - 1) else { return nil }
                return PageFrame(
                    mediaBox: attributes.mediaBox, visibleBox: attributes.cropBox, quarterTurns: attributes.rotation / 90)
            case .image, .blank, .placeholder, .sheet:
                guard let size = try checkedSize(of: item) else { return nil }
                let box = BoxRect(x0: 0, y0: 0, x1: size.width, y1: size.height)
                return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: 0)
            }
        }
    }

    /// What an image source is (read once, checked): its page size comes from it, as on export.
    private func imageFacts(_ id: SourceID) -> ImageFacts? {
        if let known = images[id] { return known }
        guard let path = path(of: id),
            let facts = try? ImagePage.inspect(path, maximumPixels: ProcessLimits.current.pixels)
        else { return nil }
        images[id] = facts
        return facts
    }

    /// The text of an item's page (poppler, cached); nil for items that are not
    /// PDF pages (a sheet's is its cells' texts in cell order). Throws 75 when the
    /// source changed, 65 naming file and page when poppler cannot read the page.
    package func text(of item: PageItem) throws(PDFEditError) -> String? {
        if let sheet = item.content.sheet {
            var texts: [String] = []
            for cell in sheet.items {
                if let text = try text(of: cell) { texts.append(text) }
            }
            return texts.isEmpty ? nil : texts.joined(separator: "\n")
        }
        guard case .page(let source, let page) = item.content, let sha256 = sources[source]?.sha256
        else { return nil }
        try checked(source)
        if let cached = pageFacts.record(sha256).texts[String(page)] { return cached }
        let poppler = try poppler(source)
        let text: String
        do throws(EngineError) { text = try poppler.text(ofPage: page - 1) } catch {
            throw .engine(error)
        }
        pageFacts.update(sha256) { $0.texts[String(page)] = text }
        return text
    }

    /// The text of an item's page for `find` and `list`, which go on without a
    /// page that cannot be read: nil then, with a warning naming file and page.
    /// A changed source is still thrown (75).
    func textOrWarning(of item: PageItem) throws(PDFEditError) -> String? {
        do throws(PDFEditError) {
            return try text(of: item)
        } catch {
            // Only a page that cannot be read is passed over with a warning; a
            // password that is missing or wrong (77), a missing or unreadable file,
            // stop the command as they do everywhere else.
            guard case .engine(let problem) = error else { throw error }
            switch problem {
            case .damaged, .unsupported, .overLimit, .pageOutOfRange:
                WarningChannel.report(.unreadablePage(problem))
                return nil
            default:
                throw error
            }
        }
    }

    /// A PDF source's /PageLabels (cached by SHA-256); nil when it has none, or
    /// when they cannot be read (damage is reported where the file is used).
    /// `opened`: the source already open for this command (direct mode), read
    /// instead of opening it again. A changed source is kept for
    /// `surfacingLookupFailure` (75).
    package func pageLabels(of source: SourceID, opened: OpenedPDF? = nil) -> SourcePageLabels? {
        recordingFailure { () throws(PDFEditError) in try checkedPageLabels(of: source, opened: opened) }
    }

    private func checkedPageLabels(of source: SourceID, opened: OpenedPDF?) throws(PDFEditError) -> SourcePageLabels? {
        guard let known = sources[source], known.kind == .pdf else { return nil }
        try checked(source)
        let record = pageFacts.record(known.sha256)
        if record.hasLabels == false { return nil }
        if record.hasLabels == true, let labels = record.pageLabels { return labels }
        let reader: OpenedPDF
        if let opened { reader = opened } else { reader = try document(source) }
        let labels: SourcePageLabels?
        do throws(EngineError) { labels = try reader.pageLabels() } catch { return nil }
        pageFacts.update(known.sha256) {
            $0.hasLabels = labels != nil
            $0.pageLabels = labels
        }
        return labels
    }

    /// The source with this id, as the session stores it.
    package func source(_ id: SourceID) -> Source? { sources[id] }

    /// The lookups the model asks for while applying an edit.
    package var editContext: EditContext {
        EditContext(
            pageText: { [unowned self] item, words in
                guard let text = self.recordingFailure({ () throws(PDFEditError) in try self.text(of: item) }) else { return false }
                return TextMatch.matches(text, words, caseSensitive: false)
            },
            pageSize: { [unowned self] in self.shownSize(of: $0) }, limits: ProcessLimits.current,
            pageFrame: { [unowned self] in self.frame(of: $0) }, pageInk: { [unowned self] in self.ink(of: $0) },
            darkShare: { [unowned self] in self.darkShare(of: $0) },
            pageHasText: { [unowned self] item in
                let text = self.recordingFailure({ () throws(PDFEditError) in try self.text(of: item) })
                return text.flatMap { $0 }.map(EmptyPage.isText) ?? false
            },
            annotationCount: { [unowned self] item in self.pageFingerprint(of: item)?.annotations },
            contentFingerprint: { [unowned self] item in
                if case .image(let source, let fit) = item.content, let sha256 = self.sources[source]?.sha256 {
                    return "image \(sha256) \(fit.map { "\($0.width)x\($0.height)" } ?? "")"
                }
                // A later copy for `dup` draws the same and its links lead to the same places.
                return self.pageFingerprint(of: item).map { "\($0.digest) \($0.clicks)" }
            },
            sourceLabels: { [unowned self] in self.pageLabels(of: $0) },
            attachments: { [unowned self] document in
                self.recordingFailure { () throws(PDFEditError) in try self.attachmentNames(of: document) }
            }, textHits: { [unowned self] item, words, regex, caseSensitive in
                self.recordingFailure { () throws(PDFEditError) in
                    try self.textHits(of: item, words: words, regex: regex, caseSensitive: caseSensitive)
                }
            })
    }

    /// The occurrences of `words` on a `.page` item's source page (`redact
    /// --text`), each line of one a box in the page's default user space.
    func textHits(of item: PageItem, words: String, regex: Bool, caseSensitive: Bool) throws(PDFEditError) -> [TextHit]? {
        guard case .page(let source, let page) = item.content, let frame = frame(of: item) else { return nil }
        let poppler = try poppler(source)
        do throws(EngineError) {
            let characters = try poppler.characters(ofPage: page - 1)
            let text = characters.scalars
            return try characters.occurrences(of: words, regex: regex, caseSensitive: caseSensitive).flatMap { range in
                let covered = String(String.UnicodeScalarView(text[range]))
                return characters.boxes(of: range).map { box in
                    TextHit(rect: box.fromDisplayed(visible: frame.visibleBox, quarterTurns: frame.quarterTurns), text: covered)
                }
            }
        } catch {
            throw .engine(error)
        }
    }

    /// What a `.page` item's source page draws and its annotation count
    /// (`OpenedPDF.fingerprint(ofPage:)`, cached by the source's SHA-256); nil
    /// for other items, or when the page cannot be read (a changed source is a
    /// failure for `surfacingLookupFailure`).
    /// `clicks` is what its annotations' clicks do, which `digest` leaves out:
    /// `dup` wants both equal, `diff` and `relink --rebase` pair by `digest`.
    func pageFingerprint(of item: PageItem) -> (digest: String, clicks: String, annotations: Int)? {
        guard case .page(let source, let page) = item.content, let sha256 = sources[source]?.sha256 else { return nil }
        return recordingFailure { () throws(PDFEditError) -> (digest: String, clicks: String, annotations: Int)? in
            try checked(source)
            let record = pageFacts.record(sha256)
            let key = String(page)
            if let digest = record.fingerprints?[key], let clicks = record.clickFingerprints?[key],
                let count = record.annotations?[key]
            {
                return (digest, clicks, count)
            }
            let opened = try document(source)
            guard let found = try? opened.fingerprint(ofPage: page - 1) else { return nil }
            pageFacts.update(sha256) { record in
                if record.fingerprints == nil { record.fingerprints = [:] }
                if record.clickFingerprints == nil { record.clickFingerprints = [:] }
                if record.annotations == nil { record.annotations = [:] }
                record.fingerprints?[key] = found.digest
                record.clickFingerprints?[key] = found.clicks
                record.annotations?[key] = found.annotations
            }
            return found
        }
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

/// The fingerprint checks of this process: each source file is hashed once, and
/// every `SourceAccess` asks here (a command may make several).
final class SourceChecks: @unchecked Sendable {
    static let shared = SourceChecks()
    private let lock = Lock()
    private var results: [String: PDFEditError?] = [:]

    /// The file (its identity, and its size and modification time now, so that
    /// a file rewritten in place is checked again by a process that lives on:
    /// a program holding a `PageEditor`) and what it must be.
    private func key(_ path: String, _ source: Source) -> String {
        var status = stat()
        let written = stat(path, &status) == 0
            ? "\(status.st_size)\u{0}\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)" : "-"
        return "\(FileIdentity(of: path))\u{0}\(written)\u{0}\(source.size)\u{0}\(source.sha256)"
    }

    /// Notes that the file at `path` was just fingerprinted as `source` (at import).
    func remember(path: String, source: Source) {
        let key = key(path, source)
        lock.withLock { results[key] = .some(nil) }
    }

    /// nil when the file at `path` still has `source`'s size and SHA-256, else why not.
    func result(path: String, source: Source) -> PDFEditError? {
        let key = key(path, source)
        if let known = lock.withLock({ results[key] }) { return known }
        let failure: PDFEditError?
        var status = stat()
        if stat(path, &status) != 0 {
            failure = Self.fingerprintFailure(path: path, source: source)  // missing, or unreadable: said there
        } else if status.st_mode & S_IFMT == S_IFDIR {
            // A session edited to point at a folder (an empty path is the session's own).
            failure = .sourceChanged(path: source.path, reason: "a folder now, not the file it was imported from")
        } else if let kind = OutputChecks.nonRegularKind(status.st_mode) {
            // A FIFO or a device in a source's place is never read: it could block
            // or never end, with the session's lock held.
            failure = .sourceChanged(path: source.path, reason: "\(kind) now, not the file it was imported from")
        } else if Int64(status.st_size) != source.size {
            // The size already says it changed: a 100 GB file is not hashed to learn it.
            failure = .sourceChanged(path: source.path, reason: "changed since it was imported")
        } else {
            failure = Self.fingerprintFailure(path: path, source: source)
        }
        lock.withLock { results[key] = .some(failure) }
        return failure
    }

    private static func fingerprintFailure(path: String, source: Source) -> PDFEditError? {
        let failure: PDFEditError?
        do throws(EngineError) {
            let now = try Fingerprint.of(file: path)
            failure =
                now.size == source.size && now.sha256 == source.sha256
                ? nil : .sourceChanged(path: source.path, reason: "changed since it was imported")
        } catch .missing {
            failure = .sourceChanged(
                path: source.path, reason: "missing (moved or deleted since it was imported)")
        } catch {
            failure = .engine(error)
        }
        return failure
    }
}
