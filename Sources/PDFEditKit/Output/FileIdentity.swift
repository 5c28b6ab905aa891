import Glibc
internal import PDFEngine
import Synchronization
import PageModel

/// What a file is, as opposed to what its path says: the one way pdfedit tells
/// whether two paths are the same file (an output and a source, two outputs of
/// one batch, a password file and an export…).
///
/// An existing file is its device and inode (through symbolic links: what a read
/// or a write through the path reaches). A path that leads to nothing yet is the
/// device and inode of its deepest existing folder plus the names below it (with
/// "." dropped and "name/.." folded, as the folders that will be made give them),
/// so that `L/../x.pdf`, `./x.pdf` and `d/x.pdf` are one file, and so are two
/// outputs `a/new/o.pdf` and `c/new/o.pdf` when `c` is a link to `a`, before
/// `new` exists. The kernel resolves `..` after links, which text comparison
/// (URL standardisation) cannot: it folded `L/..` before following `L`.
///
/// A dangling symbolic link is the link itself (a rename over it replaces the
/// link, not the place it names). Hard links of one file are one file.
package struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    package let device: UInt64
    package let inode: UInt64
    /// For a path that leads to nothing yet: the names below the existing folder
    /// `device`/`inode`; empty for an existing file.
    package let below: [String]

    /// Whether a file stands there now.
    package var exists: Bool { below.isEmpty }

    package init(device: UInt64, inode: UInt64, below: [String] = []) {
        self.device = device
        self.inode = inode
        self.below = below
    }

    /// The identity of what `path` leads to (see the type). Relative paths are
    /// taken from the current directory; "" is the current directory.
    package init(of path: String) {
        let (existing, below) = Paths.existingPart(of: path)
        var status = stat()
        let place = existing.isEmpty ? "." : existing
        // stat for what the path reaches; lstat for a dangling link (the link itself).
        if stat(place, &status) != 0 && lstat(place, &status) != 0 {
            // The current directory was removed: nothing to stand on but the names.
            status = stat()
        }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), below: below)
    }

    /// The identity of an open file.
    package init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    package var description: String {
        "\(device):\(inode)" + below.map { "/" + $0 }.joined()
    }
}

/// The files this process has read that are not sources — scripts, password
/// files, outline files: no output may replace one, `--force` or not (DESIGN.md:
/// every file a command reads is protected as a source is). Noted by the kit's
/// readers of such files; consulted by `OutputChecks`.
package enum ReadFiles {
    private struct Read: Hashable {
        var path: String
        var identity: FileIdentity
        var role: String
    }

    private static let files = Mutex<[Read]>([])

    /// Notes that `path` was (or is about to be) read as `role` ("the script").
    package static func note(_ path: String, as role: String) {
        let read = Read(path: path, identity: FileIdentity(of: path), role: role)
        files.withLock { $0.append(read) }
    }

    /// Notes the file open at `descriptor`, read from `path`, as `role`.
    package static func note(descriptor: Int32, path: String, as role: String) {
        guard let identity = FileIdentity(descriptor: descriptor) else { return }
        files.withLock { $0.append(Read(path: path, identity: identity, role: role)) }
    }

    /// The files noted that are still where they were read, with what each was
    /// read as. One removed since is forgotten: its inode may be reused by
    /// another file (a program using the kit lives longer than one command).
    package static var all: [FileIdentity: String] {
        var result: [FileIdentity: String] = [:]
        for read in files.withLock({ $0 }) where result[read.identity] == nil {
            if FileIdentity(of: read.path) == read.identity { result[read.identity] = read.role }
        }
        return result
    }
}
