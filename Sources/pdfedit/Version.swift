import PDFEngine

enum PDFEditVersion {
    static let number = "0.1.0"
    static let string = "\(number) (\(LibraryVersions.summary))"
}
