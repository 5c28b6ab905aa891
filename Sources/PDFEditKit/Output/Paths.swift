#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine

/// The path text rules in one place: folder and name of a path, its stem, joining,
/// and the standardised form outputs and sources are compared in.
///
/// Folder and name are worked out from the text alone, not with
/// `NSString.deletingLastPathComponent`: swift-corelibs-foundation traps (SIGILL)
/// on a name without a folder ("X", "X/", "."), and any name the
/// file system accepts must work as an output, a session or an input. For every
/// path without "//" where `NSString` does not trap, `folder`, `name` and `stem`
/// give what its `deletingLastPathComponent`, `lastPathComponent` and
/// `lastPathComponent.deletingPathExtension` give (`PathsTests` checks it); a path
/// with "//" keeps its text (`NSString` folds "//" into "/", and traps on some).
package enum Paths {
    /// The folder part as `NSString.deletingLastPathComponent` gives it: "" for a
    /// bare name, "/" for a name directly under the root (and for the root).
    static func folder(of path: String) -> String {
        let trimmed = trailingSlashesRemoved(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trailingSlashesRemoved(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The folder to list, open or sync for a file: `folder(of:)`, "." for a bare name.
    static func directory(of path: String) -> String {
        directory(inFolder: folder(of: path))
    }

    /// The folder to list for a `folder(of:)`: "." for a bare name's "".
    private static func directory(inFolder folder: String) -> String {
        folder.isEmpty ? "." : folder
    }

    /// The last component, trailing slashes ignored ("/" for the root).
    package static func name(of path: String) -> String {
        let trimmed = trailingSlashesRemoved(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of a path's name, as `NSString.pathExtension` gives it: what
    /// follows the last dot ("a/b.c.PNG" → "PNG"), "" for none, a leading dot
    /// (".profile") and "..".
    static func pathExtension(of path: String) -> String {
        let name = name(of: path)
        let stem = extensionRemoved(name)
        return stem == name ? "" : String(name.dropFirst(stem.count + 1))
    }

    /// A file's name without folder and extension ("a/b.c.pdf" → "b.c").
    static func stem(of path: String) -> String {
        extensionRemoved(name(of: path))
    }

    /// `name` without its last extension, as `NSString.deletingPathExtension` gives
    /// it for a name without "/": from its last dot on ("a.b.pdf" → "a.b", "a." →
    /// "a"), except a dot that starts the name (".profile") and the name "..".
    static func extensionRemoved(_ name: String) -> String {
        guard name != "..", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `name` inside `folder` ("" gives the bare name; "." gives "./name").
    static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `folder` as the start of a path inside it: runs of "/" folded into one and
    /// one "/" at the end ("parts//a" gives "parts/a/", "/" gives "/"); "" stays "".
    static func folderPrefix(_ folder: String) -> String {
        guard !folder.isEmpty else { return "" }
        let inside = folder.split(separator: "/").joined(separator: "/")
        return (folder.hasPrefix("/") ? "/" : "") + inside + (inside.isEmpty ? "" : "/")
    }

    /// The names in `folder` whose bytes `keep` accepts; nil when the folder
    /// cannot be listed. Read with readdir, and only the kept names made into
    /// strings: an output or temporary folder may hold thousands of other files,
    /// and every command that writes looks there (FileManager's listing of 2,600
    /// names cost 3 ms of a 16 ms one-page edit).
    static func names(in folder: String, where keep: (UnsafeRawBufferPointer) -> Bool) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name: String? = withUnsafeBytes(of: &entry.pointee.d_name) { field in
                let bytes = UnsafeRawBufferPointer(rebasing: field.prefix { $0 != 0 })
                guard keep(bytes) else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            }
            if let name, name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The folder for temporary files, as `NSTemporaryDirectory` gives it: `TMPDIR`
    /// when set and not empty, else /tmp.
    static var temporaryFolder: String {
        if let folder = EnvironmentVariables.process["TMPDIR"], !folder.isEmpty { return folder }
        return "/tmp"
    }

    /// The absolute path, standardised and with every symbolic link resolved: the
    /// form in which an output, a source, a session file and a password's FILE are
    /// compared.
    static func standardised(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The absolute, standardised `path`, or the file its chain of symbolic links
    /// ends at (which need not exist): where writing "through" the link goes.
    static func followingLinks(_ path: String) -> String {
        var current = URL(fileURLWithPath: path).standardizedFileURL.path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { break }
            let joined = target.hasPrefix("/") ? target : join(folder(of: current), target)
            current = URL(fileURLWithPath: joined).standardizedFileURL.path
        }
        return current
    }

    /// (folder, name) of a plain path — without "//", without a trailing "/", whose
    /// name is not "." or ".." — by looking at its bytes (Foundation's path
    /// functions cost tens of thousands of instructions a call, and a split export
    /// asks for thousands); nil for any other path. Agrees with `folder(of:)` and
    /// `name(of:)` where it answers.
    static func plainSplit(_ path: String) -> (folder: String, name: String)? {
        let bytes = path.utf8
        guard let last = bytes.last, last != UInt8(ascii: "/") else { return nil }
        var previous: UInt8 = 0
        var slash: String.Index? = nil
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") {
                if previous == UInt8(ascii: "/") { return nil }
                slash = index
            }
            previous = byte
            index = bytes.index(after: index)
        }
        let nameStart = slash.map { bytes.index(after: $0) } ?? bytes.startIndex
        let name = String(path[nameStart...])
        if name == "." || name == ".." { return nil }
        guard let slash else { return ("", name) }
        return (slash == bytes.startIndex ? "/" : String(path[..<slash]), name)
    }

    /// `folder(of:)`, quickly for a plain path (see `plainSplit`).
    static func quickFolder(of path: String) -> String {
        plainSplit(path)?.folder ?? folder(of: path)
    }

    /// `directory(of:)`, quickly for a plain path (see `plainSplit`).
    static func quickDirectory(of path: String) -> String {
        directory(inFolder: quickFolder(of: path))
    }

    /// `directory(of:)` and `name(of:)`, quickly for a plain path (see
    /// `plainSplit`): `folder(of:)` and `name(of:)` search the text by
    /// `Character`, 5,000 instructions for a split part's path, and a split asks
    /// for every part's.
    static func quickDirectoryAndName(of path: String) -> (directory: String, name: String) {
        let (folder, name) = plainSplit(path) ?? (folder(of: path), name(of: path))
        return (directory(inFolder: folder), name)
    }

    /// `standardised` for many files in few folders: each folder is standardised
    /// (symbolic links resolved, component by component) once, and a file name is
    /// appended to it unless the file itself is a symbolic link.
    struct Standardiser {
        private var folders: [String: String] = [:]

        mutating func standardised(_ path: String) -> String {
            var status = stat()
            guard let (folder, name) = Paths.plainSplit(path), !name.isEmpty,
                !(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
            else {
                return Paths.standardised(path)
            }
            let key = folder.isEmpty ? "." : folder
            let standard: String
            if let known = folders[key] {
                standard = known
            } else {
                standard = Paths.standardised(key)
                folders[key] = standard
            }
            return standard == "/" ? "/" + name : standard + "/" + name
        }
    }

    private static func trailingSlashesRemoved(_ path: String) -> String {
        var result = Substring(path)
        while result.last == "/" { result = result.dropLast() }
        return String(result)
    }
}
