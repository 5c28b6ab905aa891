/// Why a file could not be used, read or written: everything reading and writing
/// PDFs and images can fail with. Each case names the file (and the page where
/// one is known); its `description` is the message the command line prints, and
/// the kit maps cases to exit codes in one place (`PDFEditError.exitCode`).
///
/// A pure value, here so that the engine (which throws it, as `EngineError`) and
/// the kit's public API (which carries it in `PDFEditError.engine`) share one type.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
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
    /// A page number past the end of the file.
    case pageOutOfRange(file: String, page: Int, pageCount: Int)
    /// The input exceeds one of the documented `Limits` (65); `what` says which
    /// and names the limit, e.g. "an image of 100000 x 100000 pixels (limit 268435456, PDFEDIT_MAX_PIXELS)".
    case overLimit(file: String, page: Int?, what: String)
    /// An output could not be written.
    case cannotWrite(file: String, reason: String)
    /// The process ran out of memory (or address space: `ulimit -v`) working on
    /// `file`: not the file's fault, nor a missing library (71, EX_OSERR).
    case outOfMemory(file: String)
    /// Anything else the libraries reported: a bug or an unexpected library error.
    case library(file: String, message: String)

    /// The file the failure is about.
    public var file: String {
        switch self {
        case .missing(let file), .unreadable(let file, _), .emptyFile(let file), .notAPDF(let file),
            .badImage(let file, _),
            .damaged(let file, _, _), .password(let file, _), .unsupported(let file, _, _),
            .pageOutOfRange(let file, _, _), .cannotWrite(let file, _), .library(let file, _),
            .overLimit(let file, _, _), .outOfMemory(let file):
            return file
        }
    }

    /// The message, as the command line prints it (without the `pdfedit:` prefix).
    public var description: String {
        func at(_ page: Int?) -> String { page.map { " page \($0):" } ?? "" }
        switch self {
        case .missing(let file): return "\(file): no such file"
        case .unreadable(let file, let reason): return "\(file): cannot be read: \(reason)"
        case .emptyFile(let file): return "\(file): empty file (0 bytes), not a PDF"
        case .notAPDF(let file): return "\(file): not a PDF or a supported image (JPEG, PNG)"
        case .badImage(let file, let reason): return "\(file): unusable image: \(reason)"
        case .damaged(let file, let page, let detail):
            // A whole file: direct mode's --repair may still get its pages through poppler.
            return "\(file):\(at(page)) damaged beyond repair: \(detail)"
                + (page == nil ? " (--repair, in direct mode, redraws its pages with poppler)" : "")
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
        case .outOfMemory(let file):
            return "\(file): out of memory; free some, raise the limit (ulimit -v), or work on fewer files at once (-j)"
        }
    }
}

extension FileError {
    /// The same failure about a file the user knows by another name (a PDF a
    /// program handed over as bytes, kept in a temporary file).
    public func naming(_ name: String) -> FileError {
        switch self {
        case .missing: .missing(file: name)
        case .unreadable(_, let reason): .unreadable(file: name, reason: reason)
        case .emptyFile: .emptyFile(file: name)
        case .notAPDF: .notAPDF(file: name)
        case .badImage(_, let reason): .badImage(file: name, reason: reason)
        case .damaged(_, let page, let detail): .damaged(file: name, page: page, detail: detail)
        case .password(_, let given): .password(file: name, given: given)
        case .unsupported(_, let page, let detail): .unsupported(file: name, page: page, detail: detail)
        case .pageOutOfRange(_, let page, let pageCount): .pageOutOfRange(file: name, page: page, pageCount: pageCount)
        case .overLimit(_, let page, let what): .overLimit(file: name, page: page, what: what)
        case .cannotWrite(_, let reason): .cannotWrite(file: name, reason: reason)
        case .outOfMemory: .outOfMemory(file: name)
        case .library(_, let message): .library(file: name, message: message)
        }
    }
}
