/// Document-level facts `info` reports, read through qpdf.
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
}

extension QPDFDocument {
    public func facts() throws(EngineError) -> DocumentFacts {
        let root = try root
        let acroForm = try root.value("AcroForm")
        let fields = try acroForm?.value("Fields")
        let outlines = try root.value("Outlines")
        return DocumentFacts(
            pageCount: try pageCount(),
            pdfVersion: try pdfVersion(),
            encrypted: try isEncrypted(),
            allowsAssembly: try allowsAssembly(),
            producer: try infoValue("Producer"),
            creator: try infoValue("Creator"),
            title: try infoValue("Title"),
            hasForm: try (fields?.arrayCount ?? 0) > 0,
            hasOutlines: try outlines?.value("First") != nil,
            hasPageLabels: try root.value("PageLabels") != nil,
            isTagged: try root.value("StructTreeRoot") != nil)
    }
}
