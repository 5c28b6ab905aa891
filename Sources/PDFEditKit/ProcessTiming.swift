internal import PDFEngine
import PageModel

/// Per-phase timing of this process with `PDFEDIT_TIMING` set (see the engine's
/// `PhaseTiming` for the lines printed at exit).
package enum ProcessTiming {
    /// Call first thing in `main`: the total is measured from here.
    package static func start() {
        PhaseTiming.start()
    }

    /// Runs `body` (the command line's parsing), its time added to the phase `parse`.
    package static func parsing<T>(_ body: () throws -> T) rethrows -> T {
        guard PhaseTiming.enabled else { return try body() }
        let began = PhaseTiming.now()
        defer { PhaseTiming.add("parse", since: began) }
        return try body()
    }
}
