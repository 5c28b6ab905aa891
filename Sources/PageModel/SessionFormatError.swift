/// Why a session file cannot be read. Never a trap: a damaged file is reported.
package enum SessionFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON, or not the expected shape; the text says where.
    case malformedJSON(String)
    case missingVersion
    /// Written by a newer (or unknown) pdfedit.
    case unsupportedVersion(Int, supported: ClosedRange<Int>)
    /// Well-formed JSON with a value that cannot be (a bad run, a bad range…); the text says where.
    case invalidField(String)
    case inconsistent(SessionInconsistency)

    package var description: String {
        switch self {
        case .malformedJSON(let detail):
            "the session file is not valid session JSON: \(detail)"
        case .missingVersion:
            "the session file has no \"version\" field"
        case .unsupportedVersion(let version, let supported):
            "the session file has version \(version); this pdfedit reads versions \(supported.lowerBound) to \(supported.upperBound) only"
        case .invalidField(let detail):
            "the session file is damaged: \(detail)"
        case .inconsistent(let problem):
            "the session file is inconsistent: \(problem)"
        }
    }
}
