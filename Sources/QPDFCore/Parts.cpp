// A split export: every part checked and every source opened once by the first
// worker, then the parts written by a small pool of threads (each with its own
// opening of the sources), their warnings passed on in part order, and one
// fsync per folder once all are written.
#include "Parts.hh"

#include "Assembly.hh"
#include "CheckedFile.hh"
#include "Compress.hh"
#include "Encryption.hh"
#include "StructureTree.hh"
#include "Timing.hh"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace pe {
namespace {

// How many threads a split export uses: options->threads when it is from 1
// (none) to 64, else the CPUs this process may run on, at most 4; never more
// than there are parts. Each thread but the first opens its own copy of the
// sources (qpdf objects are not shared between threads).
int thread_count(pe_export_options const *options, int part_count)
{
    return std::max(1, std::min(compress_threads(options == nullptr ? 0 : options->threads), part_count));
}

// What one part produced besides its file, kept until every thread is done so
// that it is reported in part order, as one thread would have.
struct PartOutcome {
    std::vector<std::pair<int, std::string>> warnings; // (source index, message)
    Dropped dropped;
};

// The parts of a split written so far, told to options->progress one call at a time.
class PartProgress {
  public:
    explicit PartProgress(pe_export_options const *options) : options(options) {}

    void part_written(int part_count)
    {
        if (options == nullptr || options->progress == nullptr) {
            return;
        }
        std::lock_guard<std::mutex> hold(lock);
        options->progress(options->progress_context, ++done, part_count);
    }

  private:
    pe_export_options const *options;
    std::mutex lock;
    int done = 0;
};

// The parts not taken yet. A thread takes the lowest, or, when it prefers some
// (PartWorker::prefers), the lowest of those; none at or above the lowest part
// that failed.
class PartQueue {
  public:
    explicit PartQueue(int count) : taken(static_cast<size_t>(count), false), limit(count) {}

    // The part to write next; -1 when none is left.
    // `prefers`: whether the thread prefers a part (not asked when `choosy` is false).
    template <class Prefers> int take(bool choosy, Prefers const &prefers)
    {
        std::lock_guard<std::mutex> hold(lock);
        while (lowest < limit && taken[static_cast<size_t>(lowest)]) {
            ++lowest;
        }
        if (lowest >= limit) {
            return -1;
        }
        int chosen = lowest;
        for (int p = lowest; choosy && p < limit; ++p) {
            if (!taken[static_cast<size_t>(p)] && prefers(p)) {
                chosen = p;
                break;
            }
        }
        taken[static_cast<size_t>(chosen)] = true;
        return chosen;
    }

    void failed(int part)
    {
        std::lock_guard<std::mutex> hold(lock);
        limit = std::min(limit, part);
    }

  private:
    std::mutex lock;
    std::vector<bool> taken;
    int lowest = 0;
    int limit;
};

// One thread of a split export: its own copy of the call's arguments (the
// sources without a shared pe_document for all but the first thread, warnings
// collected instead of passed on), its own opened sources and progress.
class PartWorker {
  public:
    PartWorker(Request const &base, bool share_documents) :
        own_sources(base.sources, base.sources + base.source_count),
        request(base)
    {
        if (!share_documents) {
            for (pe_source &source : own_sources) {
                source.document = nullptr;
            }
        }
        request.sources = own_sources.empty() ? nullptr : own_sources.data();
        request.warn = &PartWorker::collect;
        request.warn_context = this;
        inputs = std::make_unique<Inputs>(request, where);
    }

    PartWorker(PartWorker const &) = delete;
    PartWorker &operator=(PartWorker const &) = delete;

    std::vector<pe_source> own_sources;
    Request request;
    Where where;
    std::unique_ptr<Inputs> inputs;
    std::vector<std::pair<int, std::string>> *sink = nullptr;
    std::vector<char const *> written; // outputs this thread started
    int failed_part = -1;
    Where failed_where;
    std::exception_ptr failure;

