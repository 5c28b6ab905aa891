import QPDFCore

/// A request to stop a long export, raised from any thread and read by the bridge
/// (`pe_flag`, `pe_export_options.cancel`) before each part of a split. Its storage
/// is a C struct at a fixed address, which the bridge reads with atomic loads.
package final class CancelFlag: @unchecked Sendable, Equatable {
    let storage: UnsafeMutablePointer<pe_flag>

    package init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: pe_flag(raised: 0))
    }

    deinit { storage.deallocate() }

    /// `pe_flag_raise`.
    package func raise() { pe_flag_raise(storage) }

    /// `pe_flag_is_raised`.
    package var isRaised: Bool { pe_flag_is_raised(storage) != 0 }

    package static func == (lhs: CancelFlag, rhs: CancelFlag) -> Bool { lhs === rhs }
}
