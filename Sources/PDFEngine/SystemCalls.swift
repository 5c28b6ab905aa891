import Glibc

// The system calls pdfedit makes on paths, taking the path as pdfedit keeps it
// (`FileNames`: a name's bytes that are not UTF-8 are escaped in the String) and
// giving the kernel its bytes. Each has the name and arguments of the Glibc call
// with a `String` path; Swift prefers it to Glibc's (whose path is a pointer a
// String only converts to), so that code importing this module — the engine and
// the kit — cannot pass a file name to the kernel any other way: a name given as
// `o\xFF.pdf` is written as that, not as `o\xEF\xBF\xBD.pdf`.

package func open(_ path: String, _ flags: Int32) -> Int32 {
    FileNames.withCString(path) { Glibc.openat(AT_FDCWD, $0, flags) }
}

package func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    FileNames.withCString(path) { Glibc.openat(AT_FDCWD, $0, flags, mode) }
}

package func stat(_ path: String, _ buffer: UnsafeMutablePointer<stat>) -> Int32 {
    FileNames.withCString(path) { fstatat(AT_FDCWD, $0, buffer, 0) }
}

package func lstat(_ path: String, _ buffer: UnsafeMutablePointer<stat>) -> Int32 {
    FileNames.withCString(path) { fstatat(AT_FDCWD, $0, buffer, AT_SYMLINK_NOFOLLOW) }
}

@discardableResult
package func unlink(_ path: String) -> Int32 {
    FileNames.withCString(path) { unlinkat(AT_FDCWD, $0, 0) }
}

@discardableResult
package func rmdir(_ path: String) -> Int32 {
    FileNames.withCString(path) { unlinkat(AT_FDCWD, $0, AT_REMOVEDIR) }
}

@discardableResult
package func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
    FileNames.withCString(path) { mkdirat(AT_FDCWD, $0, mode) }
}

@discardableResult
package func rename(_ old: String, _ new: String) -> Int32 {
    FileNames.withCString(old) { old in FileNames.withCString(new) { new in renameat(AT_FDCWD, old, AT_FDCWD, new) } }
}

@discardableResult
package func access(_ path: String, _ mode: Int32) -> Int32 {
    FileNames.withCString(path) { faccessat(AT_FDCWD, $0, mode, 0) }
}

@discardableResult
package func chmod(_ path: String, _ mode: mode_t) -> Int32 {
    FileNames.withCString(path) { fchmodat(AT_FDCWD, $0, mode, 0) }
}

@discardableResult
package func chown(_ path: String, _ owner: uid_t, _ group: gid_t) -> Int32 {
    FileNames.withCString(path) { fchownat(AT_FDCWD, $0, owner, group, 0) }
}

/// `utime(path, nil)`: the file's times set to now.
@discardableResult
package func utime(_ path: String, _ times: UnsafePointer<utimbuf>?) -> Int32 {
    precondition(times == nil, "only utime(path, nil) is provided")
    return FileNames.withCString(path) { utimensat(AT_FDCWD, $0, nil, 0) }
}

package func opendir(_ path: String) -> OpaquePointer? {
    FileNames.withCString(path) { Glibc.opendir($0) }
}

package func realpath(_ path: String, _ resolved: UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    FileNames.withCString(path) { Glibc.realpath($0, resolved) }
}

package func fopen(_ path: String, _ mode: String) -> UnsafeMutablePointer<FILE>? {
    FileNames.withCString(path) { Glibc.fopen($0, mode) }
}

@discardableResult
package func mkfifo(_ path: String, _ mode: mode_t) -> Int32 {
    FileNames.withCString(path) { mkfifoat(AT_FDCWD, $0, mode) }
}

