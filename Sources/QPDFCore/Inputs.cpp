// The inputs of an export: what can be checked in the plan before opening
// anything, opening each source once (a pe_document the caller opened, or the
// file with its password and then each alternative), the pages the plan names,
// and passing on the warnings qpdf collected.
#include "Inputs.hh"

#include "Limits.hh"
#include "Placement.hh"
#include "Timing.hh"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace pe {

void Inputs::check_plan()
{
    PhaseClock clock(Phase::plan);
    where = Where{};
    if (request.source_count < 0 || (request.source_count > 0 && request.sources == nullptr)) {
        throw PlanError("invalid source list");
    }
    if (request.item_count <= 0 || request.items == nullptr) {
        throw PlanError("nothing to export: no pages");
    }
    for (int i = 0; i < request.source_count; ++i) {
        if (is_empty(request.sources[i].path)) {
            where = Where{i, 0};
            throw PlanError("source without a path");
        }
    }
    for (int i = 0; i < request.item_count; ++i) {
        pe_item const &item = request.items[i];
        if (item.kind == PE_ITEM_PAGE) {
            if (item.source < 0 || item.source >= request.source_count) {
                throw PlanError("item " + std::to_string(i + 1) + " names no source");
            }
            pe_resize const *resize = resize_of(item);
            if (resize != nullptr &&
                !(std::isfinite(resize->width) && std::isfinite(resize->height) && std::isfinite(resize->user_unit) &&
                  resize->user_unit >= 1 && is_finite(resize->placement))) {
                throw PlanError("item " + std::to_string(i + 1) + ": a resize without a usable size or placement");
            }
        } else if (item.kind == PE_ITEM_BLANK || item.kind == PE_ITEM_SHEET) {
            if (!(std::isfinite(item.width) && std::isfinite(item.height) && item.width > 0 && item.height > 0)) {
                throw PlanError("item " + std::to_string(i + 1) + ": a blank page needs a positive size");
            }
            if (!(std::isfinite(item.user_unit) && item.user_unit >= 1)) {
                throw PlanError("item " + std::to_string(i + 1) + ": a new page needs a user unit of at least 1");
            }
            if (item.kind == PE_ITEM_SHEET) {
                check_sheet_cells(item, i, request.source_count);
            }
        } else {
            throw PlanError("item " + std::to_string(i + 1) + " has an unknown kind");
        }
    }
    check_stamps(request.stamps, request.source_count, request.item_count);
    int labels = request.options == nullptr ? PE_LABELS_KEEP : request.options->labels;
    if (labels != PE_LABELS_KEEP && labels != PE_LABELS_RENUMBER && labels != PE_LABELS_NONE) {
        throw PlanError("unknown page label mode");
    }
}

void Inputs::check_output(char const *out_path)
{
    if (is_empty(out_path)) {
        throw PlanError("no output path");
    }
    for (int i = 0; i < request.source_count; ++i) {
        if (std::strcmp(request.sources[i].path, out_path) == 0) {
            where = Where{i, 0};
            throw PlanError("the output would overwrite this input");
        }
    }
}

bool Inputs::last_use_of_caller_documents() const
{
    for (size_t i = 0; i < sources.size(); ++i) {
        pe_source const &arg = request.sources[i];
        if (sources[i].pdf && (arg.document == nullptr || arg.document_last_use == 0 || arg.document->free_on_close)) {
            return false;
        }
    }
    return true;
}

void Inputs::open(int first, int count)
{
    PhaseClock clock(Phase::open);
    sources.resize(static_cast<size_t>(request.source_count));
    pe_item const *items = request.items + first;
    for (int i = 0; i < count; ++i) {
        if (items[i].kind == PE_ITEM_PAGE) {
            open_source(items[i].source);
        }
        if (items[i].kind == PE_ITEM_SHEET) {
            open_sheet_sources(items[i]);
        }
    }
    for (int i = 0; i < count; ++i) {
        if (items[i].kind == PE_ITEM_PAGE) {
            check_page(items[i].source, items[i].page);
        }
    }
    long long limit = request.options == nullptr ? 0 : request.options->max_stream_bytes;
    for_each_stamp(request.stamps, first, count, [this, limit](pe_stamp const &stamp) {
        if (stamp.text != nullptr) {
            return; // a generated text reads no source
        }
        open_source(stamp.source);
        Source &source = sources[static_cast<size_t>(stamp.source)];
        check_page(stamp.source, stamp.page);
        // The stamp's form XObject is its page's contents inflated (in memory,
        // by the writer): bounded before anything is written.
        where = Where{stamp.source, stamp.page + 1};
        check_page_contents(source.pages[static_cast<size_t>(stamp.page)], limit);
    });
    where = Where{};
}

void Inputs::check_page(int source, int page)
{
    int pages = static_cast<int>(sources[static_cast<size_t>(source)].pages.size());
    if (page < 0 || page >= pages) {
        where = Where{source, page + 1};
        throw PlanError(
            "page " + std::to_string(page + 1) + " does not exist (the file has " + std::to_string(pages) + " pages)",
            pages);
    }
}

