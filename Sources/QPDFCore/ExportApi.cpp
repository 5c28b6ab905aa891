// The extern "C" entry points of exports (pe_export, pe_export_parts,
// pe_outline_starts) and of opened documents (pe_document_open,
// pe_document_check_page, pe_document_close); the readers of an opened document
// are in Reader.cpp, pe_write_image_page in ImagePage.cpp. Each runs its work
// through `guarded` (Status.hh), the one place where an exception becomes a
// pe_status.
#include "Appended.hh"
#include "Assembly.hh"
#include "Encryption.hh"
#include "InPlace.hh"
#include "Inputs.hh"
#include "Limits.hh"
#include "Parts.hh"
#include "Timing.hh"
#include "WholeFile.hh"
#include "Writer.hh"

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

namespace pe {

namespace {

// pe_keep_closed_documents's choice, and what is kept: reachable, so leak
// checkers do not report them.
std::atomic<bool> keep_closed{false};
std::mutex kept_mutex;
std::vector<pe_document *> kept;
// The last document closed that pe_document_free_on_close marked: kept until
// exit, freed when the next such one is closed.
pe_document *kept_transient = nullptr;
std::vector<std::shared_ptr<QPDF>> *kept_outputs = new std::vector<std::shared_ptr<QPDF>>; // never destroyed

// Keeps `pdf` alive until the process exits: destroying a QPDF walks and frees
// every object it read or made (a tenth of merging ten 2,000-page files), which
// a one-command process's exit does for free. Only for what a process makes a
// bounded number of times (one output per direct-mode command).
void keep_until_exit(std::shared_ptr<QPDF> pdf)
{
    std::lock_guard<std::mutex> lock(kept_mutex);
    kept_outputs->push_back(std::move(pdf));
}

void report_dropped(Inputs &inputs, Dropped const &dropped)
{
    if (!dropped.empty()) {
        inputs.warn(dropped.source(), dropped.line());
    }
}

// Runs write(started); when it throws after setting `started` (the file may
// exist), `out_path` is left to `written` to remove.
template <typename Write>
void write_or_remove(char const *out_path, Written &written, Write write)
{
    bool started = false;
    try {
        write(started);
    } catch (...) {
        if (started) {
            written.paths.push_back(out_path);
        }
        throw;
    }
}

// The strategies the caller gave (pe_export_options.strategies), after
// checking that the plan is what they are given for: one source's plain pages,
// no stamps. The caller decided them from the edit; this is its contract, not a
// second decision (a plan that breaks it is a bug: PE_E_INTERNAL).
int given_strategies(Request const &request)
{
    int strategies = request.options == nullptr ? 0 : request.options->strategies;
    if (strategies == 0) {
        return 0;
    }
    bool one_source_pages = request.stamps.count == 0;
    for (int i = 0; one_source_pages && i < request.item_count; ++i) {
        pe_item const &item = request.items[i];
        one_source_pages = item.kind == PE_ITEM_PAGE && item.source == request.items[0].source &&
            item.boxes == nullptr && item.resize == nullptr;
    }
    if (!one_source_pages) {
        throw std::logic_error("pe_export: a strategy other than copying for a plan that is not one source's pages");
    }
    return strategies;
}

// One output, written by the first strategy the caller allows that the file
// can take (the source with an update appended, then rearranged in place),
// else assembled by copying.
void export_one(Request const &request, char const *out_path, Where &where, Written &written)
{
    Inputs inputs(request, where);
    inputs.check_plan();
    int strategies = given_strategies(request);
    inputs.check_output(out_path);
    inputs.open(0, request.item_count);
    note_decrypted(inputs, 0, request.item_count);
    Dropped dropped;
    if ((strategies & PE_STRATEGY_APPENDED_UPDATE) != 0) {
        std::string why;
        if (std::unique_ptr<Appended> appended = Appended::for_file(inputs, &why)) {
            PhaseClock strategy(Phase::appended); // with PDFEDIT_TIMING: says which way the file was written
            appended->build(dropped);
            write_or_remove(out_path, written, [&](bool &started) { appended->write(out_path, started); });
            report_dropped(inputs, dropped);
            inputs.warn(request.items[0].source, PE_WARNING_APPENDED);
            return;
        }
        if ((strategies & PE_STRATEGY_REQUIRED) != 0) {
            where.source = request.items[0].source;
            throw PlanError(PE_MESSAGE_NOT_APPENDED + why);
        }
    }
    if ((strategies & PE_STRATEGY_WHOLE_FILE) != 0 && inputs.sources[static_cast<size_t>(request.items[0].source)].pdf) {
        PhaseClock strategy(Phase::whole_file);
        // The caller's contract (PE_STRATEGY_WHOLE_FILE): every page, in order, unturned.
        Source const &source = inputs.sources[static_cast<size_t>(request.items[0].source)];
        bool whole_plan = static_cast<size_t>(request.item_count) == source.pages.size();
        for (int i = 0; whole_plan && i < request.item_count; ++i) {
            whole_plan = request.items[i].page == i && request.items[i].quarter_turns % 4 == 0;
        }
        if (!whole_plan) {
            throw std::logic_error("pe_export: the whole file written for a plan that is not every page in order");
        }
        WholeFile whole(inputs, request.items[0].source);
        whole.build(dropped);
        write_or_remove(out_path, written, [&](bool &started) { whole.write(out_path, started); });
        report_dropped(inputs, dropped);
        return;
    }
    int in_place = (strategies & PE_STRATEGY_IN_PLACE) != 0 ? InPlace::for_file(inputs) : -1;
    if (in_place >= 0) {
        PhaseClock strategy(Phase::in_place);
        InPlace rearranged(inputs, in_place);
        rearranged.build(dropped);
        write_or_remove(out_path, written, [&](bool &started) { rearranged.write(out_path, started); });
        report_dropped(inputs, dropped); // a given bookmark's script at most: the catalog holds nothing else
        return;
    }
    Assembly assembly(inputs, 0, request.item_count);
    assembly.build(dropped);
    assembly.release_sources();
    write_or_remove(out_path, written, [&](bool &started) { assembly.write(out_path, started, true, true); });
    report_dropped(inputs, dropped);
    if (closed_documents_are_kept() && inputs.last_use_of_caller_documents()) {
        // Direct mode's one export: its sources are kept until exit anyway;
        // so is the output (a session's `export --all` writes several and
        // frees each).
        keep_until_exit(assembly.output());
    }
}

void outline_starts(Request const &request, pe_outline_fn each, void *context, Where &where)
{
    Inputs inputs(request, where);
    inputs.check_plan();
    inputs.open(0, request.item_count);
    std::vector<OutlineNode> outline =
        arrange_outline(inputs.sources, request.sources, request.items, request.item_count);
    where = Where{};
    if (each == nullptr) {
        return;
    }
    for (OutlineNode const &node : outline) {
        if (node.first_item >= 0) {
            each(context, node.title_utf8.c_str(), node.first_item);
        }
    }
}

// pe_document_open's warnings: qpdf's full text, as no source's.
void pass_on_open_warnings(pe_document &document, pe_warning_fn warn, void *warn_context)
{
    if (!document.source.pdf) {
        return;
    }
    for (QPDFExc const &warning : document.source.pdf->getWarnings()) {
        if (warn != nullptr) {
            warn(warn_context, -1, warning.what());
        }
    }
}

} // namespace
} // namespace pe

