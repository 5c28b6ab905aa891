import Glibc

/// The first bytes of a file, read with plain system calls (Foundation's
/// FileHandle would bring the whole of Foundation into the program).
package enum FileHead {
    /// Up to `count` bytes from the start of the file at `path` (fewer when it is
    /// shorter, or when a read fails part way: the full read that follows reports
    /// that); nil when it cannot be opened, with `errno` telling why. Opened
    /// without blocking: a FIFO put where a file was expected gives what is
    /// there (usually nothing), it does not wait for a writer.
    package static func read(_ path: String, upTo count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(descriptor: descriptor, upTo: count)
    }

    /// Up to `count` bytes read from `descriptor` (fewer at its end or a read error).
    package static func read(descriptor: Int32, upTo count: Int) -> [UInt8]? {
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

    /// What `readToEnd` found past its limit.
    package enum Overflow: Error, Equatable {
        /// More than `limit` bytes.
        case tooLarge(limit: Int)
        /// A read failed (`errno`).
        case readError(Int32)
    }

    /// Everything left to read from `descriptor` (standard input for `-`), up to
    /// its end; more than `limit` bytes is an error, found after reading at most
    /// `limit + 1` of them (so `/dev/zero` costs a bounded read, never all memory).
    package static func readToEnd(_ descriptor: Int32, limit: Int) -> Result<[UInt8], Overflow> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // One byte past the limit at most (without overflow for a limit of Int.max).
            let left = limit - bytes.count
            let room = left >= chunk.count ? chunk.count : left + 1
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, room) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return .failure(.readError(errno)) }
            if got == 0 { return .success(bytes) }
            bytes += chunk[..<got]
            if bytes.count > limit { return .failure(.tooLarge(limit: limit)) }
        }
    }
}
