/// How an attached file relates to the document (`/AFRelationship`, PDF 2.0 and
/// PDF/A-3; Factur-X and ZUGFeRD invoices attach their XML as `Data` or `Alternative`).
package enum AttachmentRelationship: String, Codable, Equatable, Sendable, CaseIterable {
    case source = "Source"
    case data = "Data"
    case alternative = "Alternative"
    case supplement = "Supplement"
    case unspecified = "Unspecified"

    /// Reads `Source`, `data`, … (case-insensitive); nil for anything else.
    package init?(parsing text: String) {
        guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            return nil
        }
        self = found
    }
}

/// A file attached by `attach add`, as the session keeps it: its bytes are the
/// file `file` (a copy the kit made when it was added: in a session, in the
/// session's attachment store, so a later change of the original cannot change
/// an export), checked against `size` and `sha256` whenever it is read.
package struct Attachment: Codable, Equatable, Sendable {
    /// The name it is listed, extracted and written under (unique in its document).
    package var name: String
    /// Where its bytes are, stored as source paths are (relative to the session's folder when below it).
    package var file: String
    package var size: Int64
    package var sha256: String
    /// Its MIME type (`/Subtype` of the embedded file stream).
    package var mimeType: String
    package var description: String?
    package var relationship: AttachmentRelationship?
    /// `/CreationDate` and `/ModDate`: the file's modification time when it was
    /// added, as a PDF date, so that exporting twice gives the same bytes.
    package var date: String?
    /// Page level: the item whose page shows it as a FileAttachment annotation
    /// (it moves with that item; an export without the item leaves it out).
    /// Nil: document level (the EmbeddedFiles name tree and the catalog's /AF).
    package var item: ItemID?

    package init(
        name: String, file: String, size: Int64, sha256: String, mimeType: String, description: String? = nil,
        relationship: AttachmentRelationship? = nil, date: String? = nil, item: ItemID? = nil
    ) {
        self.name = name
        self.file = file
        self.size = size
        self.sha256 = sha256
        self.mimeType = mimeType
        self.description = description
        self.relationship = relationship
        self.date = date
        self.item = item
    }

    /// THE rule for an attachment's name: not empty, no NUL, at most 1,024
    /// characters. Nil when `name` is fine; else why not. (What extraction does
    /// with names that are not safe file names is `AttachmentNames.fileName`'s.)
    package static func problem(ofName name: String) -> String? {
        if name.isEmpty { return "an attachment's name may not be empty" }
        if name.unicodeScalars.contains("\u{0}") { return "an attachment's name may not hold a NUL character" }
        if name.count > 1024 { return "an attachment's name may not be longer than 1,024 characters" }
        return nil
    }
}

/// A source's embedded file that an export of the document leaves out (`attach
/// remove`): the entry `name` of the source's own /EmbeddedFiles tree.
package struct RemovedAttachment: Codable, Equatable, Hashable, Sendable {
    package var source: SourceID
    package var name: String

    package init(source: SourceID, name: String) {
        self.source = source
        self.name = name
    }
}

/// What a document changes of the embedded files its export writes: files
/// added (in order) and sources' files left out.
package struct DocumentAttachments: Codable, Equatable, Sendable {
    package var added: [Attachment]
    package var removed: [RemovedAttachment]

    package init(added: [Attachment] = [], removed: [RemovedAttachment] = []) {
        self.added = added
        self.removed = removed
    }

    package var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}

/// One embedded file as an export of a document names it (`EditContext.attachments`
/// asks the kit, which asks the bridge's one naming rule).
package struct ListedAttachmentName: Equatable, Sendable {
    package var name: String
    /// A source's file: that source and the name in its own tree; nil for an added one.
    package var source: SourceID?
    package var original: String?
    /// An added one: its index in `DocumentAttachments.added`.
    package var added: Int?

    package init(name: String, source: SourceID? = nil, original: String? = nil, added: Int? = nil) {
        self.name = name
        self.source = source
        self.original = original
        self.added = added
    }
}

extension Document {
    /// The sources whose pages the document's items show, in order of first
    /// appearance (a sheet's cells included): the order an export merges their
    /// embedded files in.
    package var pageSourcesInOrder: [SourceID] {
        var seen: Set<SourceID> = []
        var order: [SourceID] = []
        func note(_ item: PageItem) {
            if case .page(let source, _) = item.content, seen.insert(source).inserted { order.append(source) }
            if case .sheet(let sheet) = item.content {
                for cell in sheet.cells { if let inner = cell.item { note(inner) } }
            }
        }
        items.forEach(note)
        return order
    }
}

extension Session {
    /// The same session with each added attachment's stored path replaced by
    /// `path(attachment)` (the bytes themselves unchanged), in its documents and
    /// in the history (so undo and redo still find them): what
    /// `relocatingSources` does for sources, for a program that keeps paths from
    /// another folder than the session file's.
    package func relocatingAttachments<E: Error>(_ path: (Attachment) throws(E) -> String) throws(E) -> Session {
        func moved(_ attachments: DocumentAttachments?) throws(E) -> DocumentAttachments? {
            guard var attachments else { return nil }
            for index in attachments.added.indices { attachments.added[index].file = try path(attachments.added[index]) }
            return attachments
        }
        func moved(_ document: Document) throws(E) -> Document {
            var document = document
            document.attachments = try moved(document.attachments)
            return document
        }
        var session = self
        for index in session.documents.indices { session.documents[index] = try moved(session.documents[index]) }
        for step in session.history.steps.indices {
            for index in session.history.steps[step].changes.indices {
                let change: Change
                switch session.history.steps[step].changes[index] {
                case .setAttachments(let document, let from, let to):
                    change = .setAttachments(document: document, from: try moved(from), to: try moved(to))
                case .addDocument(let document, let at): change = .addDocument(try moved(document), index: at)
                case .dropDocument(let document, let at): change = .dropDocument(try moved(document), index: at)
                default: continue
                }
                session.history.steps[step].changes[index] = change
            }
        }
        return session
    }
}
