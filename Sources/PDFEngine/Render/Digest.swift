#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import QPDFCore

extension Fingerprint {
    /// The SHA-256 of some bytes, as lowercase hex (`pe_sha256_bytes`: the route
    /// of file fingerprints): cache keys for things that are not files.
    package static func sha256(of data: Data) -> String {
        var hex = [CChar](repeating: 0, count: 65)
        let code = data.withUnsafeBytes { bytes in
            pe_sha256_bytes(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &hex)
        }
        guard code == 0 else { return "" }
        return String(decoding: hex.prefix(64).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
