import Foundation

/// Writes files so that their final name holds either the old content or the
/// complete new one: a temporary file in the same directory, fsync, rename, and an
/// fsync of the directory so the rename itself survives a crash.
public enum AtomicFile {
    /// A temporary name beside `path`: same directory (so rename is atomic), hidden,
    /// and marked with our pid so a later run can recognise and remove leftovers.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = ".\(url.lastPathComponent).pdfedit-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return (directory as NSString).appendingPathComponent(name)
    }

    /// `temporaryPath(for:)` of many paths, working out each directory once.
    public static func temporaryPaths(for paths: [String]) -> [String] {
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
    public static func removeStaleTemporaries(for paths: [String]) {
        var targets: [String: Set<String>] = [:]
        // String operations, not URL(fileURLWithPath:), which asks the file system
        // whether each path is a folder: a split's thousands of parts would cost
        // thousands of stat calls.
        for path in paths {
            let string = path as NSString
            let folder = string.deletingLastPathComponent
            targets[folder.isEmpty ? "." : folder, default: []].insert(string.lastPathComponent)
        }
        for (directory, names) in targets {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for entry in entries {
                guard let (target, pid) = parseTemporaryName(entry), names.contains(target), !isRunning(pid) else {
                    continue
                }
                unlink((directory as NSString).appendingPathComponent(entry))
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

    /// Writes `data` to `path` atomically.
    public static func write(_ data: Data, to path: String) throws(PDFEditError) {
        removeStaleTemporaries(for: [path])
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw cannotWrite(path, errno) }
        TemporaryFiles.shared.register(temporary)
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(temporary)
            TemporaryFiles.shared.unregister(temporary)
            throw cannotWrite(path, failure)
        }
        try commit(temporary, to: path)
    }

    /// Renames a complete temporary file into place and syncs the directory.
    public static func commit(_ temporary: String, to path: String) throws(PDFEditError) {
        defer { TemporaryFiles.shared.unregister(temporary) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw cannotWrite(path, code)
        }
        syncDirectory(of: path)
    }

    /// Renames complete temporary files into place, in order, then syncs each
    /// directory once (a split export renames thousands of files into one folder).
    /// A failed rename throws after syncing what was renamed before it.
    public static func commitAll(_ pairs: [(temporary: String, path: String)]) throws(PDFEditError) {
        var directories: [String] = []
        var synced: Set<String> = []
        defer {
            for directory in directories { syncDirectory(directory) }
        }
        for (temporary, path) in pairs {
            defer { TemporaryFiles.shared.unregister(temporary) }
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
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    static func cannotWrite(_ path: String, _ code: Int32) -> PDFEditError {
        .engine(.cannotWrite(file: path, reason: String(cString: strerror(code))))
    }
}

/// Temporary files this process has made and not yet renamed into place. A signal
/// handler removes them before exiting (see `Cancellation`).
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []

    public func register(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
        Cancellation.remember(path)
    }

    public func unregister(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
        Cancellation.forget(path)
    }

    public var all: [String] { lock.withLock { Array(paths) } }

    /// Removes every registered file. Called on the way out after a failure.
    public func removeAll() {
        for path in all {
            unlink(path)
            unregister(path)
        }
    }
}
