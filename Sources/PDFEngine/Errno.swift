#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// An error number a system call left in `errno`, read at once (any later call,
/// even `strerror` or a Swift allocation, may change it). In the manner of
/// swift-system's `Errno` and its `valueOrErrno`: call sites get a `Result` or a
/// thrown `Errno` instead of comparing with -1 and reading `errno` by hand.
package struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    package var rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// What a failed FileManager call says: the system's text for the error
    /// number under it ("No such file or directory"), else the error as it prints.
    package static func text(of error: any Error) -> String {
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return Errno(rawValue: posix.code.rawValue).description
        }
        return "\(error)"
    }

    /// The calling thread's `errno`, now.
    package static var current: Errno { Errno(rawValue: errno) }

    /// The C library's text for it ("No such file or directory").
    package var description: String { String(cString: strerror(rawValue)) }

    package static let interrupted = Errno(rawValue: EINTR)
    package static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    package static let noSuchProcess = Errno(rawValue: ESRCH)
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
