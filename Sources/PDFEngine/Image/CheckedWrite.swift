import Foundation

/// Writes `bytes` to a new file at `path` (created or truncated), checking every
/// `write(2)`, then `fsync` and `close`; on failure the file is removed. Mode 0600:
/// it is a temporary that the caller renames into place with its final mode.
func writeChecked(_ bytes: UnsafeRawBufferPointer, to path: String) throws(EngineError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw EngineError.cannotWrite(file: path, reason: String(cString: strerror(errno))) }
    var failure: Int32 = 0
    var offset = 0
    while failure == 0, offset < bytes.count, let base = bytes.baseAddress {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
            if errno != EINTR { failure = errno }
            continue
        }
        offset += written
    }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0, errno != EINTR { failure = errno }
    if failure != 0 {
        unlink(path)
        throw EngineError.cannotWrite(file: path, reason: String(cString: strerror(failure)))
    }
}
