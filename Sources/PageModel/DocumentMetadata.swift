/// The metadata a document sets for its exports. Each field: nil keeps what
/// the first page's source says, "" removes it, any other text replaces it.
public struct DocumentMetadata: Codable, Equatable, Sendable {
    public var title: String?
    public var author: String?
    public var subject: String?
    public var keywords: String?

    public init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
    }

    /// Whether nothing is set (every field keeps the source's).
    public var isEmpty: Bool { title == nil && author == nil && subject == nil && keywords == nil }

    /// These values with the fields `changes` sets replaced.
    public func updated(with changes: DocumentMetadata) -> DocumentMetadata {
        DocumentMetadata(
            title: changes.title ?? title, author: changes.author ?? author, subject: changes.subject ?? subject,
            keywords: changes.keywords ?? keywords)
    }

    /// The fields that are set, as (Info key, value) pairs in a fixed order.
    public var setFields: [(key: String, value: String)] {
        [("Title", title), ("Author", author), ("Subject", subject), ("Keywords", keywords)]
            .compactMap { key, value in value.map { (key, $0) } }
    }
}
