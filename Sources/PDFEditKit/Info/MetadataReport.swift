internal import PDFEngine
import PageModel

/// What `meta` shows: a document's metadata as export writes it (the values
/// `meta` set, else those of the first page's source; dates and the creator
/// and producer are the source's).
package struct MetadataReport: Codable, Equatable, Sendable {
    package var document: String
    package var title: String?
    package var author: String?
    package var subject: String?
    package var keywords: String?
    package var creator: String?
    package var producer: String?
    /// As the PDF writes it: `D:20240131120000Z`.
    package var creationDate: String?
    package var modificationDate: String?

    enum CodingKeys: String, CodingKey {
        case document, title, author, subject, keywords, creator, producer, creationDate, modificationDate
    }

    /// Every key is written, an absent value as null.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(document, forKey: .document)
        try container.encode(title, forKey: .title)
        try container.encode(author, forKey: .author)
        try container.encode(subject, forKey: .subject)
        try container.encode(keywords, forKey: .keywords)
        try container.encode(creator, forKey: .creator)
        try container.encode(producer, forKey: .producer)
        try container.encode(creationDate, forKey: .creationDate)
        try container.encode(modificationDate, forKey: .modificationDate)
    }

    /// (label, value) lines for the text output, in a fixed order.
    package var fields: [(String, String?)] {
        [
            ("Title", title), ("Author", author), ("Subject", subject), ("Keywords", keywords),
            ("Creator", creator), ("Producer", producer), ("Created", creationDate), ("Modified", modificationDate),
        ]
    }
}

extension PageEditor {
    /// `meta`: the metadata of document `doc` (nil: the current one).
    package func metadata(doc: String?) throws(PDFEditError) -> MetadataReport {
        let document = try session.chosenDocument(doc)
        let access = access
        var information: [String: String] = [:]
        // The source of the first page gives the document information, as export
        // takes it (blank pages before it do not count; an image has none).
        let firstPage = document.items.lazy.compactMap { item -> SourceID? in
            if case .page(let source, _) = item.content { return source }
            return nil
        }.first
        if let source = firstPage, session.source(source)?.kind == .pdf {
            let opened = try access.document(source)
            do throws(EngineError) {
                information = try opened.facts().information
            } catch {
                throw PDFEditError.engine(error)
            }
        }
        let set = document.metadata ?? DocumentMetadata()
        func value(_ key: String, _ own: String?) -> String? {
            guard let own else { return information[key] }
            return own.isEmpty ? nil : own
        }
        return MetadataReport(
            document: document.name, title: value("Title", set.title), author: value("Author", set.author),
            subject: value("Subject", set.subject), keywords: value("Keywords", set.keywords),
            creator: information["Creator"], producer: information["Producer"],
            creationDate: information["CreationDate"], modificationDate: information["ModDate"])
    }
}
