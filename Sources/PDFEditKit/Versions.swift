internal import PDFEngine
import PageModel

/// The versions `pdfedit --version` reports: the program's own and those of the
/// libraries it runs on.
package enum Versions {
    /// pdfedit's version (the kit's, which is the program's).
    package static let pdfedit = "0.1.0"

    /// e.g. "libqpdf 11.3.0, poppler 22.12.0, cairo 1.16.0"
    package static var libraries: String { LibraryVersions.summary }

    /// What `pdfedit --version` prints, e.g. "0.1.0 (libqpdf 11.3.0, poppler
    /// 22.12.0, cairo 1.16.0)".
    package static var summary: String { "\(pdfedit) (\(libraries))" }
}
