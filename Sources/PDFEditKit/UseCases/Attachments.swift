#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// One attachment of a document as `attach list` shows it: the sources'
/// document-level embedded files and the files `attach add` added, under the
/// names export writes them with.
public struct AttachmentInfo: Encodable, Sendable, Equatable {
    /// The name it is listed, extracted and written under.
    public var name: String
    /// Its size in bytes, when known (a source's file says it in /Params /Size).
    public var size: Int64?
    /// Its MIME type, when known.
    public var mimeType: String?
    public var description: String?
    /// `/AFRelationship` ("Source", "Data", "Alternative", "Supplement", "Unspecified").
    public var relationship: String?
    /// Page level: the 1-based position of the item whose page shows it; nil: document level.
    public var page: Int?
    /// Where it comes from: "added" (by `attach add`) or the source file (as the session stores it).
    public var from: String

    private enum CodingKeys: String, CodingKey {
        case name, size, mimeType, description, relationship, page, from
    }

    /// Every key, null when absent, as `meta --json` writes them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(size, forKey: .size)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encode(description, forKey: .description)
        try container.encode(relationship, forKey: .relationship)
        try container.encode(page, forKey: .page)
        try container.encode(from, forKey: .from)
    }
}

/// The rules of attached files that are not the model's: MIME types, dates,
/// where a session keeps the bytes, and the file name an extraction writes.
enum AttachmentFiles {
    /// What a file of no known type is.
    static let unknownType = "application/octet-stream"

    /// The MIME type of a file by the extension of its name; application/octet-stream otherwise.
    static func mimeType(of name: String) -> String {
        let known: [String: String] = [
            "pdf": "application/pdf", "xml": "application/xml", "json": "application/json", "txt": "text/plain",
            "csv": "text/csv", "md": "text/markdown", "html": "text/html", "htm": "text/html", "rtf": "application/rtf",
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "tif": "image/tiff",
            "tiff": "image/tiff", "svg": "image/svg+xml", "zip": "application/zip", "gz": "application/gzip",
            "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
            "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
            "eml": "message/rfc822", "mp3": "audio/mpeg", "mp4": "video/mp4",
        ]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return unknownType }
        return known[name[name.index(after: dot)...].lowercased()] ?? unknownType
    }

    /// `seconds` since 1970 as a PDF date in UTC ("D:20240131120000Z").
    static func pdfDate(seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "D:\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// THE extraction rule: the plain file name an attachment named `name` is
    /// written to inside the target folder. Every `/` and `\` becomes `_` (so
    /// `../../x` is `.._.._x`, `/etc/passwd` is `_etc_passwd`, `a/b` is `a_b`:
    /// never a path), every control character (NUL included) becomes `_`, a name
    /// left empty, `.` or `..` becomes `attachment`, and a name longer than 255
    /// bytes (the longest a Linux file name may be) is cut at a character
    /// boundary. Two attachments that come out the same are refused together.
    static func fileName(for name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control {
                scalars.append("_")
            } else {
                scalars.append(scalar)
            }
        }
        var result = String(scalars)
        if result.isEmpty || result == "." || result == ".." { result = "attachment" }
        while result.utf8.count > 255 { result.removeLast() }
        return result
    }

    /// The bytes of the file `path` (at most `limit`), as an error naming it (66
    /// missing, 65 unreadable or over the limit).
    static func read(_ path: String, shown: String, limit: Int) throws(PDFEditError) -> [UInt8] {
        guard Files.exists(path) else { throw .engine(.missing(file: shown)) }
        guard Files.isFolder(path) != true else { throw .engine(.unreadable(file: shown, reason: "is a folder")) }
        guard let bytes = Files.contents(path, limit: limit) else {
            let failure = errno
            if failure == EFBIG {
                throw .engine(
                    .overLimit(
                        file: shown, page: nil,
                        what: "larger than \(limit) bytes, the most one stream may hold (PDFEDIT_MAX_STREAM_BYTES)"))
            }
            throw .engine(.unreadable(file: shown, reason: String(cString: strerror(failure))))
        }
        return bytes
    }

    /// The bytes of an added attachment as the session recorded them: the file it
    /// points at, refused (75) when it vanished or its size or SHA-256 changed.
    static func bytes(of attachment: Attachment, access: SourceAccess) throws(PDFEditError) -> [UInt8] {
        let path = access.absolutePath(attachment.file)
        let limit = ProcessLimits.current.inflatedStreamBytes
        let bytes: [UInt8]
        do throws(PDFEditError) {
            bytes = try read(path, shown: attachment.file, limit: limit)
        } catch {
            throw .sourceChanged(
                path: attachment.file, reason: "the bytes of attachment \"\(attachment.name)\" cannot be read: \(error)")
        }
        guard Int64(bytes.count) == attachment.size, Fingerprint.sha256(of: Data(bytes)) == attachment.sha256 else {
            throw .sourceChanged(
                path: attachment.file,
                reason: "the bytes of attachment \"\(attachment.name)\" changed since it was attached; attach it again")
        }
        return bytes
    }
}

