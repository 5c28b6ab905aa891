internal import PDFEngine

/// Per-phase timing of this process with `PDFEDIT_TIMING` set (see the engine's
/// `PhaseTiming` for the lines printed at exit).
public enum ProcessTiming {
    /// Call first thing in `main`: the total is measured from here.
    public static func start() {
        PhaseTiming.start()
    }
}
