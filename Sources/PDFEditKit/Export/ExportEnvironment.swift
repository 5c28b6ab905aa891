#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// The export knobs of this process's environment, read once, here only (the
/// bridge reads no environment; the kit passes them in the engine's
/// `ExportOptions`):
/// - `PDFEDIT_THREADS`: how many threads a split export writes parts on (and
///   `--compress` recompresses streams on), used
///   when it is a whole number from 1 (none) to 64 (leading white space and a
///   sign allowed, as C's strtol reads it); anything else means the default, the
///   CPUs this process may run on, at most 4.
/// - `PDFEDIT_NO_IN_PLACE`: when set (to anything), an export never rearranges
///   its source in place nor appends an update to it, it always copies pages.
/// - `PDFEDIT_NO_APPEND`: when set, an export never writes its output as the
///   source's bytes plus an incremental update.
enum ExportEnvironment {
    /// `PDFEDIT_THREADS` when usable, else nil (the default).
    static let threads: Int? = threadCount(EnvironmentVariables.process["PDFEDIT_THREADS"])

    /// False when `PDFEDIT_NO_IN_PLACE` is set.
    static let inPlace: Bool = EnvironmentVariables.process["PDFEDIT_NO_IN_PLACE"] == nil

    /// False when `PDFEDIT_NO_APPEND` or `PDFEDIT_NO_IN_PLACE` is set.
    static let appendUpdate: Bool = inPlace && EnvironmentVariables.process["PDFEDIT_NO_APPEND"] == nil

    /// A thread count from the text of `PDFEDIT_THREADS`: a whole number from 1 to 64.
    static func threadCount(_ text: String?) -> Int? {
        guard let text else { return nil }
        let number = text.unicodeScalars.drop { [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"].contains($0) }
        guard let value = Int(String(number)), (1...64).contains(value) else { return nil }
        return value
    }
}