extension SessionStore {
    /// Where a session keeps the bytes of the files `attach add` attached, one
    /// file per content (named by its SHA-256), private (0700, files 0600),
    /// beside the session: `<session>.attachments/`. Not a cache: nothing there
    /// is pruned while the session lives.
    package var attachmentsFolder: String { path + ".attachments" }
}

extension Importer {
    /// `attach add FILE... [--name N] [--page P] [--description T] [--relationship R]`:
    /// each file read once, now; in a session its bytes are copied into the
    /// session's attachment store (`attachmentStore`), so that exports write what
    /// was attached whatever happens to the file later; in direct mode (no store)
    /// the file is read again by the export moments later and checked against
    /// the fingerprint taken here.
    package func attachEdit(
        _ paths: [String], name: String?, page: Position?, description: String?,
        relationship: AttachmentRelationship?
    ) throws(PDFEditError) -> Edit {
        guard !paths.isEmpty else { throw .usage("attach add needs a FILE") }
        if name != nil, paths.count > 1 { throw .usage("--name names one file: give one FILE with it") }
        if let description, let problem = DocumentMetadata.problem(ofValue: description) {
            throw .usage("--description \(problem)")
        }
        var problems: [PDFEditError] = []
        var files: [Attachment] = []
        for path in paths {
            do throws(PDFEditError) {
                // Read by this command: no output of it may replace the file.
                ReadFiles.note(path, as: "an attached file")
                let bytes = try AttachmentFiles.read(
                    path, shown: path, limit: ProcessLimits.current.inflatedStreamBytes)
                let sha256 = Fingerprint.sha256(of: Data(bytes))
                var status = stat()
                let seconds = stat(path, &status) == 0 ? Int(status.st_mtim.tv_sec) : 0
                var stored = storedPath(path)
                if let store = attachmentStore { stored = storedPath(try Self.keep(bytes, sha256: sha256, in: store)) }
                let shownName = name ?? Paths.name(of: path)
                // By the name it gets, else (a name without a known extension) by the file's.
                var mimeType = AttachmentFiles.mimeType(of: shownName)
                if mimeType == AttachmentFiles.unknownType { mimeType = AttachmentFiles.mimeType(of: Paths.name(of: path)) }
                files.append(
                    Attachment(
                        name: shownName, file: stored, size: Int64(bytes.count), sha256: sha256,
                        mimeType: mimeType, description: description,
                        relationship: relationship, date: AttachmentFiles.pdfDate(seconds: seconds)))
            } catch {
                problems.append(error)
            }
        }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw .several(problems) }
        return .attach(files, page: page)
    }

    /// `bytes` in the store folder under their SHA-256 (kept when a trusted copy
    /// is already there), written atomically and private; the file's path.
    static func keep(_ bytes: [UInt8], sha256: String, in store: String) throws(PDFEditError) -> String {
        try CacheFolder.require(store, root: store)
        let path = Paths.join(store, sha256)
        if CacheFolder.isTrustedEntry(path), let held = Files.contents(path, limit: bytes.count + 1), held == bytes {
            return path
        }
        let staged = StagedOutput(path, removingStale: true)
        try staged.write(Data(bytes), sync: true)
        try staged.commit(permissions: .privateFile)
        return path
    }
}

