import PageModel

/// Every failure a command can end with. `exitCode` is the one place where a
/// failure becomes one of the exit codes documented in docs/manual.md (DESIGN.md's table).
public enum PDFEditError: Error, CustomStringConvertible {
    /// Wrong command line, script, selection or position (64).
    case usage(String)
    /// A selection that does not fit the document (64).
    case selection(SelectionError)
    /// An edit the model refused (64).
    case edit(EditError)
    /// A file could not be used, read or written (65, 66, 73, 77 for a password, by case).
    case engine(FileError)
    /// The session file is corrupt or of an unknown version (65).
    case sessionCorrupt(path: String, reason: String)
    /// No session where one is needed (66).
    case noSession(path: String)
    /// A document cannot be exported as it is: placeholders, empty (65).
    case notExportable(String)
    /// An output exists and --force was not given, or names a source (73).
    case outputExists(path: String)
    /// An output names a source: of the session, or (`direct`) the command's input file (73).
    case outputIsSource(path: String, direct: Bool = false)
    /// A session path that holds something other than a session, or an output
    /// that names the session's own files (73).
    case sessionPlace(path: String, reason: String)
    /// A source changed or vanished since it was imported (75).
    case sourceChanged(path: String, reason: String)
    /// Another process kept the session locked past the wait (75).
    case locked(path: String, seconds: Double)
    /// Some files of a `--keep-going` insert were skipped (3): the reasons, of `total` files.
    indirect case partialImport(skipped: [PDFEditError], total: Int)
    /// Cancelled by a signal (130 for SIGINT, 143 for SIGTERM).
    case cancelled(signal: Int32)
    /// Several inputs failed in one command: all are reported, the first decides the code.
    case several([PDFEditError])
    /// A line of a `run` script failed: the line's own error, with its code, named
    /// by script and line number (the same message the command line gives, prefixed).
    indirect case scriptLine(script: String, line: Int, error: PDFEditError)
    /// Direct mode: the edit refused on the input `file` (a selection out of its
    /// range, a position, a crop that leaves nothing…), named as every message
    /// about a file is, with the inner error's code.
    indirect case inFile(file: String, error: PDFEditError)

    /// The process exit code the command line ends with for this failure (docs/manual.md, Exit codes).
    package var exitCode: Int32 {
        switch self {
        case .usage, .selection, .edit: return 64
        case .engine(let error):
            switch error {
            case .missing: return 66
            case .cannotWrite: return 73
            case .password: return 77
            case .library: return 1
            case .outOfMemory: return 71
            default: return 65
            }
        case .sessionCorrupt, .notExportable: return 65
        case .noSession: return 66
        case .outputExists, .outputIsSource, .sessionPlace: return 73
        case .sourceChanged, .locked: return 75
        case .partialImport: return 3
        case .cancelled(let signal): return 128 + signal
        case .several(let errors): return errors.first?.exitCode ?? 1
        case .scriptLine(_, _, let error), .inFile(_, let error): return error.exitCode
        }
    }

    /// One line per problem, without the `pdfedit:` prefix (the CLI adds it).
    public var lines: [String] {
        switch self {
        case .several(let errors): return errors.flatMap(\.lines)
        case .partialImport(let skipped, _): return [description] + skipped.flatMap(\.lines)
        case .scriptLine(let script, let line, let error): return error.lines.map { "\(script):\(line): \($0)" }
        case .inFile(let file, let error): return error.lines.map { $0.hasPrefix(file + ":") ? $0 : "\(file): \($0)" }
        default: return [description]
        }
    }

    /// The message, as the command line prints it after `pdfedit: `.
    public var description: String {
        switch self {
        case .usage(let message): return message
        case .selection(let error): return String(describing: error)
        case .edit(let error): return String(describing: error)
        case .engine(let error): return error.description
        case .sessionCorrupt(let path, let reason): return "\(path): session file cannot be used: \(reason)"
        case .noSession(let path):
            return "\(path): no session here; start one with `pdfedit open FILE...`"
        case .notExportable(let reason): return reason
        case .outputExists(let path): return "\(path): exists; use --force to replace it"
        case .outputIsSource(let path, let direct):
            return direct
                ? "\(path): is the input file; refusing to write over it (--in-place replaces it)"
                : "\(path): is a source of this session; refusing to write over it"
        case .sessionPlace(let path, let reason): return "\(path): \(reason)"
        case .sourceChanged(let path, let reason): return "\(path): \(reason); use `pdfedit relink` to point at it again"
        case .locked(let path, let seconds):
            return "\(path): session locked by another pdfedit for \(Int(seconds)) s (PDFEDIT_LOCK_TIMEOUT)"
        case .partialImport(let skipped, let total): return "\(skipped.count) of \(total) items not imported"
        case .cancelled(let signal): return signal == 15 ? "terminated" : "interrupted"
        case .several(let errors): return errors.map(\.description).joined(separator: "\n")
        case .scriptLine, .inFile: return lines.joined(separator: "\n")
        }
    }
}
