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
        try diff(old.path, new.path, passwords: passwords, sheet: nil)
    }

    /// ``diff(_:_:passwords:)`` of paths as the command line gives them, with
    /// `diff --sheet`'s picture of the changed pages.
    package static func diff(_ old: String, _ new: String, passwords: PasswordBook, sheet: DiffSheetRequest?)
        throws(PDFEditError) -> DocumentDiff
    {
        try DocumentDiff.files(old, new, passwords: passwords, sheet: sheet)
    }
}