/// What Foundation's FileManager did on paths, on these calls (FileManager gives
/// the kernel a name's UTF-8, which an escaped byte is not).
package enum Files {
    /// Whether something is at `path` (through links, as `FileManager.fileExists`).
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` is a folder (through links); nil when nothing is there.
    package static func isFolder(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// Makes `path` and the folders above it that are missing (`mkdir -p`), each
    /// with `mode` less the umask. Nil, or the error of the call that failed.
    @discardableResult
    package static func makeFolders(_ path: String, mode: mode_t = 0o777) -> Errno? {
        if isFolder(path) == true { return nil }
        let parent = folderPart(of: path)
        if !parent.isEmpty, parent != path, isFolder(parent) != true, let failure = makeFolders(parent, mode: mode) {
            return failure
        }
        if mkdir(path, mode) == 0 { return nil }
        let failure = Errno.current
        return failure.rawValue == EEXIST && isFolder(path) == true ? nil : failure
    }

    /// The whole file at `path` (at most `limit` bytes: more is nil); nil when it
    /// cannot be read, with `errno` telling why.
    package static func contents(_ path: String, limit: Int = Int.max) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        switch FileHead.readToEnd(descriptor, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(.tooLarge):
            errno = EFBIG
            return nil
        case .failure(.readError(let code)):
            errno = code
            return nil
        }
    }

    /// Writes `bytes` to `path`, created or truncated (mode 0666 less the umask).
    package static func write(_ bytes: [UInt8], to path: String) -> Errno? {
        bytes.withUnsafeBytes { create(path, holding: $0, exclusive: false, mode: 0o666) }
    }

    /// Creates the file `path` holding `bytes`: a new one only when `exclusive`
    /// (O_EXCL), else created or truncated; `mode` less the umask; fsynced when
    /// `sync`. Nil, or the error of the call that failed; the file is then left
    /// (the caller removes it) unless `removeOnFailure`, which removes it when it
    /// was opened (never a file the call could not open).
    package static func create(
        _ path: String, holding bytes: UnsafeRawBufferPointer, exclusive: Bool, mode: mode_t, sync: Bool = false,
        removeOnFailure: Bool = false
    ) -> Errno? {
        let descriptor: Int32
        switch valueOrErrno({ open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), mode) }) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): return failure
        }
        var failure = writeAll(bytes, to: descriptor)
        if failure == nil, sync, case .failure(let error) = nothingOrErrno({ fsync(descriptor) }) { failure = error }
        if case .failure(let error) = nothingOrErrno({ close(descriptor) }), failure == nil, error != .interrupted {
            failure = error
        }
        if failure != nil, removeOnFailure { unlink(path) }
        return failure
    }

    /// Copies the file `source` to the new file `target` (0600: the caller gives
    /// it its mode). Nil, or the error of the call that failed (`target` may then
    /// be left: the caller removes it).
    package static func copy(_ source: String, to target: String) -> Errno? {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard input >= 0 else { return Errno.current }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { return Errno.current }
        let size = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var failure: Errno?
        while true {
            let count = read(input, buffer, size)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                failure = Errno.current
                break
            }
            if let error = writeAll(UnsafeRawBufferPointer(start: buffer, count: count), to: output) {
                failure = error
                break
            }
        }
        if close(output) != 0, failure == nil, errno != EINTR { failure = Errno.current }
        return failure
    }

    /// The target of the symbolic link at `path`, its bytes kept; nil for anything else.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = FileNames.withCString(path) { readlinkat(AT_FDCWD, $0, &buffer, buffer.count - 1) }
        guard count >= 0 else { return nil }
        return FileNames.string(buffer.prefix(count).map { UInt8(bitPattern: $0) })
    }

    /// The names in `folder` (without "." and ".."), their bytes kept; nil when it
    /// cannot be listed.
    package static func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { field in
                FileNames.string(UnsafeRawBufferPointer(rebasing: field.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `path` and, for a folder, everything in it (links are removed, not
    /// followed). Best effort: what cannot be removed stays.
    package static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            for name in names(in: path) ?? [] { removeTree(path + "/" + name) }
            _ = rmdir(path)
        } else {
            _ = unlink(path)
        }
    }

    /// Every path below `folder`, relative to it, folders included; links are not
    /// followed. Walked with a list of folders to visit, not by recursion.
    package static func subpaths(of folder: String) -> [String]? {
        guard isFolder(folder) == true else { return nil }
        var result: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? folder : folder + "/" + relative
            for name in names(in: absolute) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                result.append(child)
                var status = stat()
                if lstat(folder + "/" + child, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { pending.append(child) }
            }
        }
        return result
    }

    /// The folder part of a path, as text ("" for a bare name, "/" at the root).
    private static func folderPart(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
