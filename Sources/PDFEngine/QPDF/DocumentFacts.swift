/// Document-level facts `info` reports, read through the bridge (`OpenedPDF.facts()`).
public struct DocumentFacts: Equatable, Sendable {
    public var pageCount: Int
    public var pdfVersion: String
    public var encrypted: Bool
    public var allowsAssembly: Bool
    public var producer: String?
    public var creator: String?
    public var title: String?
    public var hasForm: Bool
    public var hasOutlines: Bool
    public var hasPageLabels: Bool
    public var isTagged: Bool
    /// Every text of the document information dictionary the bridge reports
    /// (Producer, Creator, Title, Author, Subject, Keywords, CreationDate, ModDate).
    public var information: [String: String] = [:]
}
