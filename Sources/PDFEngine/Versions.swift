import CPoppler
import QPDFCore

/// The versions of the libraries the engine runs on.
package enum LibraryVersions {
    /// libqpdf's, e.g. "11.3.0": the library in use.
    package static var qpdf: String { String(cString: pe_qpdf_version()) }

    /// e.g. "libqpdf 11.3.0, poppler 22.12.0, cairo 1.16.0": the libraries in use.
    package static var summary: String {
        let qpdf = String(cString: pe_qpdf_version())
        let poppler = String(cString: poppler_get_version())
        let cairo = String(cString: cairo_version_string())
        return "libqpdf \(qpdf), poppler \(poppler), cairo \(cairo)"
    }
}