extern "C" int pe_export(
    pe_source const *sources,
    int source_count,
    pe_item const *items,
    int item_count,
    pe_stamp const *stamps,
    int stamp_count,
    char const *out_path,
    pe_export_options const *options,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    pe::TimedExport timed(options);
    return pe::guarded(status, sources, source_count, [&](pe::Where &where) {
        pe::Written written; // removed when the export fails
        pe::export_one(
            pe::Request{
                sources, source_count, items, item_count, options, warn, warn_context, {stamps, stamp_count}},
            out_path,
            where,
            written);
    });
}

extern "C" int pe_export_parts(
    pe_source const *sources,
    int source_count,
    pe_item const *items,
    int item_count,
    pe_stamp const *stamps,
    int stamp_count,
    pe_part const *parts,
    int part_count,
    pe_export_options const *options,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    pe::TimedExport timed(options);
    // Parts are written on several threads: none fills the one compress report.
    pe_export_options part_options{};
    if (options != nullptr) {
        part_options = *options;
        part_options.compress_report = nullptr;
    }
    int current_part = -1;
    int code = pe::guarded(status, sources, source_count, [&](pe::Where &where) {
        pe::Written written; // removed when the export fails
        pe::export_parts(
            pe::Request{
                sources, source_count, items, item_count, options != nullptr ? &part_options : nullptr, warn,
                warn_context, {stamps, stamp_count}},
            parts,
            part_count,
            where,
            current_part,
            written);
    });
    if (code != PE_OK && status != nullptr && status->source_index < 0 && current_part >= 0) {
        status->page = current_part + 1; // the part whose output failed
    }
    return code;
}