    // Writes parts while there are some left below the lowest that failed. A
    // part taken is always finished (or fails), and parts are taken until none
    // is left below the lowest failure, so that when part k fails every part
    // before it was attempted, as one thread would have.
    void run(pe_part const *parts, int part_count, PartQueue &queue, std::vector<PartOutcome> &outcomes, PartProgress &progress)
    {
        pe_flag const *cancel = request.options == nullptr ? nullptr : request.options->cancel;
        while (!cancel_requested() && !pe_flag_is_raised(cancel)) {
            bool choosy = std::any_of(inputs->sources.begin(), inputs->sources.end(), [](Source const &source) {
                return !source.structure_pages.empty();
            });
            int p = queue.take(choosy, [this, parts](int part) { return prefers(parts[part]); });
            if (p < 0) {
                break;
            }
            PartOutcome &outcome = outcomes[static_cast<size_t>(p)];
            sink = &outcome.warnings;
            bool started = false;
            try {
                inputs->open(parts[p].first_item, parts[p].item_count);
                Assembly assembly(*inputs, parts[p].first_item, parts[p].item_count);
                assembly.give_outline(parts[p].outline, parts[p].outline_count);
                assembly.build(outcome.dropped);
                assembly.write(parts[p].out_path, started, false, false);
                written.push_back(parts[p].out_path);
                progress.part_written(part_count);
            } catch (...) {
                if (started) {
                    written.push_back(parts[p].out_path);
                }
                // Always lower than an earlier failure of this thread (parts
                // are taken below the lowest failure).
                failed_part = p;
                failed_where = where;
                failure = std::current_exception();
                queue.failed(p);
            }
        }
        sink = nullptr;
    }

  private:
    // Whether `part` starts with a page whose structure elements this thread
    // read itself when the threads shared out a tagged source's tree
    // (StructureShare): its objects are parsed in this thread's opening only.
    bool prefers(pe_part const &part) const
    {
        pe_item const &item = request.items[part.first_item];
        if (item.kind != PE_ITEM_PAGE || item.source < 0 || item.source >= static_cast<int>(inputs->sources.size())) {
            return false;
        }
        std::vector<bool> const &pages = inputs->sources[static_cast<size_t>(item.source)].structure_pages;
        return item.page >= 0 && static_cast<size_t>(item.page) < pages.size() && pages[static_cast<size_t>(item.page)];
    }

    static void collect(void *context, int source, char const *message)
    {
        auto *worker = static_cast<PartWorker *>(context);
        if (worker->sink != nullptr) {
            worker->sink->emplace_back(source, message == nullptr ? "" : message);
        }
    }
};

} // namespace

