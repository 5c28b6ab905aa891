#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
package import PDFEngine
import Synchronization

/// The cache folder as files: private folders, pruning and the size cap.
///
/// What is cached holds what was read from sources (page texts, rendered pages),
/// so every folder of it is made 0700 and every file 0600 (`Permissions.privateFile`).
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

    /// Creates `path` and any missing parent folders, each new one 0700.
    @discardableResult
    package static func make(_ path: String) -> Bool {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return isDirectory }
        let parent = Paths.folder(of: path)
        if !parent.isEmpty, parent != path, !make(parent) { return false }
        switch nothingOrErrno({ mkdir(path, 0o700) }) {
        case .success: return true
        case .failure(let failure): return failure == Errno(rawValue: EEXIST)
        }
    }

    /// `make`, as an error naming the folder (for caches an export cannot do without).
    static func require(_ path: String) throws(PDFEditError) {
        guard make(path) else {
            throw PDFEditError.engine(.cannotWrite(file: path, reason: "cannot create the cache folder"))
        }
    }

    /// Makes an existing cache folder private (0700): one made by an older pdfedit
    /// has the umask's mode. Nothing happens when there is no cache yet.
    static func tighten(_ directory: String) {
        var status = stat()
        if lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_mode & 0o077 != 0 {
            chmod(directory, 0o700)
        }
    }

    /// Removes the entries of sources whose SHA-256 is not in `keeping`. Best
    /// effort: what cannot be removed stays.
    package static func prune(_ directory: String, keeping: Set<String>) {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: directory) else { return }
        tighten(directory)
        func drop(_ folder: String, key: (String) -> String) {
            for name in (try? fileManager.contentsOfDirectory(atPath: folder)) ?? []
            where !name.hasPrefix(".") && !keeping.contains(key(name)) {
                try? fileManager.removeItem(atPath: Paths.join(folder, name))
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
        guard let all = try? FileManager.default.subpathsOfDirectory(atPath: directory) else { return }
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
