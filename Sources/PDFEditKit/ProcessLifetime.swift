internal import PDFEngine
import PageModel

/// How long this process lives, for what is cheaper to leave to the system.
package enum ProcessLifetime {
    /// The process ends after the one command it runs: the PDFs it opened are not
    /// freed when closed but at exit (see `ClosedDocuments.keepUntilExit`). The
    /// CLI says so for every command but `apply`, which opens file after file.
    package static func endsAfterOneCommand() {
        ClosedDocuments.keepUntilExit()
    }
}