void export_parts(
    Request const &request,
    pe_part const *parts,
    int part_count,
    Where &where,
    int &current_part,
    Written &written)
{
    if (part_count <= 0 || parts == nullptr) {
        Inputs inputs(request, where);
        inputs.check_plan();
        throw PlanError("no parts");
    }
    // The first worker checks everything and opens every source before any part
    // is written, as before; its warnings so far are the opening's.
    pe_export_options one_thread_each{}; // the parts' options when on several threads; outlives them
    std::vector<std::unique_ptr<PartWorker>> workers;
    workers.push_back(std::make_unique<PartWorker>(request, true));
    PartWorker &first = *workers.front();
    std::vector<std::pair<int, std::string>> opening;
    first.sink = &opening;
    try {
        first.inputs->check_plan();
        std::set<std::string> paths;
        for (int p = 0; p < part_count; ++p) {
            pe_part const &part = parts[p];
            std::string which = "part " + std::to_string(p + 1);
            if (part.first_item < 0 || part.item_count <= 0 ||
                part.item_count > request.item_count - part.first_item) {
                throw PlanError(which + " has no items or items outside the plan");
            }
            first.inputs->check_output(part.out_path);
            if (!paths.insert(part.out_path).second) {
                throw PlanError(which + " has the same output path as an earlier part");
            }
        }
        for (int p = 0; p < part_count; ++p) {
            first.inputs->open(parts[p].first_item, parts[p].item_count);
        }
        note_decrypted(*first.inputs, 0, request.item_count);
    } catch (...) {
        where = first.where;
        for (auto const &warning : opening) {
            if (request.warn != nullptr) {
                request.warn(request.warn_context, warning.first, warning.second.c_str());
            }
        }
        throw;
    }
    first.sink = nullptr;
    for (auto const &warning : opening) {
        if (request.warn != nullptr) {
            request.warn(request.warn_context, warning.first, warning.second.c_str());
        }
    }

    int threads = thread_count(request.options, part_count);
    // Parts on several threads: each part's --compress pass on its own thread
    // (compress_streams would otherwise start as many again per part).
    Request part_request = request;
    if (threads > 1 && request.options != nullptr) {
        one_thread_each = *request.options;
        one_thread_each.threads = 1;
        part_request.options = &one_thread_each;
        first.request.options = &one_thread_each;
    }
    for (int t = 1; t < threads; ++t) {
        workers.push_back(std::make_unique<PartWorker>(part_request, false));
    }
    // The threads read each source's structure tree together, once, rather
    // than each the whole of it (a tagged book: 80,000 elements, a fifth of
    // the time of its split, and of its memory, per thread).
    if (workers.size() > 1) {
        for (int s = 0; s < request.source_count; ++s) {
            auto share = std::make_shared<StructureShare>(workers.size());
            for (auto &worker : workers) {
                worker->inputs->sources.resize(static_cast<size_t>(request.source_count));
                worker->inputs->sources[static_cast<size_t>(s)].structure_share = share;
            }
        }
    }
    std::vector<PartOutcome> outcomes(static_cast<size_t>(part_count));
    PartQueue queue(part_count);
    PartProgress progress(request.options);
    std::vector<std::thread> running;
    PhaseTimes *times = current_phase_times; // the workers add to the caller's
    for (size_t t = 1; t < workers.size(); ++t) {
        PartWorker *worker = workers[t].get();
        try {
            running.emplace_back(
                [worker, parts, part_count, &queue, &outcomes, &progress, times] {
                    PhaseTimesScope timed(times);
                    worker->run(parts, part_count, queue, outcomes, progress);
                    // Its own copies of the sources are freed here, while the
                    // first thread may still write, not one after another on
                    // the caller's thread (a tenth of a split's CPU is freeing
                    // qpdf's objects). What run left is plain values.
                    worker->inputs.reset();
                });
        } catch (std::system_error const &) {
            break; // no thread: the others do the work
        }
    }
    first.run(parts, part_count, queue, outcomes, progress);
    for (std::thread &thread : running) {
        thread.join();
    }

    PartWorker *failed = nullptr;
    for (auto &worker : workers) {
        written.paths.insert(written.paths.end(), worker->written.begin(), worker->written.end());
        if (worker->failure && (failed == nullptr || worker->failed_part < failed->failed_part)) {
            failed = worker.get();
        }
    }
    // Warnings in part order, up to the failed part; a source's warning that the
    // opening (or an earlier part) already gave is not given again (another
    // thread's copy of the source raised it once more).
    std::set<std::pair<int, std::string>> given(opening.begin(), opening.end());
    int last = failed == nullptr ? part_count - 1 : failed->failed_part;
    Dropped dropped;
    for (int p = 0; p <= last; ++p) {
        PartOutcome const &outcome = outcomes[static_cast<size_t>(p)];
        std::string const leftover = PE_REDACTED_LEFTOVER;
        for (auto const &warning : outcome.warnings) {
            if (warning.first >= 0 && !given.insert(warning).second) {
                continue;
            }
            std::string message = warning.second;
            if (warning.first < 0 && message.compare(0, leftover.size(), leftover) == 0) {
                message.insert(leftover.size(), std::to_string(p) + ": "); // which part still holds it
            }
            if (request.warn != nullptr) {
                request.warn(request.warn_context, warning.first, message.c_str());
            }
        }
        dropped.merge(outcome.dropped);
    }
    if (failed != nullptr) {
        current_part = failed->failed_part;
        where = failed->failed_where;
        std::rethrow_exception(failed->failure);
    }
    // Stopped by the caller before every part was written: fail, and the parts
    // written so far are removed as after any failure.
    if (pe_flag_is_raised(request.options == nullptr ? nullptr : request.options->cancel)) {
        throw PlanError("cancelled");
    }
    // One sync per file system (the parts usually share one folder), not one per
    // part; a failure is reported against the last part.
    current_part = part_count - 1;
    std::set<std::string> folders;
    for (int p = 0; p < part_count; ++p) {
        std::string path = parts[p].out_path;
        size_t slash = path.rfind('/');
        if (folders.insert(slash == std::string::npos ? "." : path.substr(0, slash + 1)).second) {
            sync_file_system_of(parts[p].out_path);
        }
    }
    current_part = -1;
    written.paths.clear(); // all written and on disk: keep them
    if (!dropped.empty() && request.warn != nullptr) {
        request.warn(request.warn_context, dropped.source(), dropped.line().c_str());
    }
}

} // namespace pe
