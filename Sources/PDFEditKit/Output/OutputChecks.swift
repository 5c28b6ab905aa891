#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The checks every output passes before anything is written (export, split
/// parts, `show`'s sheets, `thumbs`' pictures), in this order:
///
/// 1. not one of the session's sources (73), unless it is the one `--in-place`
///    may replace;
/// 2. not one of the session's own files (`SessionStore.ownFiles`, 73);
/// 3. nothing but a regular file (or a link to one) may stand there — a folder,
///    a device, a FIFO, a socket is refused (73), `--force` or not;
/// 4. an existing file is replaced only with `--force` or when it is one of the
///    session's previous exports (73);
/// 5. its folder is writable (73), checked once per folder.
///
/// Paths are compared standardised (`Paths.standardised`).
struct OutputChecks {
    private let force: Bool
    private let replaceable: Set<String>
    private let sources: Set<String>
    private let allowedSource: String?
    private let protected: Set<String>
    private let direct: Bool
    private var writableFolders: Set<String> = []

    /// - Parameters:
    ///   - sources: the sources' absolute paths.
    ///   - protected: files no output may replace, `--force` or not.
    ///   - replaceable: standardised paths that may be replaced without `--force`.
    ///   - allowedSource: the one source that may be replaced (`--in-place`).
    ///   - direct: the sources are the command's input files (what a refusal says).
    init(
        sources: [String], protected: [String], force: Bool, replaceable: Set<String> = [],
        allowedSource: String? = nil, direct: Bool = false
    ) {
        self.force = force
        self.replaceable = replaceable
        self.sources = Set(sources.map(Paths.standardised))
        self.allowedSource = allowedSource.map(Paths.standardised)
        self.protected = Set(protected.map(Paths.standardised))
        self.direct = direct
    }

    /// Checks `output`; `standard` is its standardised path when the caller has it.
    mutating func check(_ output: String, standard: String? = nil) throws(PDFEditError) {
        let target = standard ?? Paths.standardised(output)
        if sources.contains(target) && target != allowedSource {
            throw PDFEditError.outputIsSource(path: output, direct: direct)
        }
        if protected.contains(target) {
            throw PDFEditError.sessionPlace(path: output, reason: "is a file of the session; refusing to write over it")
        }
        if try Self.existing(output), !force && !replaceable.contains(target) {
            throw PDFEditError.outputExists(path: output)
        }
        let folder = Paths.quickFolder(of: target)
        if writableFolders.contains(folder) { return }
        guard Glibc.access(folder, W_OK) == 0 else {
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
