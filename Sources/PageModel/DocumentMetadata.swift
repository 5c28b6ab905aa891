/// The metadata a document sets for its exports. Each field: nil keeps what
/// the first page's source says, "" removes it, any other text replaces it.
package struct DocumentMetadata: Codable, Equatable, Sendable {
    package var title: String?
    package var author: String?
    package var subject: String?
    package var keywords: String?

    package init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
    }

    /// Whether nothing is set (every field keeps the source's).
    package var isEmpty: Bool { title == nil && author == nil && subject == nil && keywords == nil }

    /// These values with the fields `changes` sets replaced.
    package func updated(with changes: DocumentMetadata) -> DocumentMetadata {
        DocumentMetadata(
            title: changes.title ?? title, author: changes.author ?? author, subject: changes.subject ?? subject,
            keywords: changes.keywords ?? keywords)
    }

    /// THE rule for every metadata value (`meta`, `export --title`, a session's
    /// metadata): the text that ends up in the Info dictionary and the XMP
    /// packet may not hold a control character other than tab and line feed,
    /// nor U+FFFE or U+FFFF: XML 1.0, which XMP is, cannot hold them (and a
    /// carriage return would come back from XML as a line feed). Nil when
    /// `value` is fine; else why not, naming the character.
    package static func problem(ofValue value: String) -> String? {
        for scalar in value.unicodeScalars {
            let allowed: Bool =
                switch scalar.value {
                case 0x09, 0x0A: true
                case 0xFFFE, 0xFFFF: false
                default: scalar.properties.generalCategory != .control
                }
            if !allowed {
                let code = String(scalar.value, radix: 16, uppercase: true)
                return "holds the character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code), "
                    + "which PDF metadata (XMP) cannot hold"
            }
        }
        return nil
    }

    /// The first field whose value breaks `problem(ofValue:)`: "the title holds …".
    package var problem: String? {
        for (key, value) in setFields {
            if let problem = DocumentMetadata.problem(ofValue: value) { return "the \(key.lowercased()) \(problem)" }
        }
        return nil
    }

    /// The fields that are set, as (Info key, value) pairs in a fixed order.
    package var setFields: [(key: String, value: String)] {
        [("Title", title), ("Author", author), ("Subject", subject), ("Keywords", keywords)]
            .compactMap { key, value in value.map { (key, $0) } }
    }
}
