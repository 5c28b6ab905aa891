import Glibc

/// The first bytes of a file, read with plain system calls (Foundation's
/// FileHandle would bring the whole of Foundation into the program).
package enum FileHead {
    /// Up to `count` bytes from the start of the file at `path` (fewer when it is
    /// shorter, or when a read fails part way: the full read that follows reports
    /// that); nil when it cannot be opened, with `errno` telling why.
    package static func read(_ path: String, upTo count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// Everything left to read from `descriptor` (standard input for `-`), up to
    /// its end or a read error.
    package static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return bytes }
            bytes += chunk[..<got]
        }
    }
}
