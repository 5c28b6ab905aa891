// The edit both floors make: `qpdf IN --rotate=+DEGREES:PAGE OUT` through
// libqpdf's C API, after refusing an existing output without --force as pdfedit
// does. No other checks, no fidelity, no safety (no temporary file, no rename):
// what is left is the cost of the stack itself. Glibc only, no Foundation.
import CQPDFFloor
import Glibc

/// Rotates page `page` (1-based) of `input` by `degrees` into `output`; nil when
/// done, else why not.
public func rotatePage(_ page: Int, by degrees: Int, input: String, output: String, force: Bool) -> String? {
    if !force && access(output, F_OK) == 0 {
        return "\(output): exists; use --force to replace it"
    }
    var qpdf = qpdf_init()
    defer { qpdf_cleanup(&qpdf) }
    guard qpdf_read(qpdf, input, nil) & QPDF_ERRORS == 0 else {
        return "cannot read \(input)"
    }
    let handle = qpdf_get_page_n(qpdf, page - 1)
    let old = qpdf_oh_has_key(qpdf, handle, "/Rotate") != 0
        ? Int(qpdf_oh_get_int_value_as_int(qpdf, qpdf_oh_get_key(qpdf, handle, "/Rotate"))) : 0
    qpdf_oh_replace_key(qpdf, handle, "/Rotate", qpdf_oh_new_integer(qpdf, Int64((old + degrees) % 360)))
    guard qpdf_init_write(qpdf, output) & QPDF_ERRORS == 0, qpdf_write(qpdf) & QPDF_ERRORS == 0 else {
        return "cannot write \(output)"
    }
    return nil
}
