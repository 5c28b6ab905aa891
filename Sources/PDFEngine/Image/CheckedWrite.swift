#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Writes `bytes` to a new file at `path` (created or truncated), checking every
/// `write(2)`, then `fsync` and `close`; on failure the file is removed. Mode 0600:
/// it is a temporary that the caller renames into place with its final mode.
func writeChecked(_ bytes: UnsafeRawBufferPointer, to path: String) throws(EngineError) {
    let descriptor = try valueOrErrno { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        .mapError { EngineError.cannotWrite(file: path, reason: $0.description) }.get()
    var failure: Errno?
    var offset = 0
    while failure == nil, offset < bytes.count, let base = bytes.baseAddress {
        switch valueOrErrno(retryingEINTR: true, { Glibc.write(descriptor, base + offset, bytes.count - offset) }) {
        case .success(let written): offset += written
        case .failure(let error): failure = error
        }
    }
    if failure == nil, case .failure(let error) = nothingOrErrno({ fsync(descriptor) }) { failure = error }
    if case .failure(let error) = nothingOrErrno({ close(descriptor) }), failure == nil, error != .interrupted {
        failure = error
    }
    if let failure {
        unlink(path)
        throw EngineError.cannotWrite(file: path, reason: failure.description)
    }
}
