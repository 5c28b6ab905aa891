#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Writes `bytes` to a new file at `path` (created or truncated), then `fsync`
/// and `close`, every call checked (`Files.create`); on failure the file is
/// removed. Mode 0600: it is a temporary that the caller renames into place with
/// its final mode.
func writeChecked(_ bytes: UnsafeRawBufferPointer, to path: String) throws(EngineError) {
    if let failure = Files.create(path, holding: bytes, exclusive: false, mode: 0o600, sync: true, removeOnFailure: true) {
        throw EngineError.cannotWrite(file: path, reason: failure.description)
    }
}
