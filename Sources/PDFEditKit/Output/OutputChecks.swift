#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// The checks every output passes before anything is written (export, split
/// parts, `show`'s sheets, `thumbs`' pictures, `outline export`), in this order:
///
/// 1. not one of the session's sources (73), unless it is the one `--in-place`
///    may replace;
/// 2. not one of the session's own files (`SessionStore.ownFiles`, 73);
/// 3. not a file this command reads (a script, a password file: `ReadFiles`, 73);
/// 4. nothing but a regular file (or a link to one) may stand there — a folder,
///    a device, a FIFO, a socket is refused (73), `--force` or not;
/// 5. an existing file is replaced only with `--force` or when it is one of the
///    session's previous exports, unchanged since (`ExportsList`, 73);
/// 6. its folder is writable (73), checked once per folder.
///
/// Files are compared by what they are (`FileIdentity`: device and inode), never
/// by the text of their paths, so `..` and symbolic links cannot make an output
/// land on an input. 1–3 hold `--force` or not.
struct OutputChecks {
    private let force: Bool
    private let replaceable: Set<WrittenFile>
    private let sources: Set<FileIdentity>
    private let allowedSource: FileIdentity?
    private let protected: Set<FileIdentity>
    private let read: [FileIdentity: String]
    private let direct: Bool
    private var writableFolders: Set<String> = []

    /// - Parameters:
    ///   - sources: the sources' paths.
    ///   - protected: files no output may replace, `--force` or not.
    ///   - replaceable: files that may be replaced without `--force`, as they were written.
    ///   - allowedSource: the one source that may be replaced (`--in-place`).
    ///   - direct: the sources are the command's input files (what a refusal says).
    ///   - alsoRead: files the write will read besides the sources (a text stamp's
    ///     font file), with what each is; refused as `ReadFiles`' are.
    init(
        sources: [String], protected: [String], force: Bool, replaceable: Set<WrittenFile> = [],
        allowedSource: String? = nil, direct: Bool = false, alsoRead: [(path: String, role: String)] = []
    ) {
        self.force = force
        self.replaceable = replaceable
        self.sources = Set(sources.map(FileIdentity.init(of:)))
        self.allowedSource = allowedSource.map(FileIdentity.init(of:))
        self.protected = Set(protected.map(FileIdentity.init(of:)))
        var read = ReadFiles.all
        for file in alsoRead { read[FileIdentity(of: file.path)] = read[FileIdentity(of: file.path)] ?? file.role }
        self.read = read
        self.direct = direct
    }

    /// Checks `output`; `identity` is its `FileIdentity` when the caller has it.
    mutating func check(_ output: String, identity: FileIdentity? = nil) throws(PDFEditError) {
        let target = identity ?? FileIdentity(of: output)
        if sources.contains(target) && target != allowedSource {
            throw PDFEditError.outputIsSource(path: output, direct: direct)
        }
        if protected.contains(target) {
            throw PDFEditError.sessionPlace(path: output, reason: "is a file of the session; refusing to write over it")
        }
        if let role = read[target] {
            throw PDFEditError.sessionPlace(
                path: output, reason: "is \(role) this command reads; refusing to write over it, --force or not")
        }
        if try Self.existing(output), !force, WrittenFile(at: output).map({ !replaceable.contains($0) }) ?? true {
            throw PDFEditError.outputExists(path: output)
        }
        if Self.isReadOnly(output) { WarningChannel.report(.replacingReadOnly(file: output)) }
        let folder = Paths.directory(of: output)
        if writableFolders.contains(folder) { return }
        guard access(folder, W_OK) == 0 else {
            throw PDFEditError.engine(.cannotWrite(file: output, reason: "cannot write in \(folder)"))
        }
        writableFolders.insert(folder)
    }

    /// Whether something stands where an output goes. Only a regular file (itself or
    /// behind a symbolic link) may ever be replaced, and only with `--force`: a
    /// folder, a device, a FIFO or a socket is refused (73), `--force` or not — a
    /// rename over `/dev/null` would replace the device node itself.
    static func existing(_ path: String) throws(PDFEditError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else {
            // Nothing there, or a dangling link (the rename replaces the link).
            return lstat(path, &status) == 0
        }
        guard let kind = nonRegularKind(status.st_mode) else { return true }
        throw PDFEditError.engine(.cannotWrite(file: path, reason: "is \(kind), not a regular file; refusing to replace it"))
    }

    /// Whether `path` is a regular file no one may write (no write bit at all):
    /// by mode, not `access`, which says yes to root whatever the mode.
    static func isReadOnly(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o222 == 0
    }

    /// What a file of `mode` is, for a message ("a folder", "a FIFO"…), or nil for a
    /// regular file: the one naming of the outputs' and the session path's checks.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }
}
