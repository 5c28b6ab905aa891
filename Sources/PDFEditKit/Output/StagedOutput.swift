#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// One file on its way to its final name — the one way pdfedit writes a file.
///
/// Staging names a temporary file beside the target (same folder, so the rename
/// is atomic; hidden; marked with our pid so a later run can recognise and remove
/// leftovers) and registers it for cancellation (`TemporaryFiles`), so Ctrl-C or
/// SIGTERM removes it. The caller (or `write`) fills the temporary; `commit`
/// gives it the final file's permissions and renames it into place, so the final
/// name holds either the old content or the complete new one; the folder is then
/// synced so that the rename survives a crash — once per folder for many files
/// (`commitAll`, `syncFolders`). A failure removes the temporary: nothing is left.
///
/// Checks that come before (not a source, `--force`, not a non-regular file, a
/// writable folder) are `OutputChecks`'.
struct StagedOutput {
    /// The name the file gets on commit.
    let path: String
    /// The file being written, beside `path`.
    let temporary: String

    /// Stages `path`. With `removingStale`, first removes what a dead pdfedit left
    /// beside it (`removeStaleTemporaries`).
    init(_ path: String, removingStale: Bool = false) {
        if removingStale { Self.removeStaleTemporaries(for: [path]) }
        self.init(path: path, temporary: Self.temporaryPath(for: path))
    }

    private init(path: String, temporary: String) {
        self.path = path
        self.temporary = temporary
        TemporaryFiles.shared.register(temporary)
    }

    /// Stages many files (a split's parts) after removing stale temporaries beside
    /// them, working out each folder once.
    static func staging(_ paths: [String]) -> [StagedOutput] {
        removeStaleTemporaries(for: paths)
        return zip(paths, temporaryPaths(for: paths)).map { StagedOutput(path: $0, temporary: $1) }
    }

    /// Writes `data` to `path` atomically, fsynced, with `permissions` (a session,
    /// the list of exports).
    static func replace(_ path: String, with data: Data, permissions: Permissions = .likeReplaced) throws(PDFEditError) {
        let staged = StagedOutput(path, removingStale: true)
        try staged.write(data, sync: true)
        try staged.commit(permissions: permissions)
    }

    /// Fills the temporary with `data` (fsynced when `sync`); on failure removes it
    /// and throws the error naming `path`.
    func write(_ data: Data, sync: Bool) throws(PDFEditError) {
        if let failure = Self.createTemporary(data, at: temporary, sync: sync) {
            discard()
            throw Self.cannotWrite(path, failure)
        }
    }

    /// Fills the temporary by copying `file`; on failure removes it.
    func copy(from file: String) throws(PDFEditError) {
        if let failure = Files.copy(file, to: temporary) {
            discard()
            throw Self.cannotWrite(path, failure)
        }
    }

    /// Removes the temporary and forgets it.
    func discard() {
        unlink(temporary)
        TemporaryFiles.shared.unregister(temporary)
    }

    /// Renames the complete temporary into place, first giving it `permissions`
    /// (it was made 0600, so nobody else could read it while it was written), then
    /// syncs the folder unless `syncFolder` is false (the caller then syncs the
    /// folders of many files once, `syncFolders`). A failed rename removes it.
    func commit(permissions: Permissions = .likeReplaced, syncFolder: Bool = true) throws(PDFEditError) {
        try rename(permissions: permissions)
        if syncFolder { Self.syncDirectory(Paths.directory(of: path)) }
    }

    private func rename(permissions: Permissions) throws(PDFEditError) {
        defer { TemporaryFiles.shared.unregister(temporary) }
        permissions.apply(to: temporary, replacing: path)
        if case .failure(let failure) = nothingOrErrno({ PDFEngine.rename(temporary, path) }) {
            unlink(temporary)
            throw Self.cannotWrite(path, failure)
        }
        TemporaryFiles.shared.adopt(path)
    }

    /// Renames complete temporaries into place, in order, then syncs each folder
    /// once (a split export renames thousands of files into one folder). A failed
    /// rename syncs what was renamed before it, removes every temporary left (the
    /// parts after it stay as they were) and throws.
    static func commitAll(_ outputs: [StagedOutput]) throws(PDFEditError) {
        var folders: [String] = []
        var seen: Set<String> = []
        defer { folders.forEach(syncDirectory) }
        for (index, output) in outputs.enumerated() {
            do throws(PDFEditError) {
                try output.rename(permissions: .likeReplaced)
            } catch {
                outputs[(index + 1)...].forEach { $0.discard() }
                throw error
            }
            let folder = Paths.quickDirectory(of: output.path)
            if seen.insert(folder).inserted { folders.append(folder) }
        }
    }

    /// Makes the renames of `files` durable: one fsync per folder.
    static func syncFolders(of files: [String]) {
        var synced = Set<FileIdentity>()
        for file in files where synced.insert(FileIdentity(of: Paths.quickDirectory(of: file))).inserted {
            syncDirectory(Paths.quickDirectory(of: file))
        }
    }

    // MARK: Temporary names

