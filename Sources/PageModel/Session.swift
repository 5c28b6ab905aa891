/// The whole editing state: sources, documents, which one is current, the id
/// counters and the undo/redo history. A value: every edit works on a copy and
/// replaces the session only when it fully succeeded.
package struct Session: Equatable, Sendable {
    /// The session file format this code writes. Version 2 added rotation
    /// patterns to runs (`"rotations"`), which a version-1 reader would not
    /// understand; a version-1 file is read as it is (it has none). Version 3
    /// added documents' authoring data (page label ranges, metadata, outlines —
    /// `"outline"`) and the history operations that change them; an older file's
    /// documents have none (`Document.outline` nil: the sources' own are used).
    /// Version 4 added items' boxes (`"boxes"`, set by `crop`) and the history
    /// operation `rebox`; an older file's items have none.
    /// Version 5 added stamps' placement (`"position"`, `"offset"`, `"margin"`)
    /// and generated text stamps (`"text"`: `number`, `bates`, `watermark`); an
    /// older file's stamps are centred page stamps.
    /// Version 5 also added items' `"resize"` and the history operation
    /// `reshape`; an older file's items are not resized.
    /// Version 5 added sheets (`"sheet"`: `nup`, `booklet`), items whose cells
    /// hold other items; an older file has none.
    /// Version 6 writes the texts of text stamps once, in `"texts"`, and each
    /// stamp's `"text"` as an index into them; a version-5 file's stamps hold
    /// their text themselves, as before.
    /// Version 7 adds documents' `"attachments"` (history `setAttachments`),
    /// items' `"finish"` and documents' `"stripped"` (`flatten`, `strip`;
    /// history `refinish`, `restrip`), and text stamps' `"fontName"`, colours
    /// and boxes; an older file has none of them (standard fonts, black text).
    /// Version 8 adds text stamps' `"sizeShare"` and stamps' `"marginShare"`
    /// (`--size 2%`, `--margin 3%`; an older file's sizes are all in points),
    /// the `"redact"` finishing step of items (`redact`: a region, its fill,
    /// label and covered text), and documents' `"optimize"` (how exports are
    /// written, set by `optimize` in a session; history `reoptimize`); an older
    /// file has none of them.
    package static let formatVersion = 8
    /// The versions this code reads.
    package static let readableVersions = 1...formatVersion
    /// The largest value an id counter (`nextItemNumber`, `nextSourceNumber`)
    /// may reach: 2^53, the largest whole number every JSON reader keeps exactly.
    /// A session file with a larger counter is refused when read, and an edit
    /// that would hand out ids past it is refused, so id arithmetic never overflows.
    package static let maximumCounter = 1 << 53

    /// The format version the session was read with; always `formatVersion` in memory.
    package internal(set) var version: Int
    package internal(set) var sources: [Source]
    package internal(set) var documents: [Document]
    /// The name of the current document.
    package internal(set) var current: String
    /// The number of the next item id (`p<nextItemNumber>`); see `ItemID`.
    package internal(set) var nextItemNumber: Int
    /// The number of the next source id (`s<nextSourceNumber>`).
    package internal(set) var nextSourceNumber: Int
    package internal(set) var history: History

    /// A session with one empty document.
    package init(documentName: String = "main") {
        version = Session.formatVersion
        sources = []
        documents = [Document(name: documentName)]
        current = documentName
        nextItemNumber = 1
        nextSourceNumber = 1
        history = History()
    }

    init(
        sources: [Source], documents: [Document], current: String, nextItemNumber: Int, nextSourceNumber: Int,
        history: History
    ) {
        version = Session.formatVersion
        self.sources = sources
        self.documents = documents
        self.current = current
        self.nextItemNumber = nextItemNumber
        self.nextSourceNumber = nextSourceNumber
        self.history = history
    }

    /// The document with this exact name, if any.
    package func document(named name: String) -> Document? {
        documents.first { $0.name == name }
    }

    /// The document edits go to when no `doc` is given.
    package var currentDocument: Document? { document(named: current) }

    /// The source with this id, if the session has it.
    package func source(_ id: SourceID) -> Source? {
        sources.first { $0.id == id }
    }

    /// A document name not yet used: `base`, else `base-2`, `base-3`, …
    package func uniqueDocumentName(_ base: String) -> String {
        let names = Set(documents.map(\.name))
        guard names.contains(base) else { return base }
        var suffix = 2
        while names.contains("\(base)-\(suffix)") { suffix += 1 }
        return "\(base)-\(suffix)"
    }

    func documentIndex(_ name: String) -> Int? {
        documents.firstIndex { $0.name == name }
    }

    func requireDocument(_ name: String) throws(EditError) -> Document {
        guard let document = document(named: name) else {
            throw .unknownDocument(name, known: documents.map(\.name))
        }
        return document
    }
}

/// One file given to `open`: its document name (the file's stem) and its source.
package struct OpenedFile: Equatable, Sendable {
    package var documentName: String
    /// Its id is provisional; the session assigns `s1`, `s2`, … in order.
    package var source: Source
    /// The file's bookmarks (1-based pages of it), which become the document's outline.
    package var outline: [SourceOutlineEntry]

    package init(documentName: String, source: Source, outline: [SourceOutlineEntry] = []) {
        self.documentName = documentName
        self.source = source
        self.outline = outline
    }
}

extension Session {
    /// A new session holding one document per file (all its pages, or the
    /// image), named after `documentName` made valid and unique, the first
    /// one current, with an empty history. No document may hold more items than
    /// `limits` allows.
    package static func opening(_ files: [OpenedFile], limits: Limits = .standard) throws(EditError) -> Session {
        let context = EditContext(limits: limits)
        guard !files.isEmpty else { throw .nothingToInsert }
        var session = Session(documentName: validDocumentName(files[0].documentName))
        for (index, file) in files.enumerated() {
            let name: String
            if index == 0 {
                name = session.current
            } else {
                name = session.uniqueDocumentName(validDocumentName(file.documentName))
                _ = try session.apply(.newDocument(name: name), label: "open", context: context)
            }
            let contents: [ItemContent] =
                switch file.source.kind {
                case .pdf: (1...max(file.source.pageCount, 1)).map { .page(source: file.source.id, page: $0) }
                case .image: [.image(source: file.source.id)]
                }
            _ = try session.apply(
                .insertItems(
                    contents: contents, at: nil, newSources: [file.source],
                    outlines: file.outline.isEmpty ? [] : [SourceOutline(source: file.source.id, entries: file.outline)]),
                doc: name, label: "open",
                context: context)
        }
        session.current = session.documents[0].name
        session.history = History()
        return session
    }

    /// `text` turned into an acceptable document name (used for file stems):
    /// slashes and control characters become `_`, an empty name becomes "document".
    package static func validDocumentName(_ text: String) -> String {
        let cleaned = String(text.map { $0 == "/" || $0.isControlCharacter ? "_" : $0 }).trimmingWhitespace()
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "document" : cleaned
    }

    /// Nil when `name` can name a document, else why not. Names become file
    /// names in `export --all`, hence the rules.
    static func problem(withDocumentName name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.trimmingWhitespace() != name { return "it starts or ends with whitespace" }
        if name.contains("/") { return "it contains \"/\"" }
        if name.contains(where: \.isControlCharacter) { return "it contains a control character" }
        if name == "." || name == ".." { return "it is reserved" }
        return nil
    }
}

extension Character {
    var isControlCharacter: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
