#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// A file as pdfedit left it: which file (device and inode) and what it held
/// then (size and modification time, to the nanosecond). A file found so again
/// is one pdfedit wrote and nobody has changed since; a file with another inode,
/// size or time is someone else's, even at the same path.
struct WrittenFile: Hashable, Codable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Modification time in nanoseconds since 1970.
    var modified: Int64

    /// The regular file at `path` as it is now; nil when there is none (or it is
    /// not a regular file).
    init?(at path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        let (seconds, overflow) = Int64(status.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        modified = overflow ? Int64.max : seconds &+ Int64(status.st_mtim.tv_nsec)
    }
}

/// The session's list of its own exports (`SESSION.exports`, beside the session):
/// the files an export may replace without `--force`. It is kept beside the
/// session, not in it, as exporting is not an undo step.
///
/// Each entry remembers what was written (`WrittenFile`: inode, size, time), not
/// only where: a file the user changed, replaced or put there since is theirs,
/// and replacing it needs `--force`. The list is JSON,
/// `{"version": 2, "files": [{"path", "device", "inode", "size", "modified"}]}`;
/// a list of bare paths (version 1, which remembered no more than the path) gives
/// no entry. It is only ever written where nothing, or such a list, stands: a
/// file that is neither is left alone (and nothing is remembered).
struct ExportsList {
    /// Where the list is: `SESSION.exports`.
    let path: String

    /// The largest list read: an entry is about 150 bytes.
    static let maximumBytes = 16 << 20

    struct Entry: Codable, Hashable {
        var path: String
        var file: WrittenFile

        enum CodingKeys: String, CodingKey { case path, device, inode, size, modified }

        init(path: String, file: WrittenFile) {
            self.path = path
            self.file = file
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            file = try WrittenFile(from: decoder)
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try file.encode(to: encoder)
        }
    }

    private struct Stored: Codable {
        var version: Int
        var files: [Entry]
    }

    static let version = 2

    /// What stands at `path`: nothing, a list (its entries; a version 1 list has
    /// none), or something else (nil), which is never replaced.
    private func read() -> [Entry]? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return [] }
        guard status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= Self.maximumBytes,
            let bytes = FileHead.read(path, upTo: Int(status.st_size))
        else { return nil }
        if let stored = try? JSONDecoder().decode(Stored.self, from: Data(bytes)), stored.version == Self.version {
            return stored.files
        }
        // Version 1: one absolute path a line.
        guard let text = String(validating: bytes, as: UTF8.self),
            text.split(separator: "\n").allSatisfy({ $0.hasPrefix("/") })
        else { return nil }
        return []
    }

    /// The files an export may replace without `--force`: those listed that are
    /// still as pdfedit wrote them.
    func replaceable() -> Set<WrittenFile> {
        Set((read() ?? []).map(\.file))
    }

    /// Adds `outputs` as they are now (just written), and drops the entries of
    /// files that have changed since: one read and one atomic write of the list
    /// for all of them (a split export of thousands of parts must not rewrite and
    /// fsync it once per part). Best effort: a list that cannot be written only
    /// means the next export over these files needs `--force`.
    func remember(_ outputs: [String]) {
        guard let known = read() else { return }
        var entries: [String: Entry] = [:]
        for entry in known where WrittenFile(at: entry.path) == entry.file { entries[entry.path] = entry }
        for output in outputs {
            let absolute = Self.absolute(output)
            if let file = WrittenFile(at: absolute) { entries[absolute] = Entry(path: absolute, file: file) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let stored = Stored(version: Self.version, files: entries.keys.sorted().compactMap { entries[$0] })
        guard let data = try? encoder.encode(stored) else { return }
        try? StagedOutput.replace(path, with: data + Data("\n".utf8))
    }

    /// `path` from the root, so that the list means the same from any folder.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return Paths.join(FileNames.currentDirectory, path)
    }
}
