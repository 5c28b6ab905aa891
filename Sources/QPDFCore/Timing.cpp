// Phase timing of an export (Timing.hh): per-call sums, reported by name.
#include "Timing.hh"

namespace pe {

thread_local PhaseTimes *current_phase_times = nullptr;

namespace {

char const *const phase_names[] = {
    "open", "plan", "pages", "stamps", "links", "fields", "outlines", "labels", "document", "structure", "layers",
    "metadata", "write", "appended", "in-place", "whole-file"};
static_assert(sizeof phase_names / sizeof phase_names[0] == static_cast<size_t>(Phase::count));

bool timed(pe_export_options const *options)
{
    return options != nullptr && options->timing != nullptr;
}

} // namespace

TimedExport::TimedExport(pe_export_options const *options) :
    options(options), scope(timed(options) ? &times : nullptr)
{
}

TimedExport::~TimedExport()
{
    for (int p = 0; timed(options) && p < static_cast<int>(Phase::count); ++p) {
        long long nanoseconds = times.spent[p].load(std::memory_order_relaxed);
        if (nanoseconds > 0) {
            options->timing(options->timing_context, phase_names[p], static_cast<double>(nanoseconds) / 1e6);
        }
    }
}

} // namespace pe
