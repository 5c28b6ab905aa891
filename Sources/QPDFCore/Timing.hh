// Internal to QPDFBridge: where an export's time goes, by phase (Timing.cpp).
// Off unless the caller gives pe_export_options.timing; then every PhaseClock
// of the call adds its wall time to its phase, and the call's sums are handed
// to options->timing, one call per phase that ran, when the export ends.
#ifndef PDFEDIT_QPDF_BRIDGE_TIMING_HH
#define PDFEDIT_QPDF_BRIDGE_TIMING_HH

#include "QPDFBridge.h"

#include <atomic>
#include <chrono>

namespace pe {

enum class Phase {
    open,      // sources opened and checked (Inputs::open)
    plan,      // the plan checked (Inputs::check_plan)
    pages,     // pages copied or rearranged, with their inherited attributes
    stamps,    // stamps placed
    links,     // annotations copied, link destinations retargeted
    fields,    // the form rebuilt
    outlines,  // bookmarks arranged and written
    labels,    // page labels
    document,  // catalog entries, Info, open action, embedded files, scripts
    structure, // the structure tree
    layers,    // optional content
    metadata,  // XMP, output intents, claims
    write,     // QPDFWriter
    appended,  // the whole export, when written as an update appended to its source
    in_place,  // the whole export, when its source was rearranged in place
    whole_file, // the whole export, when its source was written whole (WholeFile.cpp)
    count
};

// One export call's sums, in nanoseconds; shared by the threads of a split.
struct PhaseTimes {
    std::atomic<long long> spent[static_cast<int>(Phase::count)] = {};
};

// The sums this thread adds to (nullptr: timing is off).
extern thread_local PhaseTimes *current_phase_times;

// Makes `times` this thread's sums while it lives (a worker thread of a split
// takes its caller's).
class PhaseTimesScope {
  public:
    explicit PhaseTimesScope(PhaseTimes *times) : previous(current_phase_times) { current_phase_times = times; }
    ~PhaseTimesScope() { current_phase_times = previous; }
    PhaseTimesScope(PhaseTimesScope const &) = delete;
    PhaseTimesScope &operator=(PhaseTimesScope const &) = delete;

  private:
    PhaseTimes *previous;
};

// One export call timed when options->timing is given: its sums are this
// thread's while it lives and reported when it ends (even when the export fails).
class TimedExport {
  public:
    explicit TimedExport(pe_export_options const *options);
    ~TimedExport();
    TimedExport(TimedExport const &) = delete;
    TimedExport &operator=(TimedExport const &) = delete;

  private:
    pe_export_options const *options;
    PhaseTimes times;
    PhaseTimesScope scope;
};

// Adds the time from its making to its end (or to stop()) to `phase`; costs one
// thread-local read when timing is off.
class PhaseClock {
  public:
    explicit PhaseClock(Phase phase) : times(current_phase_times), phase(phase)
    {
        if (times != nullptr) {
            began = std::chrono::steady_clock::now();
        }
    }
    ~PhaseClock() { stop(); }
    PhaseClock(PhaseClock const &) = delete;
    PhaseClock &operator=(PhaseClock const &) = delete;

    void stop()
    {
        if (times != nullptr) {
            auto spent = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - began);
            times->spent[static_cast<int>(phase)].fetch_add(spent.count(), std::memory_order_relaxed);
            times = nullptr;
        }
    }

  private:
    PhaseTimes *times;
    Phase phase;
    std::chrono::steady_clock::time_point began;
};

} // namespace pe

#endif
