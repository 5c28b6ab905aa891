#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// The path text rules in one place: folder and name of a path, its stem, joining,
/// and a path as the kernel resolves it (`resolved`, `existingPart`; files are
/// compared by `FileIdentity`, never by text).
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
                return FileNames.string(bytes)
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

    /// The deepest part of `path` that exists (as `stat` or `lstat` finds it: the
    /// kernel resolves links and `..` in the order they come) and the names below
    /// it that do not exist yet, "." dropped and "name/.." folded as the folders
    /// made later will give them. `existing` is "" for the current directory; `below`
    /// is empty when the whole path exists. When folding brings the path back to
    /// something that exists (`new/../x.pdf`), that is what is found.
    static func existingPart(of path: String) -> (existing: String, below: [String]) {
        var names: [String] = []
        var current = path
        var status = stat()
        while stat(current.isEmpty ? "." : current, &status) != 0 && lstat(current.isEmpty ? "." : current, &status) != 0 {
            // Only when the current directory itself was removed: nothing to stand on.
            if current.isEmpty || current == "/" {
                let given = Array(names.reversed())
                return (current, folded(given) ?? given)
            }
            names.append(name(of: current))
            current = folder(of: current)
        }
        guard !names.isEmpty else { return (current, []) }
        let given = Array(names.reversed())
        let below = folded(given) ?? given
        if below != given, !below.contains("..") {
            // Made again without "." and "..", the path folds no further: one level deep.
            return existingPart(of: below.reduce(current.isEmpty ? "." : current) { join($0, $1) })
        }
        return (current, below)
    }

    /// `names` with "." dropped and "name/.." folded; nil when nothing changed.
    private static func folded(_ names: [String]) -> [String]? {
        var below: [String] = []
        var changed = false
        for name in names {
            switch name {
            case ".", "": changed = true
            case "..":
                if below.isEmpty || below.last == ".." { below.append(name) } else { below.removeLast() }
                changed = true
            default: below.append(name)
            }
        }
        return changed ? below : nil
    }

    /// The absolute path of `path` as the kernel finds it: its folder with every
    /// link and `..` resolved (`realpath`), its own name kept as given (a link
    /// stays the link); the part that does not exist yet appended by name. What a
    /// session stores and reopens, so that `L/../x.pdf` means the file the kernel
    /// reached through `L`, not `x.pdf` here.
    static func resolved(_ path: String) -> String {
        let (existing, below) = existingPart(of: path)
        let name = self.name(of: existing)
        if below.isEmpty, name != ".", name != "..", name != "/", !existing.isEmpty {
            return join(realPath(directory(of: existing)) ?? absolute(directory(of: existing)), name)
        }
        let base = realPath(existing.isEmpty ? "." : existing) ?? absolute(existing)
        return below.reduce(base) { join($0, $1) }
    }

    /// `realpath(3)` of an existing path; nil when it cannot be resolved.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return FileNames.string(cString: resolved)
    }

    /// `path` from the root, as text (for paths that cannot be resolved).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let here = FileNames.currentDirectory
        return path.isEmpty || path == "." ? here : join(here, path)
    }

    /// Where writing "through" `path` goes: the file its chain of symbolic links
    /// ends at (which need not exist), `resolved`.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                let target = Files.linkTarget(current)
            else { break }
            // A relative target is taken from the link's folder, as the kernel takes it.
            current = target.hasPrefix("/") ? target : join(directory(of: current), target)
        }
        return resolved(current)
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

    private static func trailingSlashesRemoved(_ path: String) -> String {
        var result = Substring(path)
        while result.last == "/" { result = result.dropLast() }
        return String(result)
    }
}
