#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Memory that a C function allocated with `malloc` and handed over; freed in `deinit`.
final class MallocBuffer {
    let pointer: UnsafeMutablePointer<UInt8>?
    let count: Int

    init(pointer: UnsafeMutablePointer<UInt8>?, count: Int) {
        self.pointer = pointer
        self.count = pointer == nil ? 0 : count
    }

    deinit { free(pointer) }

    /// `count` zero bytes (`calloc`), or nil when memory is short. Zero bytes
    /// need no allocation.
    static func zeroed(count: Int) -> MallocBuffer? {
        guard count > 0 else { return MallocBuffer(pointer: nil, count: 0) }
        guard let raw = calloc(count, 1) else { return nil }
        return MallocBuffer(pointer: raw.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The bytes, mutable in place; empty when nothing was allocated.
    var bytes: UnsafeMutableBufferPointer<UInt8> { UnsafeMutableBufferPointer(start: pointer, count: count) }
}
