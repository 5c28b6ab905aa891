import CPoppler
import QPDFBridge

/// The versions of the libraries the engine runs on.
public enum LibraryVersions {
    /// libqpdf's, e.g. "11.3.0": the library in use (the pdfedit command loads
    /// it for this, as on its first PDF).
    public static var qpdf: String { String(cString: pe_qpdf_version()) }

    /// The version of the libqpdf headers the engine was built with, e.g.
    /// "11.3.0", read without loading the library.
    public static var qpdfBuiltWith: String { String(cString: pe_qpdf_built_version()) }

    /// e.g. "libqpdf 11.3.0, poppler 22.12.0, cairo 1.16.0". Loads poppler-glib
    /// and cairo if nothing has yet (they are loaded on first use).
    public static var summary: String {
        let qpdf = String(cString: pe_qpdf_version())
        let poppler = String(cString: poppler_get_version())
        let cairo = String(cString: cairo_version_string())
        return "libqpdf \(qpdf), poppler \(poppler), cairo \(cairo)"
    }
}
