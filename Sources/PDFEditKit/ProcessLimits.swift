#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// The documented limits of this process: the defaults with the `PDFEDIT_MAX_*`
/// variables of its environment, read once. Every command checks them first
/// (`check()`), so a bad value is refused (64) before any work; the kit then
/// passes `current` down to the model and the engine, where they are checked.
package enum ProcessLimits {
    private static let reading = Result { () throws(LimitsError) -> Limits in
        let limits = try Limits(environment: EnvironmentVariables.process.values(of: Limits.variables))
        // The engine's tree walks (qpdf's and ours) read the depth limit from one place.
        PageTree.setMaximumDepth(limits.treeDepth)
        return limits
    }

    /// Refuses a `PDFEDIT_MAX_*` value that is not a positive whole number (64).
    package static func check() throws(PDFEditError) {
        if case .failure(let error) = reading { throw PDFEditError.usage(error.description) }
    }

    /// The limits in force. Commands call `check()` first, so the defaults stand
    /// in for a bad environment only in code that never runs without that check.
    package static var current: Limits {
        (try? reading.get()) ?? .standard
    }

    /// What the engine checks before poppler decodes a page.
    static var reader: ReaderLimits {
        ReaderLimits(
            inflatedStreamBytes: current.inflatedStreamBytes, pixels: current.pixels, operators: current.operatorsPerPage)
    }
}
