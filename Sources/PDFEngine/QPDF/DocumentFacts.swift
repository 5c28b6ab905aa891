/// Document-level facts `info` reports, read through the bridge (`OpenedPDF.facts()`).
package struct DocumentFacts: Equatable, Sendable {
    package var pageCount: Int
    package var pdfVersion: String
    package var encrypted: Bool
    package var allowsAssembly: Bool
    package var producer: String?
    package var creator: String?
    package var title: String?
    package var hasForm: Bool
    package var hasOutlines: Bool
    package var hasPageLabels: Bool
    package var isTagged: Bool
    /// Every text of the document information dictionary the bridge reports
    /// (Producer, Creator, Title, Author, Subject, Keywords, CreationDate, ModDate).
    package var information: [String: String] = [:]
}