    /// A temporary name beside `path`: `.NAME.pdfedit-tmp-PID-N` in its folder,
    /// from the root. The folder is `path`'s as text (never with `..` folded),
    /// so that the kernel finds the same folder for both and the rename stays in it.
    static func temporaryPath(for path: String) -> String {
        let (directory, name) = Paths.quickDirectoryAndName(of: path)
        return Paths.join(Paths.absolute(directory), ".\(name)\(marker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// `temporaryPath(for:)` of many paths, working out each folder once.
    static func temporaryPaths(for paths: [String]) -> [String] {
        let pid = getpid()
        var directories: [String: String] = [:]
        return paths.map { path in
            let (directory, name) = Paths.quickDirectoryAndName(of: path)
            let absolute: String
            if let known = directories[directory] {
                absolute = known
            } else {
                absolute = Paths.absolute(directory)
                directories[directory] = absolute
            }
            return Paths.join(absolute, ".\(name)\(marker)\(pid)-\(UInt32.random(in: 0...UInt32.max))")
        }
    }

    /// The marker between the target's name and the owner's pid in a temporary name.
    static let marker = ".pdfedit-tmp-"

    /// Removes what `temporaryPath(for:)` left beside these targets when its process
    /// died before renaming or removing it (SIGKILL, a power cut): hidden files
    /// `.NAME.pdfedit-tmp-PID-N` whose NAME is one of the targets' and whose PID no
    /// longer exists. A live owner's file — another pdfedit writing the same target
    /// right now, or this process — is left alone, and so is any other file.
    /// Best effort: a folder that cannot be listed is skipped.
    static func removeStaleTemporaries(for paths: [String]) {
        var targets: [String: Set<String>] = [:]
        // String operations, not URL(fileURLWithPath:), which asks the file system
        // whether each path is a folder: a split's thousands of parts would cost
        // thousands of stat calls.
        for path in paths {
            let (directory, name) = Paths.quickDirectoryAndName(of: path)
            targets[directory, default: []].insert(name)
        }
        for (directory, names) in targets {
            guard let entries = Paths.names(in: directory, where: Self.mayBeTemporaryName) else { continue }
            for entry in entries {
                guard let (target, pid) = parseTemporaryName(entry), names.contains(target), !isRunning(pid) else {
                    continue
                }
                unlink(Paths.join(directory, entry))
            }
        }
    }

    /// Whether a name's bytes start with "." and hold `marker`: the names
    /// `parseTemporaryName` may accept, found without making strings of the rest.
    private static func mayBeTemporaryName(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.first == UInt8(ascii: ".") && bytes.dropFirst().firstRange(of: markerBytes) != nil
    }

    private static let markerBytes = Array(marker.utf8)

    /// `.NAME.pdfedit-tmp-PID-N` → (NAME, PID); nil for any other name.
    static func parseTemporaryName(_ name: String) -> (target: String, pid: pid_t)? {
        guard name.hasPrefix("."), let found = name.ranges(of: marker).last else { return nil }
        let target = String(name[name.index(after: name.startIndex)..<found.lowerBound])
        let suffix = name[found.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard !target.isEmpty, suffix.count == 2, suffix.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let pid = pid_t(suffix[0]), pid > 0, UInt32(suffix[1]) != nil
        else { return nil }
        return (target, pid)
    }

    /// Whether process `pid` exists (`kill(pid, 0)`; EPERM means it exists but is
    /// someone else's, so it counts as running).
    static func isRunning(_ pid: pid_t) -> Bool {
        if pid == getpid() { return true }
        if case .failure(let failure) = nothingOrErrno({ kill(pid, 0) }) { return failure != .noSuchProcess }
        return true
    }

    // MARK: System calls

    /// Creates the new file `temporary` (mode 0600, nobody else may read it) holding
    /// `data`, fsynced when `sync`. Returns nil, or the error of the call that
    /// failed (the file may then be left: the caller removes it).
    static func createTemporary(_ data: Data, at temporary: String, sync: Bool) -> Errno? {
        data.withUnsafeBytes { Files.create(temporary, holding: $0, exclusive: true, mode: 0o600, sync: sync) }
    }

    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    static func cannotWrite(_ path: String, _ failure: Errno) -> PDFEditError {
        if failure.rawValue == ENOMEM { return .engine(.outOfMemory(file: path)) }
        return .engine(.cannotWrite(file: path, reason: failure.description))
    }
}

/// The mode (and owner) a file gets when its temporary is renamed into place.
enum Permissions: Sendable {
    /// Those of the file it replaces (owner and group where this process may set
    /// them), so `--in-place` or `--force` never widens nor narrows who may read
    /// it; a new file gets 0666 less the umask, as `creat(2)` would give it.
    case likeReplaced
    /// 0600 whatever was there: cache entries, which hold what was read from sources.
    case privateFile

    func apply(to temporary: String, replacing path: String) {
        switch self {
        case .privateFile:
            chmod(temporary, 0o600)
        case .likeReplaced:
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                chmod(temporary, 0o666 & ~Self.processUmask)
                return
            }
            // Only root may give a file away; a member of the group may still set it.
            if chown(temporary, status.st_uid, status.st_gid) != 0 {
                chown(temporary, uid_t.max, status.st_gid)
            }
            // After chown, which may clear the set-id bits.
            chmod(temporary, status.st_mode & 0o7777)
        }
    }

    /// The process's umask, read without changing it (`umask(2)` can only be read
    /// by setting it, which would race with other threads creating files).
    static let processUmask: mode_t = {
        if let status = Files.contents("/proc/self/status", limit: 1 << 20).map({ String(decoding: $0, as: UTF8.self) }),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst("Umask:".count).trimmingSpaces(), radix: 8)
        {
            return value
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}
