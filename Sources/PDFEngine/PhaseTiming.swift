import Glibc
import Synchronization

/// Where this process's time goes, by phase, when `PDFEDIT_TIMING` is in the
/// environment (read once): each phase's milliseconds are summed (the kit's
/// own — opening and checking sources, planning — and those the bridge reports
/// for an export through `pe_export_options.timing`) and printed to stderr when
/// the process exits, one line per phase, then the total from `start()`:
///
///     pdfedit: time open 12.3
///     ...
///     pdfedit: time total 48.0
///
/// Every phase of `phases` gets its line (0.0 when it did not run). The bridge
/// also reports `appended`, `in-place` or `whole-file` when an export was written that way
/// (the whole export's time, inside the phases above): a line only then. Costs
/// one cached check when the variable is not set.
package enum PhaseTiming {
    /// True when `PDFEDIT_TIMING` is set (to anything).
    package static let enabled: Bool = EnvironmentVariables.process["PDFEDIT_TIMING"] != nil

    /// The phases printed, in this order (a split's are summed over parts and
    /// threads): `parse` is the command line's, `edit` a direct-mode command's
    /// change of its one-file session; `commit` is the renaming of the finished
    /// outputs into place.
    package static let phases = [
        "parse", "open", "edit", "plan", "pages", "stamps", "links", "fields", "outlines", "labels", "document", "structure", "layers",
        "metadata", "write", "commit",
    ]

    /// The clock's reading in nanoseconds (monotonic).
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Notes the start of the process (the first line of `main`) and has the
    /// lines printed at exit; nothing when timing is off.
    package static func start() {
        guard enabled else { return }
        sums.begin(at: now())
        atexit { PhaseTiming.report() }
    }

    /// Adds `milliseconds` to `phase`.
    package static func add(_ phase: String, milliseconds: Double) {
        guard enabled else { return }
        sums.add(phase, milliseconds)
    }

    /// Adds the time since `began` (a `now()` reading) to `phase`.
    package static func add(_ phase: String, since began: UInt64) {
        guard enabled else { return }
        sums.add(phase, Double(now() - began) / 1e6)
    }

    /// Runs `body`, its time added to `phase`.
    package static func measure<T, E: Error>(_ phase: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard enabled else { return try body() }
        let began = now()
        defer { add(phase, since: began) }
        return try body()
    }

    /// The lines, as printed at exit.
    static func report() {
        let (totals, began) = sums.snapshot()
        var text = ""
        let extra = totals.keys.filter { !phases.contains($0) }.sorted()
        for phase in phases + extra {
            text += "pdfedit: time \(phase) \(formatted(totals[phase] ?? 0))\n"
        }
        text += "pdfedit: time total \(formatted(Double(now() - began) / 1e6))\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// `milliseconds` with one decimal ("12.3").
    static func formatted(_ milliseconds: Double) -> String {
        let tenths = Int((max(0, milliseconds) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static let sums = Sums()

    /// The sums, added to from any thread.
    private final class Sums: Sendable {
        private let state = Mutex<(totals: [String: Double], began: UInt64)>(([:], 0))

        func begin(at time: UInt64) {
            state.withLock { $0.began = time }
        }

        func add(_ phase: String, _ milliseconds: Double) {
            state.withLock { $0.totals[phase, default: 0] += milliseconds }
        }

        func snapshot() -> ([String: Double], UInt64) {
            state.withLock { ($0.totals, $0.began) }
        }
    }
}
