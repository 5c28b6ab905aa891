#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PageEditor {
    /// What changed from the PDF at `old` to the one at `new`, page by page:
    /// pages moved, removed, inserted, rotated and changed in place (with the
    /// regions that changed), the pages paired by content — what `pdfedit diff
    /// OLD NEW` reports (``DocumentDiff/same`` is its exit status 0).
    public static func diff(_ old: URL, _ new: URL, passwords: PasswordBook = PasswordBook()) throws(PDFEditError)
        -> DocumentDiff
    {
        try DocumentDiff.files(old.path, new.path, passwords: passwords, sheet: nil)
    }
}
