import Foundation
import PDFEngine
import PageModel

extension Limits {
    /// The limits of this process: the defaults with the environment's overrides
    /// (`PDFEDIT_MAX_*`), read once. A malformed variable is a usage error (64)
    /// naming it, raised by whatever needs the limits.
    static let ofProcess: Result<Limits, LimitsError> = Result { () throws(LimitsError) -> Limits in
        try Limits(environment: ProcessInfo.processInfo.environment)
    }

    /// `ofProcess`, or the usage error of its malformed variable.
    static func current() throws(PDFEditError) -> Limits {
        switch ofProcess {
        case .success(let limits): return limits
        case .failure(let error): throw PDFEditError.usage(error.description)
        }
    }

    /// What the engine checks before poppler decodes a page, for this process
    /// (the defaults when a variable is malformed: the commands that write
    /// refuse that with 64 through `current()`).
    static var readerLimitsOfProcess: ReaderLimits {
        let limits = (try? ofProcess.get()) ?? .standard
        return ReaderLimits(inflatedStreamBytes: limits.inflatedStreamBytes, pixels: limits.pixels)
    }
}
