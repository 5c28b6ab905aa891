package import PDFEngine

/// Why a file could not be used, read or written: the kit's own copy of the
/// engine's failures, so that no engine type is part of the kit's public API.
///
/// Carried by ``PDFEditError/engine(_:)``; its `description` is the message the
/// command line prints (the engine's, word for word).
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
    /// A PDF too damaged to be recovered.
    case damaged(file: String, page: Int?, detail: String)
    /// Encrypted and no (or a wrong) password was available; `given`: some password was tried.
    case password(file: String, given: Bool)
    /// A structure the library refuses (page tree loops, unsupported features).
    case unsupported(file: String, page: Int?, detail: String)
    /// A page number past the end of the file.
    case pageOutOfRange(file: String, page: Int, pageCount: Int)
    /// The input exceeds one of the documented limits; `what` says which and names it.
    case overLimit(file: String, page: Int?, what: String)
    /// An output could not be written.
    case cannotWrite(file: String, reason: String)
    /// Anything else the libraries reported: a bug or an unexpected library error.
    case library(file: String, message: String)

    /// The file the failure is about.
    public var file: String { engineError.file }

    /// The message, as the command line prints it (without the `pdfedit:` prefix).
    public var description: String { engineError.description }

    init(_ error: EngineError) {
        switch error {
        case .missing(let file): self = .missing(file: file)
        case .unreadable(let file, let reason): self = .unreadable(file: file, reason: reason)
        case .emptyFile(let file): self = .emptyFile(file: file)
        case .notAPDF(let file): self = .notAPDF(file: file)
        case .badImage(let file, let reason): self = .badImage(file: file, reason: reason)
        case .damaged(let file, let page, let detail): self = .damaged(file: file, page: page, detail: detail)
        case .password(let file, let given): self = .password(file: file, given: given)
        case .unsupported(let file, let page, let detail): self = .unsupported(file: file, page: page, detail: detail)
        case .pageOutOfRange(let file, let page, let count):
            self = .pageOutOfRange(file: file, page: page, pageCount: count)
        case .overLimit(let file, let page, let what): self = .overLimit(file: file, page: page, what: what)
        case .cannotWrite(let file, let reason): self = .cannotWrite(file: file, reason: reason)
        case .library(let file, let message): self = .library(file: file, message: message)
        }
    }

    /// The engine's value of the same failure (whose `description` is the message).
    var engineError: EngineError {
        switch self {
        case .missing(let file): .missing(file: file)
        case .unreadable(let file, let reason): .unreadable(file: file, reason: reason)
        case .emptyFile(let file): .emptyFile(file: file)
        case .notAPDF(let file): .notAPDF(file: file)
        case .badImage(let file, let reason): .badImage(file: file, reason: reason)
        case .damaged(let file, let page, let detail): .damaged(file: file, page: page, detail: detail)
        case .password(let file, let given): .password(file: file, given: given)
        case .unsupported(let file, let page, let detail): .unsupported(file: file, page: page, detail: detail)
        case .pageOutOfRange(let file, let page, let count): .pageOutOfRange(file: file, page: page, pageCount: count)
        case .overLimit(let file, let page, let what): .overLimit(file: file, page: page, what: what)
        case .cannotWrite(let file, let reason): .cannotWrite(file: file, reason: reason)
        case .library(let file, let message): .library(file: file, message: message)
        }
    }
}

extension PDFEditError {
    /// An engine failure, as the kit reports it. Disfavoured so that a literal
    /// such as `.engine(.missing(file:))` names the public case.
    @_disfavoredOverload
    package static func engine(_ error: EngineError) -> PDFEditError { .engine(FileError(error)) }
}
