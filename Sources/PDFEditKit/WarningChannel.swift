#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PageModel

/// Where the warnings met deep inside a command go — a page poppler cannot read
/// while `find` or `list` reads text, a page drawn as an empty frame by `show` or
/// `thumbs` — which the command gets past and which no result carries.
///
/// A process sets one receiver (the command line prints each warning as one
/// `pdfedit: warning:` line); without one, such warnings are dropped, so a
/// program using the kit decides what it shows. Each distinct warning reaches
/// the receiver once per process, however many workers meet it.
public enum WarningChannel {
    /// Sets (or, with nil, removes) the receiver of this process's warnings.
    public static func setReceiver(_ receiver: (@Sendable (Warning) -> Void)?) {
        state.setReceiver(receiver)
    }

    /// Hands `warning` to the receiver, unless it already had it.
    static func report(_ warning: Warning) {
        state.report(warning)
    }

    private static let state = ChannelState()
}

private final class ChannelState: @unchecked Sendable {
    private let lock = Lock()
    private var receiver: (@Sendable (Warning) -> Void)?
    private var reported: Set<String> = []

    func setReceiver(_ receiver: (@Sendable (Warning) -> Void)?) {
        lock.withLock { self.receiver = receiver }
    }

    func report(_ warning: Warning) {
        let receiver: (@Sendable (Warning) -> Void)? = lock.withLock {
            reported.insert(warning.description).inserted ? self.receiver : nil
        }
        receiver?(warning)
    }
}
