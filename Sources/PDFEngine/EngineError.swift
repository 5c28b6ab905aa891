import Foundation
import QPDFBridge

/// Everything the engine can fail with. Each case names the file (and the page
/// where one is known); the kit maps cases to exit codes in one place.
public enum EngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist (or is not a regular file).
    case missing(file: String)
    /// The file cannot be read (permissions, I/O).
    case unreadable(file: String, reason: String)
    /// Zero bytes.
    case emptyFile(file: String)
    /// Neither a PDF nor a supported image.
    case notAPDF(file: String)
    /// Starts like a JPEG or PNG but is truncated, corrupt or of an unsupported variant.
    case badImage(file: String, reason: String)
    /// A PDF too damaged for qpdf to recover.
    case damaged(file: String, page: Int?, detail: String)
    /// Encrypted and no (or a wrong) password was available.
    case password(file: String, given: Bool)
    /// A structure qpdf refuses (page tree loops, unsupported features).
    case unsupported(file: String, page: Int?, detail: String)
    case pageOutOfRange(file: String, page: Int, pageCount: Int)
    /// The input exceeds one of the documented `Limits` (65); `what` says which
    /// and names the limit, e.g. "an image of 100000 x 100000 pixels (limit 268435456, PDFEDIT_MAX_PIXELS)".
    case overLimit(file: String, page: Int?, what: String)
    /// An output could not be written.
    case cannotWrite(file: String, reason: String)
    /// Anything else the libraries reported: a bug or an unexpected library error.
    case library(file: String, message: String)

    public var file: String {
        switch self {
        case .missing(let file), .unreadable(let file, _), .emptyFile(let file), .notAPDF(let file),
            .badImage(let file, _),
            .damaged(let file, _, _), .password(let file, _), .unsupported(let file, _, _),
            .pageOutOfRange(let file, _, _), .cannotWrite(let file, _), .library(let file, _),
            .overLimit(let file, _, _):
            return file
        }
    }

    public var description: String {
        func at(_ page: Int?) -> String { page.map { " page \($0):" } ?? "" }
        switch self {
        case .missing(let file): return "\(file): no such file"
        case .unreadable(let file, let reason): return "\(file): cannot be read: \(reason)"
        case .emptyFile(let file): return "\(file): empty file (0 bytes), not a PDF"
        case .notAPDF(let file): return "\(file): not a PDF or a supported image (JPEG, PNG)"
        case .badImage(let file, let reason): return "\(file): unusable image: \(reason)"
        case .damaged(let file, let page, let detail):
            return "\(file):\(at(page)) damaged beyond repair: \(detail)"
        case .password(let file, let given):
            return given
                ? "\(file): wrong password"
                : "\(file): encrypted; give its password with --password or --password-for"
        case .unsupported(let file, let page, let detail):
            return "\(file):\(at(page)) unusable page structure: \(detail)"
        case .pageOutOfRange(let file, let page, let count):
            return "\(file): page \(page) does not exist (the file has \(count) pages)"
        case .cannotWrite(let file, let reason): return "\(file): cannot be written: \(reason)"
        case .overLimit(let file, let page, let what): return "\(file):\(at(page)) over a limit: \(what)"
        case .library(let file, let message): return "\(file): \(message)"
        }
    }
}

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
        case Int(PE_E_SYSTEM):
            if failure.isOutput {
                self = .cannotWrite(file: file, reason: detail)
            } else if failure.checksInput, !FileManager.default.fileExists(atPath: file) {
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

    private static func isEmptyFile(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return false }
        return (attributes[.size] as? NSNumber)?.intValue == 0
    }
}