extension SourceAccess {
    /// The sources' document-level embedded files and the added ones of
    /// `document`, named as an export of all its items names them (the bridge's
    /// one rule, `OpenedPDF.embeddedFiles`); `withData`: the sources' files'
    /// bytes too. `opened`: documents this command has open (direct mode), by path.
    func embeddedFiles(
        of document: Document, withData: Bool = false, opened: [String: OpenedPDF] = [:]
    ) throws(PDFEditError) -> (entries: [EmbeddedFileEntry], sources: [SourceID]) {
        let order = document.pageSourcesInOrder.filter { source($0)?.kind == .pdf }
        var documents: [OpenedPDF] = []
        for id in order {
            if let path = path(of: id), let kept = opened[path] {
                documents.append(kept)
            } else {
                documents.append(try self.document(id))
            }
        }
        let attachments = document.attachments ?? DocumentAttachments()
        let removed = attachments.removed.compactMap { gone in
            order.firstIndex(of: gone.source).map { (document: $0, name: gone.name) }
        }
        // Page-level files of items no longer in the document are not written.
        let present = Set(document.items.map(\.id))
        let added = attachments.added.filter { $0.item.map(present.contains) ?? true }
        do throws(EngineError) {
            let entries = try OpenedPDF.embeddedFiles(
                of: documents, removed: removed, added: added.map(\.name), withData: withData,
                maxStreamBytes: ProcessLimits.current.inflatedStreamBytes)
            // `added` of an entry: back to the index in the document's whole list.
            let indices = attachments.added.indices.filter { attachments.added[$0].item.map(present.contains) ?? true }
            return (
                entries.map { entry in
                    var entry = entry
                    entry.added = entry.added.map { indices[$0] }
                    return entry
                }, order
            )
        } catch {
            throw .engine(error)
        }
    }

    /// What `EditContext.attachments` answers: the names export writes.
    func attachmentNames(of document: Document) throws(PDFEditError) -> [ListedAttachmentName] {
        let (entries, order) = try embeddedFiles(of: document)
        return entries.map { entry in
            ListedAttachmentName(
                name: entry.name, source: entry.document.map { order[$0] }, original: entry.original, added: entry.added)
        }
    }

    /// `attach list`: each attachment of `document`, in the order export writes them.
    func attachmentInfos(
        of document: Document, session: Session, opened: [String: OpenedPDF] = [:]
    ) throws(PDFEditError) -> [AttachmentInfo] {
        let (entries, order) = try embeddedFiles(of: document, opened: opened)
        let added = document.attachments?.added ?? []
        return entries.map { entry in
            if let index = entry.added, added.indices.contains(index) {
                let file = added[index]
                return AttachmentInfo(
                    name: entry.name, size: file.size, mimeType: file.mimeType, description: file.description,
                    relationship: file.relationship?.rawValue,
                    page: file.item.flatMap { document.index(of: $0) }.map { $0 + 1 }, from: "added")
            }
            let source = entry.document.map { order[$0] }
            return AttachmentInfo(
                name: entry.name, size: entry.size, mimeType: entry.mimeType, description: entry.description,
                relationship: entry.relationship, page: nil,
                from: source.flatMap { session.source($0)?.path } ?? "source")
        }
    }

