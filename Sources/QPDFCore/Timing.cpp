// Phase timing of an export (Timing.hh): per-call sums, reported by name.
#include "Timing.hh"

namespace pe {
namespace {

thread_local PhaseTimes *this_thread_times = nullptr;

char const *const phase_names[] = {
    "open", "plan", "pages", "stamps", "links", "fields", "outlines", "labels", "document", "structure", "layers",
    "metadata", "write"};
static_assert(sizeof phase_names / sizeof phase_names[0] == static_cast<size_t>(Phase::count));

} // namespace

void PhaseTimes::report(pe_export_options const *options) const
{
    if (options == nullptr || options->timing == nullptr) {
        return;
    }
    for (int p = 0; p < static_cast<int>(Phase::count); ++p) {
        long long nanoseconds = spent[p].load(std::memory_order_relaxed);
        if (nanoseconds > 0) {
            options->timing(options->timing_context, phase_names[p], static_cast<double>(nanoseconds) / 1e6);
        }
    }
}

PhaseTimes *current_phase_times()
{
    return this_thread_times;
}

PhaseTimesScope::PhaseTimesScope(PhaseTimes *times) : previous(this_thread_times)
{
    this_thread_times = times;
}

PhaseTimesScope::~PhaseTimesScope()
{
    this_thread_times = previous;
}

TimedExport::TimedExport(pe_export_options const *options) :
    options(options),
    scope(options != nullptr && options->timing != nullptr ? &times : nullptr)
{
}

TimedExport::~TimedExport()
{
    if (options != nullptr && options->timing != nullptr) {
        times.report(options);
    }
}

} // namespace pe
