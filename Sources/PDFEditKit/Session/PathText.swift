import Foundation

/// A path's folder and name worked out from its text alone.
///
/// Not `NSString.deletingLastPathComponent`: swift-corelibs-foundation traps
/// (SIGILL) on a one-character name without a folder ("X", "X/", "."), and any
/// name the file system accepts must work as an output, a session or an input.
package enum PathText {
    /// The folder part as `NSString.deletingLastPathComponent` gives it: "" for a
    /// bare name, "/" for a name directly under the root (and for the root).
    package static func folder(of path: String) -> String {
        let trimmed = trailingSlashesRemoved(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trailingSlashesRemoved(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The folder to list, open or sync for a file: `folder(of:)`, "." for a bare name.
    package static func directory(of path: String) -> String {
        let folder = folder(of: path)
        return folder.isEmpty ? "." : folder
    }

    /// The last component, trailing slashes ignored ("/" for the root).
    package static func name(of path: String) -> String {
        let trimmed = trailingSlashesRemoved(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `name` inside `folder` ("" and "." give the bare name).
    package static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The absolute, standardised `path`, or the file its chain of symbolic links
    /// ends at (which need not exist): where writing "through" the link goes.
    package static func followingLinks(_ path: String) -> String {
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

    private static func trailingSlashesRemoved(_ path: String) -> String {
        var result = Substring(path)
        while result.last == "/" { result = result.dropLast() }
        return String(result)
    }
}