    /// `attach extract [NAME...] --to DIR [--force]`: the chosen attachments (all
    /// when `names` is empty) written into `folder` under their safe file names
    /// (`AttachmentFiles.fileName`), each atomically, none over an existing file
    /// without `force`, never over a source or a file of the session
    /// (`OutputChecks`). Every check comes before the first file is written.
    func extractAttachments(
        of document: Document, names: [String], to folder: String, force: Bool, checks: OutputChecks,
        opened: [String: OpenedPDF] = [:]
    ) throws(PDFEditError) -> [String] {
        let (entries, _) = try embeddedFiles(of: document, withData: true, opened: opened)
        var chosen: [EmbeddedFileEntry] = []
        if names.isEmpty {
            chosen = entries
        } else {
            var seen: Set<String> = []
            for name in names {
                guard seen.insert(name).inserted else { throw .usage("\"\(name)\" is named twice") }
                guard let entry = entries.first(where: { $0.name == name }) else {
                    let known = entries.map { "\"\($0.name)\"" }
                    throw .usage(
                        "\"\(document.name)\" has no attachment named \"\(name)\""
                            + (known.isEmpty ? " (it has none)" : "; it has \(cappedList(known))"))
                }
                chosen.append(entry)
            }
        }
        if chosen.isEmpty { return [] }
        try ensureDirectory(folder)
        var targets: [(entry: EmbeddedFileEntry, path: String)] = []
        var byFile: [String: String] = [:]
        var checks = checks
        for entry in chosen {
            let file = AttachmentFiles.fileName(for: entry.name)
            if let other = byFile[file] {
                throw .usage(
                    "attachments \"\(other)\" and \"\(entry.name)\" would both be written to \(file): "
                        + "extract them one at a time by name")
            }
            byFile[file] = entry.name
            let path = Paths.join(folder, file)
            try checks.check(path)
            targets.append((entry, path))
        }
        let added = document.attachments?.added ?? []
        var contents: [[UInt8]] = []
        for (entry, _) in targets {
            if let index = entry.added, added.indices.contains(index) {
                contents.append(try AttachmentFiles.bytes(of: added[index], access: self))
            } else if let data = entry.data {
                contents.append(data)
            } else {
                throw .engine(
                    .damaged(
                        file: document.name, page: nil,
                        detail: "the embedded file \"\(entry.name)\" cannot be decoded"))
            }
        }
        let staged = StagedOutput.staging(targets.map(\.path))
        for (output, bytes) in zip(staged, contents) {
            do throws(PDFEditError) {
                try output.write(Data(bytes), sync: true)
            } catch {
                staged.forEach { $0.discard() }
                throw error
            }
        }
        try Cancellation.deferringSignals { () throws(PDFEditError) in try StagedOutput.commitAll(staged) }
        return targets.map(\.path)
    }
}

extension DirectMode {
    /// `attach list --from FILE`: the file's document-level embedded files
    /// (`PageEditor.attachments(in:)`, as `attach list` in a session).
    package func attachments() throws(PDFEditError) -> [AttachmentInfo] {
        let editor = try open(repairing: false)
        return try Self.naming(input) { () throws(PDFEditError) in try editor.attachments() }
    }

    /// `attach extract [NAME...] --to DIR --from FILE [--force]`: the files written
    /// (`PageEditor.extractAttachments`, as in a session).
    package func extractAttachments(_ names: [String], to folder: String) throws(PDFEditError) -> [String] {
        let editor = try open(repairing: false)
        return try Self.naming(input) { () throws(PDFEditError) in
            try editor.extractAttachments(names, toPath: folder, force: force, in: nil)
        }
    }
}

extension ExportWriter {
    /// The document's attachments for an export of `items` planned as `plan`:
    /// the added files (their bytes read and checked now; a page-level one only
    /// when its item is exported, at that item's index) and the sources' files
    /// removed (by the plan's source index).
    func setAttachments(
        of items: [PageItem], plan: EnginePlan, document name: String, on options: inout ExportOptions
    ) throws(PDFEditError) {
        guard let attachments = session.document(named: name)?.attachments, !attachments.isEmpty else { return }
        var index: [ItemID: Int] = [:]
        for (at, item) in items.enumerated() where index[item.id] == nil { index[item.id] = at }
        options.attachments = []
        for file in attachments.added {
            var item: Int?
            if let id = file.item {
                guard let at = index[id] else { continue }
                item = at
            }
            options.attachments.append(
                ExportAttachment(
                    name: file.name, data: try AttachmentFiles.bytes(of: file, access: access), mimeType: file.mimeType,
                    description: file.description, relationship: file.relationship?.rawValue, date: file.date,
                    item: item))
        }
        options.removedAttachments = attachments.removed.compactMap { gone in
            plan.sessionSources.firstIndex(of: gone.source).map { ExportRemovedAttachment(source: $0, name: gone.name) }
        }
    }
}
