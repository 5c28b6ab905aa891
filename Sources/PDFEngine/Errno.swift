#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import SystemPackage

/// An error number a system call left in `errno`: swift-system's `Errno`
/// (its `description` is the C library's text, "No such file or directory").
/// Call sites get a `Result` or a thrown `Errno` from `valueOrErrno` instead of
/// comparing with -1 and reading `errno` by hand.
package typealias Errno = SystemPackage.Errno

extension Errno {
    /// What a failed FileManager call says: the system's text for the error
    /// number under it ("No such file or directory"), else the error as it prints.
    package static func text(of error: any Error) -> String {
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return Errno(rawValue: posix.code.rawValue).description
        }
        return "\(error)"
    }

    /// The calling thread's `errno`, read at once (any later call, even
    /// `strerror` or a Swift allocation, may change it).
    package static var current: Errno { Errno(rawValue: errno) }
}

/// The value of a system call that returns -1 on failure (`open`, `write`,
/// `rename`…), or the `Errno` it failed with. With `retryingEINTR`, a call
/// interrupted by a signal before it did anything is made again.
package func valueOrErrno<I: FixedWidthInteger>(
    retryingEINTR: Bool = false, _ call: () -> I
) -> Result<I, Errno> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        let failure = Errno.current
        if retryingEINTR && failure == .interrupted { continue }
        return .failure(failure)
    }
}

/// `valueOrErrno` for calls whose value only says whether they worked (0 or -1).
package func nothingOrErrno<I: FixedWidthInteger>(
    retryingEINTR: Bool = false, _ call: () -> I
) -> Result<Void, Errno> {
    valueOrErrno(retryingEINTR: retryingEINTR, call).map { _ in () }
}

/// Writes all of `bytes` to `descriptor` (swift-system's `FileDescriptor.writeAll`:
/// a short write is continued, an interrupted one made again). Nil, or the error.
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Errno? {
    do {
        try FileDescriptor(rawValue: descriptor).writeAll(bytes)
        return nil
    } catch {
        return error as? Errno ?? Errno(rawValue: EIO)
    }
}
