internal import PDFEngine

/// The versions `pdfedit --version` reports: the program's own and those of the
/// libraries it runs on.
public enum Versions {
    /// pdfedit's version (the kit's, which is the program's).
    public static let pdfedit = "0.1.0"

    /// e.g. "libqpdf 11.3.0, poppler 22.12.0, cairo 1.16.0"
    public static var libraries: String { LibraryVersions.summary }

    /// e.g. "0.1.0 (libqpdf 11.3.0, poppler 22.12.0, cairo 1.16.0)". Loads
    /// poppler-glib and cairo to ask them, if nothing has yet.
    public static var summary: String { "\(pdfedit) (\(libraries))" }

    /// What `pdfedit --version` prints, without loading libqpdf, poppler-glib
    /// and cairo (which commands load when they first open a PDF, render or read
    /// text), e.g. "0.1.0 (libqpdf 11.3.0; poppler and cairo are loaded when
    /// first needed)": the libqpdf pdfedit was built with.
    public static var withoutLoading: String {
        "\(pdfedit) (libqpdf \(LibraryVersions.qpdfBuiltWith); poppler and cairo are loaded when first needed)"
    }
}
