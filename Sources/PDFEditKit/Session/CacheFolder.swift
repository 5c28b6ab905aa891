#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
package import PDFEngine
import Synchronization
import PageModel

/// The cache folder as files: private folders, trust, pruning and the size cap.
///
/// What is cached holds what was read from sources (page texts, rendered pages),
/// so every folder of it is made 0700 and every file 0600 (`Permissions.privateFile`).
/// What is read from it decides what commands do (`remove empty`, `text:`), so a
/// cache folder is used only when it is this user's own (`trusted`): not a
/// symbolic link, owned by the user, and no one else may write in it (one made
/// by an older pdfedit is made private); and an entry is used only when it is a
/// regular file of this user that no one else may write (`isTrustedEntry`).
/// Another user who planted a cache beside a shared session is ignored, with a
/// warning.
/// The cache may not grow without bound: entries of sources no longer in the
/// session are removed when the session drops them, and past the cap
/// (`PDFEDIT_CACHE_MAX_MB`, default 256 MB) the least recently written files go first.
package enum CacheFolder {
    package static let defaultCapMegabytes = 256
    package static let capVariable = "PDFEDIT_CACHE_MAX_MB"
    /// Set to 1 to cache what is read from encrypted sources (off by default: the
    /// cache would hold their pages and text unencrypted).
    package static let encryptedVariable = "PDFEDIT_CACHE_ENCRYPTED"

    /// The cap in bytes: `PDFEDIT_CACHE_MAX_MB` when it is a whole number (0: keep
    /// nothing), else the default.
    package static func capBytes(environment: EnvironmentVariables = .process) -> Int64 {
        var megabytes = Int64(defaultCapMegabytes)
        if let text = environment[capVariable], let value = Int64(text.trimmingSpaces()),
            value >= 0, value <= Int64.max >> 20
        {
            megabytes = value
        }
        return megabytes << 20
    }

    /// Whether the user asked for encrypted sources to be cached.
    package static func cachesEncrypted(environment: EnvironmentVariables = .process) -> Bool {
        environment[encryptedVariable] == "1"
    }

    /// Creates `path`, a folder inside the cache folder `root` (or `root` itself),
    /// and any missing folders between them, each new one 0700. Every folder from
    /// `root` down must be this user's own (`ownFolder`), whoever made it first
    /// (another process may make one at the same moment): false otherwise, and
    /// nothing is written there.
    @discardableResult
    package static func make(_ path: String, root: String) -> Bool {
        if ownFolder(path) { return true }
        var status = stat()
        if lstat(path, &status) == 0 { return false }  // something else stands there
        if path != root {
            let parent = Paths.folder(of: path)
            guard !parent.isEmpty, parent != path, make(parent, root: root) else { return false }
        }
        if case .failure(let failure) = nothingOrErrno({ mkdir(path, 0o700) }), failure != Errno(rawValue: EEXIST) {
            return false
        }
        return ownFolder(path)
    }

    /// `make`, as an error naming the folder (for caches an export cannot do without).
    static func require(_ path: String, root: String) throws(PDFEditError) {
        guard make(path, root: root) else {
            throw PDFEditError.engine(.cannotWrite(file: path, reason: "cannot create the cache folder"))
        }
    }

    /// Whether `path` is a folder (itself, not a symbolic link to one) of this
    /// user that nobody else may write in. One of this user's that others may
    /// write in (an older pdfedit made it with the umask's mode) is made private
    /// (0700) first: what another user may have put in it meanwhile is theirs,
    /// and `isTrustedEntry` refuses it.
    static func ownFolder(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
            return false
        }
        if status.st_mode & 0o077 != 0 { return chmod(path, 0o700) == 0 }
        return true
    }

    /// The cache folder `directory` when this command may use it — nothing there
    /// yet (it is made private when first written, `make`), or this user's own
    /// folder (`ownFolder`) — else nil, with a warning saying why: a symbolic link
    /// (never followed), another user's folder, anything but a folder.
    package static func trusted(_ directory: String) -> String? {
        var status = stat()
        guard lstat(directory, &status) == 0 else { return directory }
        let reason: String
        if status.st_mode & S_IFMT == S_IFLNK {
            reason = "it is a symbolic link"
        } else if status.st_mode & S_IFMT != S_IFDIR {
            reason = "it is not a folder"
        } else if status.st_uid != geteuid() {
            reason = "it belongs to another user (user id \(status.st_uid))"
        } else if ownFolder(directory) {
            return directory
        } else {
            reason = "it cannot be made private"
        }
        WarningChannel.report(.cacheIgnored(folder: directory, reason: reason))
        return nil
    }

    /// Whether the cache entry at `path` may be used: a regular file (not a
    /// symbolic link) of this user that nobody else may write. Anything else was
    /// not written by pdfedit for this user and is passed over (and re-made).
    static func isTrustedEntry(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && Self.isTrusted(status)
    }

    private static func isTrusted(_ status: stat) -> Bool {
        status.st_mode & S_IFMT == S_IFREG && status.st_uid == geteuid() && status.st_mode & 0o022 == 0
    }

    /// The bytes of a trusted cache entry (`isTrustedEntry`, checked on the open
    /// file, which is never a link), at most `limit` of them; nil for any other.
    static func readEntry(_ path: String, limit: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, isTrusted(status), Int(status.st_size) <= limit else { return nil }
        return FileHead.read(descriptor: descriptor, upTo: Int(status.st_size)).map { Data($0) }
    }

    /// Removes the entries of sources whose SHA-256 is not in `keeping`. Best
    /// effort: what cannot be removed stays.
    package static func prune(_ directory: String, keeping: Set<String>) {
        guard ownFolder(directory) else { return }
        func drop(_ folder: String, key: (String) -> String) {
            for name in Files.names(in: folder) ?? [] where !name.hasPrefix(".") && !keeping.contains(key(name)) {
                Files.removeTree(Paths.join(folder, name))
            }
        }
        // pages/<sha256>.json, thumbs/v1/<sha256>/, images/<sha256>[-WxH].pdf
        drop(Paths.join(directory, "pages")) { String($0.prefix(64)) }
        drop(Paths.join(directory, "thumbs/v1")) { $0 }
        drop(Paths.join(directory, "images")) { String($0.prefix(64)) }
    }

    /// Records that this process added an entry to a cache, which `enforceCapIfWritten` then checks.
    static func noteWritten() { written.store(true, ordering: .relaxed) }

    private static let written = Atomic<Bool>(false)

    /// `enforceCap` when this process added to a cache: a command that only read
    /// it does not walk the folder.
    static func enforceCapIfWritten(_ directory: String) {
        if written.load(ordering: .relaxed) { enforceCap(directory) }
    }

    /// Removes the least recently written files until the cache holds at most the cap.
    package static func enforceCap(_ directory: String, cap: Int64 = capBytes()) {
        guard let all = Files.subpaths(of: directory) else { return }
        var files: [(path: String, size: Int64, time: Int)] = []
        var total: Int64 = 0
        for relative in all {
            // Hidden files are temporaries another process is about to rename.
            guard !Paths.name(of: relative).hasPrefix(".") else { continue }
            let path = Paths.join(directory, relative)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            let size = Int64(status.st_size)
            files.append((path, size, status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec))
            total += size
        }
        guard total > cap else { return }
        for file in files.sorted(by: { $0.time < $1.time }) {
            if total <= cap { break }
            if unlink(file.path) == 0 { total -= file.size }
        }
    }
}