void Inputs::forward_all_warnings()
{
    for (size_t i = 0; i < sources.size(); ++i) {
        if (sources[i].pdf) {
            forward_warnings(*sources[i].pdf, static_cast<int>(i), request.warn, request.warn_context);
        }
    }
}

void Inputs::forward_output_warnings(QPDF &out)
{
    forward_warnings(out, -1, request.warn, request.warn_context, file_names);
}

void Inputs::warn(int source, std::string const &message)
{
    if (request.warn != nullptr) {
        request.warn(request.warn_context, source, message.c_str());
    }
}

void Inputs::open_source(int index)
{
    Source &source = sources[static_cast<size_t>(index)];
    if (source.pdf) {
        return;
    }
    where = Where{index, 0};
    pe_source const &arg = request.sources[index];
    source.label = file_name(arg.path);
    source.modified = file_modified(arg.dated_path != nullptr ? arg.dated_path : arg.path);
    if (arg.document != nullptr) {
        if (!arg.document->for_export) {
            throw std::logic_error("a document opened for reading only was given to an export");
        }
        Source const &opened = arg.document->source;
        source.pdf = opened.pdf;
        source.pages = opened.pages;
        source.frames = opened.frames;
        source.page_frame = opened.page_frame;
        source.version = opened.version;
        source.object_streams = opened.object_streams;
        source.xref = opened.xref;
        source.opened_clean = opened.opened_clean;
    } else {
        // The given password first, then each alternative: a wrong password is
        // only final once every candidate was refused.
        for (int attempt = 0;; ++attempt) {
            char const *password = attempt == 0 ? arg.password : arg.alternatives[attempt - 1];
            try {
                open_source_file(source, arg.path, is_empty(password) ? "" : password);
                break;
            } catch (QPDFExc &e) {
                bool more = e.getErrorCode() == qpdf_e_password && arg.alternatives != nullptr &&
                    attempt < arg.alternative_count;
                if (!more) {
                    forward_source_warnings(source, index);
                    source.pdf.reset();
                    throw;
                }
                source.pdf.reset();
            } catch (...) {
                forward_source_warnings(source, index);
                source.pdf.reset();
                throw;
            }
        }
    }
    QPDF &pdf = *source.pdf;
    file_names.resize(sources.size());
    file_names[static_cast<size_t>(index)] = pdf.getFilename();
    if (pdf.isEncrypted() && !pdf.allowModifyAssembly()) {
        warn(index, "its permissions do not allow assembling pages; used anyway");
    }
    forward_warnings(pdf, index, request.warn, request.warn_context);
}

void Inputs::forward_source_warnings(Source &source, int index)
{
    if (source.pdf) {
        forward_warnings(*source.pdf, index, request.warn, request.warn_context);
    }
}

namespace {

// A whole number of at most nine digits at text[at...], moving `at` past it; -1
// when there is none or it is longer.
int small_number(std::string const &text, size_t &at)
{
    size_t start = at;
    int value = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 9) {
        value = value * 10 + (text[at] - '0');
        ++at;
    }
    bool ended = at == text.size() || text[at] < '0' || text[at] > '9';
    return at > start && ended ? value : -1;
}

} // namespace

PDFVersion pdf_version(std::string const &header_version, int extension_level)
{
    size_t at = 0;
    while (at < header_version.size() && std::strchr(" \t\n\v\f\r", header_version[at]) != nullptr &&
           header_version[at] != '\0') {
        ++at;
    }
    int major = small_number(header_version, at);
    if (major >= 0 && at < header_version.size() && header_version[at] == '.') {
        ++at;
        int minor = small_number(header_version, at);
        if (minor >= 0) {
            return PDFVersion(major, minor, extension_level);
        }
    }
    return PDFVersion(1, 3, extension_level);
}

void open_source_file(Source &source, char const *path, char const *password, bool for_export)
{
    source.pdf = std::make_shared<QPDF>();
    QPDF &pdf = *source.pdf;
    pdf.setSuppressWarnings(true);
    pdf.setAttemptRecovery(true);
    open_pdf(pdf, path, password == nullptr ? "" : password);
    std::map<QPDFObjGen, QPDFXRefEntry> table = pdf.getXRefTable();
    // The page list is where page-tree damage shows. Inherited /MediaBox,
    // /CropBox, /Resources and /Rotate are found once here and given to each
    // copied page (inherit_attributes), so that a page looks the same out of its
    // tree.
    check_page_tree_depth(pdf);
    check_tree_depths(pdf);
    source.pages = pdf.getAllPages();
    if (!for_export) {
        return;
    }
    check_pages_are_dictionaries(pdf, source.pages);
    source.find_inherited();
    source.version = pdf_version(pdf.getPDFVersion(), pdf.getExtensionLevel());
    for (auto const &entry : table) {
        if (entry.second.getType() == 2) {
            source.object_streams = true;
        } else if (entry.second.getType() == 1) {
            source.xref.lowest_offset = std::min(source.xref.lowest_offset, entry.second.getOffset());
            source.xref.highest_offset = std::max(source.xref.highest_offset, entry.second.getOffset());
        }
    }
    source.xref.object_bound = object_number_bound(pdf, table.empty() ? 0 : table.rbegin()->first.getObj());
    source.opened_clean = !pdf.anyWarnings();
}

} // namespace pe
