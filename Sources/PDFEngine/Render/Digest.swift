import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Fingerprint {
    /// The SHA-256 of some bytes, as lowercase hex (`g_compute_checksum_for_data`):
    /// cache keys for things that are not files.
    public static func sha256(of data: Data) -> String {
        let digest = data.withUnsafeBytes { bytes in
            g_compute_checksum_for_data(
                G_CHECKSUM_SHA256, bytes.bindMemory(to: UInt8.self).baseAddress, gsize(bytes.count))
        }
        guard let digest else { return "" }
        defer { g_free(digest) }
        return String(cString: digest)
    }
}
