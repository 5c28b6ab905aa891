internal import PDFEngine
import PageModel

/// Something a command got past and tells the user about. The CLI prints each as
/// one line, `pdfedit: warning: <description>`, in one place; `--json` outputs
/// carry the same text.
public enum Warning: Sendable, Equatable, CustomStringConvertible, Encodable {
    /// qpdf recovered from damage in `file` (as the user named it, or as the
    /// session stores it); `detail` is its first message, "(offset N): …".
    case recoveredDamage(file: String, detail: String)
    /// Another notice of an export about `file` ("output" for the output itself):
    /// data it dropped, permissions it overrode.
    case exportNotice(file: String, message: String)
    /// A page whose text could not be read (`find`, `list`, and the text they
    /// cache): the command went on without it.
    case unreadablePage(FileError)
    /// A page `show` or `thumbs` could not draw, shown as a marked empty frame.
    case pageShownAsFrame(file: String, page: Int, detail: String)
    /// `output` was written unencrypted although its pages come from the
    /// encrypted `encryptedSources` (a session export; `--encrypt` encrypts it).
    case writtenUnencrypted(output: String, encryptedSources: [String])
    /// The session's cache `folder` was not used (neither read nor written):
    /// `reason` says why (another user's, writable by others, a symbolic link).
    case cacheIgnored(folder: String, reason: String)
    /// `file`, which no one may write (mode 0444 and the like), is replaced
    /// because the command was told to (`--force`, `--in-place`), as `cp -f`
    /// replaces it: said, never silent.
    case replacingReadOnly(file: String)
    /// The digital `signatures` of `source` (fields and signers, as
    /// `DigitalSignature.shownName` words them) do not verify in `output`: it
    /// was not written as the source's signed bytes plus an appended update
    /// (`ExportSettings.keepSignatures` asks for that).
    case signaturesInvalidated(source: String, output: String, signatures: [String])

    /// The file the warning is about.
    public var file: String {
        switch self {
        case .recoveredDamage(let file, _), .exportNotice(let file, _), .pageShownAsFrame(let file, _, _): return file
        case .unreadablePage(let error): return error.file
        case .writtenUnencrypted(let output, _): return output
        case .cacheIgnored(let folder, _): return folder
        case .replacingReadOnly(let file): return file
        case .signaturesInvalidated(let source, _, _): return source
        }
    }

    /// The line printed after `pdfedit: warning: `, naming the file (and page).
    public var description: String {
        switch self {
        case .recoveredDamage(let file, let detail): return "\(file): damaged, recovered (\(detail))"
        case .exportNotice(let file, let message): return "\(file): \(message)"
        case .unreadablePage(let error): return error.description
        case .pageShownAsFrame(let file, let page, let detail):
            return "\(file): page \(page): \(detail); shown as an empty frame"
        case .writtenUnencrypted(let output, let sources):
            return "\(output): written unencrypted; its pages come from encrypted \(cappedList(sources))"
                + " (use --encrypt to encrypt it)"
        case .cacheIgnored(let folder, let reason):
            return "\(folder): cache not used: \(reason)"
        case .replacingReadOnly(let file):
            return "\(file): read-only file replaced, as asked"
        case .signaturesInvalidated(let source, let output, let signatures):
            let which = signatures.count == 1 ? "signature" : "signatures"
            let verb = signatures.count == 1 ? "does" : "do"
            return "\(source): \(which) \(signatures.joined(separator: ", ")) \(verb) not verify in \(output)"
                + " (--keep-signatures writes an edit that allows it as an appended update)"
        }
    }

    /// The warning of a file whose reading recovered from damage: its first
    /// recovery message (one warning per file), none when there was none.
    public static func damage(of file: String, messages: [String]) -> [Warning] {
        messages.prefix(1).map { .recoveredDamage(file: file, detail: $0) }
    }

    /// Keeps the first damage warning of each file (import and export both notice
    /// the same damage, under names that may differ: `./a.pdf`, `a.pdf`) and every
    /// other warning.
    static func oneDamageWarningPerFile(_ warnings: [Warning]) -> [Warning] {
        var seen: Set<String> = []
        return warnings.filter { warning in
            guard case .recoveredDamage(let file, _) = warning else { return true }
            return seen.insert(FileIdentity(of: file).description).inserted
        }
    }

    /// As text, like the messages it replaced (`--json` outputs keep their shape).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Warning {
    /// The kit's form of an engine export warning about the file shown as `file`.
    init(_ warning: ExportWarning, file: String) {
        switch warning.kind {
        case .recoveredDamage(let detail): self = .recoveredDamage(file: file, detail: detail)
        case .notice(let message): self = .exportNotice(file: file, message: message)
        }
    }
}
