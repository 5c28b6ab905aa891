import Foundation

/// Writes files so that their final name holds either the old content or the
/// complete new one: a temporary file in the same directory, fsync, rename, and an
/// fsync of the directory so the rename itself survives a crash.
package enum AtomicFile {
    /// A temporary name beside `path`: same directory (so rename is atomic), hidden,
    /// and marked with our pid so a later run can recognise and remove leftovers.
    package static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = ".\(url.lastPathComponent).pdfedit-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return (directory as NSString).appendingPathComponent(name)
    }

    /// `temporaryPath(for:)` of many paths, working out each directory once.
    package static func temporaryPaths(for paths: [String]) -> [String] {
        let pid = getpid()
        var directories: [Substring: String] = [:]
        return paths.map { path in
            // The name as URL gives it, the directory worked out by URL once per
            // directory (it makes a relative path absolute).
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), path.utf8.last != UInt8(ascii: "/")
            else { return temporaryPath(for: path) }
            let name = path[path.utf8.index(after: slash)...]
            guard name != "." && name != ".." else { return temporaryPath(for: path) }
            let key = path[..<slash]
            let directory: String
            if let known = directories[key] {
                directory = known
            } else {
                directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                directories[key] = directory
            }
            return (directory == "/" ? "/" : directory + "/") + ".\(name).pdfedit-tmp-\(pid)-\(UInt32.random(in: 0...UInt32.max))"
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
    package static func removeStaleTemporaries(for paths: [String]) {
        var targets: [String: Set<String>] = [:]
        // String operations, not URL(fileURLWithPath:), which asks the file system
        // whether each path is a folder: a split's thousands of parts would cost
        // thousands of stat calls.
        for path in paths {
            targets[PathText.directory(of: path), default: []].insert(PathText.name(of: path))
        }
        for (directory, names) in targets {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for entry in entries {
                guard let (target, pid) = parseTemporaryName(entry), names.contains(target), !isRunning(pid) else {
                    continue
                }
                unlink(PathText.join(directory, entry))
            }
        }
    }

    /// `.NAME.pdfedit-tmp-PID-N` → (NAME, PID); nil for any other name.
    static func parseTemporaryName(_ name: String) -> (target: String, pid: pid_t)? {
        guard name.hasPrefix("."), let found = name.range(of: marker, options: .backwards) else { return nil }
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
        pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Writes `data` to `path` atomically; the file gets `permissions` (see `commit`).
    package static func write(
        _ data: Data, to path: String, permissions: Permissions = .likeReplaced
    ) throws(PDFEditError) {
        removeStaleTemporaries(for: [path])
        let temporary = temporaryPath(for: path)
        TemporaryFiles.shared.register(temporary)
        let failure = createTemporary(data, at: temporary, sync: true)
        if failure != 0 {
            unlink(temporary)
            TemporaryFiles.shared.unregister(temporary)
            throw cannotWrite(path, failure)
        }
        try commit(temporary, to: path, permissions: permissions)
    }

    /// Creates the new file `temporary` (mode 0600, nobody else may read it) holding
    /// `data`, fsynced when `sync`. Returns 0, or the errno of the call that failed
    /// (the file may then be left: the caller removes it).
    static func createTemporary(_ data: Data, at temporary: String, sync: Bool) -> Int32 {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, sync, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0, errno != EINTR { failure = errno }
        return failure
    }

    /// Renames a complete temporary file into place and syncs the directory. The
    /// temporary (made 0600, so nobody else can read it while it is written) first
    /// gets the mode and owner the final file should have (`permissions`).
    package static func commit(
        _ temporary: String, to path: String, permissions: Permissions = .likeReplaced
    ) throws(PDFEditError) {
        defer { TemporaryFiles.shared.unregister(temporary) }
        permissions.apply(to: temporary, replacing: path)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw cannotWrite(path, code)
        }
        TemporaryFiles.shared.adopt(path)
        syncDirectory(of: path)
    }

    /// Renames complete temporary files into place, in order, then syncs each
    /// directory once (a split export renames thousands of files into one folder).
    /// A failed rename throws after syncing what was renamed before it.
    package static func commitAll(_ pairs: [(temporary: String, path: String)]) throws(PDFEditError) {
        var directories: [String] = []
        var synced: Set<String> = []
        defer {
            for directory in directories { syncDirectory(directory) }
        }
        for (temporary, path) in pairs {
            defer { TemporaryFiles.shared.unregister(temporary) }
            Permissions.likeReplaced.apply(to: temporary, replacing: path)
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw cannotWrite(path, code)
            }
            let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            if synced.insert(directory).inserted { directories.append(directory.isEmpty ? "/" : directory) }
        }
    }

    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    static func syncDirectory(of path: String) {
        syncDirectory(PathText.directory(of: path))
    }

    static func cannotWrite(_ path: String, _ code: Int32) -> PDFEditError {
        .engine(.cannotWrite(file: path, reason: String(cString: strerror(code))))
    }
}

/// The mode (and owner) a file gets when its temporary is renamed into place.
package enum Permissions: Sendable {
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
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        {
            return value
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}

/// Temporary files this process has made and not yet renamed into place, and its
/// temporary folders (with whatever is renamed into them). A signal handler
/// removes them before exiting (see `Cancellation`).
package final class TemporaryFiles: @unchecked Sendable {
    package static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var folders: [String] = []

    /// A folder of this process's own, removed with its contents by `removeFolder`,
    /// by `removeAll`, or by the signal handler.
    package func registerFolder(_ path: String) {
        lock.withLock { folders.append(path) }
        Cancellation.rememberFolder(path)
    }

    /// Removes a folder of `registerFolder` and everything in it.
    package func removeFolder(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        let (files, subfolders) = lock.withLock {
            let inside = { (candidate: String) in candidate.hasPrefix(path + "/") }
            let subfolders = folders.filter(inside)
            folders.removeAll { $0 == path || inside($0) }
            return (paths.filter(inside), subfolders)
        }
        files.forEach(unregister)
        for folder in subfolders + [path] { Cancellation.forgetFolder(folder) }
    }

    /// A file renamed into one of the registered folders stays registered, and the
    /// folders between (`images/`) are registered too, so that the signal handler
    /// can empty the folder and remove it.
    func adopt(_ path: String) {
        guard let folder = lock.withLock({ folders.first { path.hasPrefix($0 + "/") } }) else { return }
        register(path)
        var between: [String] = []
        var current = PathText.folder(of: path)
        while current.hasPrefix(folder + "/") {
            between.append(current)
            current = PathText.folder(of: current)
        }
        for subfolder in between.reversed() where !lock.withLock({ folders.contains(subfolder) }) {
            lock.withLock { folders.append(subfolder) }
            Cancellation.rememberFolder(subfolder)
        }
    }

    package func register(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
        Cancellation.remember(path)
    }

    package func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
        Cancellation.forget(path)
    }

    package var all: [String] { lock.withLock { Array(paths) } }

    /// Removes every registered file and folder. Called on the way out after a failure.
    package func removeAll() {
        for path in all {
            unlink(path)
            unregister(path)
        }
        while let folder = lock.withLock({ folders.first }) { removeFolder(folder) }
    }
}
