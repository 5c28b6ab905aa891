#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PageModel
import QPDFCore

/// What the engine fails with: the model's `FileError` (one type for the engine
/// and the kit's public API), made here from the bridge's statuses.
package typealias EngineError = FileError

// MARK: From the bridge

/// Whom a failed bridge call's `pe_status` is about, for `EngineError(status:about:)`.
struct BridgeFailure {
    /// The file named in the error.
    var file: String
    /// The failure is the output's (written), not an input's (read).
    var isOutput = false
    /// A password (or alternatives) was given for the input: a refused one is "wrong".
    var passwordGiven = true
    /// A plain library exception (PE_E_INTERNAL) is damage of the input, as qpdf
    /// reports some damage met while a source is read or copied for an export;
    /// elsewhere it stays a library error.
    var internalIsDamage = false
    /// The input was opened for the call (so PE_E_SYSTEM may mean it vanished,
    /// and PE_E_DAMAGED that it is empty).
    var checksInput = false
}

extension EngineError {
    /// How the bridge starts the detail of an input over a limit (`check_tree_depths`).
    static let overLimitPrefix = "over a limit: "

    /// A PE_E_PAGES / PE_E_UNSUPPORTED failure of the bridge: over a limit when the
    /// bridge says so, else an unusable page structure.
    static func pageStructure(file: String, page: Int?, detail: String) -> EngineError {
        guard detail.hasPrefix(overLimitPrefix) else { return .unsupported(file: file, page: page, detail: detail) }
        return .overLimit(file: file, page: page, what: String(detail.dropFirst(overLimitPrefix.count)))
    }

    /// The message of a bridge status (its NUL-terminated `message`).
    static func detail(of status: pe_status) -> String {
        var message = status.message
        return withUnsafeBytes(of: &message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The one mapping from a failed bridge call (`pe_status`, code not PE_OK) to
    /// an error naming `failure.file` and, when the bridge knows it, the page.
    init(status: pe_status, about failure: BridgeFailure) {
        let detail = Self.detail(of: status)
        let file = failure.file
        let page = status.page > 0 ? Int(status.page) : nil
        switch Int(status.code) {
        case Int(PE_E_PASSWORD):
            self = .password(file: file, given: failure.passwordGiven)
        case Int(PE_E_DAMAGED):
            self = failure.checksInput && Self.isEmptyFile(file)
                ? .emptyFile(file: file) : .damaged(file: file, page: page, detail: detail)
        case Int(PE_E_PAGES), Int(PE_E_UNSUPPORTED):
            self = .pageStructure(file: file, page: page, detail: detail)
        case Int(PE_E_SYSTEM) where Self.isOutOfMemory(detail):
            // The bridge's std::bad_alloc, or ENOMEM from the system: memory, not the file.
            self = .outOfMemory(file: file)
        case Int(PE_E_SYSTEM):
            if failure.isOutput {
                self = .cannotWrite(file: file, reason: detail)
            } else if failure.checksInput, !Files.exists(file) {
                self = .missing(file: file)
            } else {
                self = .unreadable(file: file, reason: detail)
            }
        case Int(PE_E_LIMIT):
            self = .overLimit(file: file, page: page, what: detail)
        case Int(PE_E_PLAN) where !failure.isOutput && status.page_count > 0 && page != nil:
            self = .pageOutOfRange(file: file, page: page ?? 0, pageCount: Int(status.page_count))
        case Int(PE_E_INTERNAL) where failure.internalIsDamage && !failure.isOutput:
            self = .damaged(file: file, page: page, detail: detail)
        default:
            self = .library(file: file, message: detail)
        }
    }

    /// Whether a bridge message says memory ran out: the bridge's own words for
    /// `std::bad_alloc`, or the text of ENOMEM.
    static func isOutOfMemory(_ detail: String) -> Bool {
        detail == "out of memory" || detail.hasSuffix(String(cString: strerror(ENOMEM)))
    }

    private static func isEmptyFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_size == 0
    }
}