extern "C" int pe_outline_starts(
    pe_source const *sources,
    int source_count,
    pe_item const *items,
    int item_count,
    pe_outline_fn each,
    void *context,
    pe_status *status)
{
    return pe::guarded(status, sources, source_count, [&](pe::Where &where) {
        pe::outline_starts(
            pe::Request{sources, source_count, items, item_count, nullptr, nullptr, nullptr}, each, context, where);
    });
}

extern "C" int pe_document_open(
    char const *path,
    char const *password,
    int use,
    pe_document **document,
    int *page_count,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    if (document != nullptr) {
        *document = nullptr;
    }
    return pe::reading(status, [&](pe::Where &) {
        auto made = std::make_unique<pe_document>();
        try {
            pe::require(path != nullptr && document != nullptr, "pe_document_open: no path or no result");
            made->for_export = use != PE_OPEN_READ;
            pe::open_source_file(made->source, path, password, made->for_export);
        } catch (...) {
            pe::pass_on_open_warnings(*made, warn, warn_context);
            throw;
        }
        pe::pass_on_open_warnings(*made, warn, warn_context);
        if (page_count != nullptr) {
            *page_count = static_cast<int>(made->source.pages.size());
        }
        *document = made.release();
    });
}

extern "C" int pe_document_check_page(
    pe_document *document, int page, long long max_stream_bytes, long long max_pixels, long long max_operators,
    pe_page_check *result, pe_status *status)
{
    return pe::guarded(status, nullptr, 0, [&](pe::Where &where) {
        where = pe::Where{-1, page + 1};
        if (document == nullptr || !document->source.pdf || page < 0 ||
            static_cast<size_t>(page) >= document->source.pages.size()) {
            throw pe::PlanError("no such page");
        }
        pe::PageLimits limits{max_stream_bytes, max_pixels, max_operators};
        pe::PageWork work = pe::check_page_for_reader(
            document->source.pages[static_cast<size_t>(page)], limits, document->reader_checked,
            document->reader_forms);
        if (result != nullptr) {
            result->largest_image = work.largest_image;
            result->operators = work.operators;
            result->skipped = work.skipped ? 1 : 0;
        }
        document->source.pdf->getWarnings(); // decoding damage is poppler's to report
    });
}

bool pe::closed_documents_are_kept()
{
    return pe::keep_closed;
}

extern "C" const char *pe_qpdf_version(void)
{
    static const std::string version = QPDF::QPDFVersion();
    return version.c_str();
}

extern "C" void pe_keep_closed_documents(int keep)
{
    pe::keep_closed = keep != 0;
}

extern "C" void pe_document_free_on_close(pe_document *document)
{
    if (document != nullptr) {
        document->free_on_close = true;
    }
}

extern "C" void pe_document_close(pe_document *document)
{
    if (document != nullptr && pe::keep_closed) {
        std::lock_guard<std::mutex> lock(pe::kept_mutex);
        if (document->free_on_close) {
            // One of the documents a process may open in turn (a session's
            // `export --all`): only the last is left to the exit.
            delete std::exchange(pe::kept_transient, document);
            return;
        }
        pe::kept.push_back(document);
        return;
    }
    delete document;
}

