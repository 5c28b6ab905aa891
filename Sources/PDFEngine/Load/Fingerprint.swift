#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import QPDFCore

/// Size and SHA-256 of a file: how a session notices that a source changed.
package struct Fingerprint: Equatable, Hashable, Sendable, Codable {
    package var size: Int64
    package var sha256: String

    package init(size: Int64, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }

    /// Streams the file through qpdf's crypto provider (`pe_sha256_fd`), 1 MiB
    /// at a time.
    ///
    /// Only a regular file is read: the file is opened without blocking (a FIFO
    /// put in a source's place would otherwise wait for a writer forever, holding
    /// the session's lock) and refused unless the open file is a regular one (a
    /// device such as `/dev/zero` never ends).
    package static func of(file path: String) throws(EngineError) -> Fingerprint {
        let descriptor = try openRegular(path)
        var hex = [CChar](repeating: 0, count: 65)
        var size: Int64 = 0
        let code = pe_sha256_fd(descriptor, &hex, &size)
        close(descriptor)
        if code == 0 {
            return Fingerprint(size: size, sha256: String(decoding: hex.prefix(64).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        if code > 0 { throw EngineError.unreadable(file: path, reason: "read error") }
        throw EngineError.library(file: path, message: "SHA-256 failed")
    }

    /// `path` opened for reading without blocking, when it is a regular file.
    static func openRegular(_ path: String) throws(EngineError) -> Int32 {
        let descriptor = try valueOrErrno { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
            .mapError { EngineError.opening(path, errno: $0.rawValue) }.get()
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw EngineError.unreadable(file: path, reason: "not a regular file")
        }
        return descriptor
    }
}

extension Fingerprint {
    /// Files at least this large are hashed on another thread while the caller
    /// goes on (`started(file:)`); smaller ones at once, where a thread would
    /// cost more than it saves.
    static let backgroundBytes: Int64 = 1 << 20

    /// A fingerprint being made: `value()` waits for it and gives it, or the
    /// error `Fingerprint.of(file:)` throws.
    final class Pending: @unchecked Sendable {
        private let done = DispatchGroup()
        private var result: Result<Fingerprint, EngineError>?

        fileprivate init(file path: String, inBackground: Bool) {
            guard inBackground else {
                result = Result { () throws(EngineError) in try Fingerprint.of(file: path) }
                return
            }
            done.enter()
            DispatchQueue.global(qos: .userInitiated).async {
                self.result = Result { () throws(EngineError) in try Fingerprint.of(file: path) }
                self.done.leave()
            }
        }

        /// The fingerprint, once made.
        func value() throws(EngineError) -> Fingerprint {
            done.wait() // the write of `result` happens before leave()
            return try result!.get()
        }
    }

    /// Starts fingerprinting `path`: on another thread when it is a file of at
    /// least `backgroundBytes` (importing a 5 MB book, its SHA-256, 7 ms, runs
    /// while qpdf reads the file's cross-reference table and page tree), else
    /// now.
    static func started(file path: String) -> Pending {
        var status = stat()
        let large = stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && Int64(status.st_size) >= backgroundBytes
        return Pending(file: path, inBackground: large)
    }
}

extension EngineError {
    /// The error for a failed open(2)/fopen(3) of an input.
    package static func opening(_ path: String, errno code: Int32) -> EngineError {
        switch code {
        case ENOENT, ENOTDIR: return .missing(file: path)
        case ENOMEM: return .outOfMemory(file: path)
        default: return .unreadable(file: path, reason: Errno(rawValue: code).description)
        }
    }
}
