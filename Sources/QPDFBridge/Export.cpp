// pe_export, pe_export_parts, pe_outline_starts: check the plan, open the
// sources (each once per call), and for each output place the pages, then have
// the other steps copy annotations, forms, bookmarks, labels and document data,
// and write the result.
#include "Export.hh"
#include "Stamps.hh"

#include <qpdf/PDFVersion.hh>
#include <qpdf/QPDFWriter.hh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace pe {
namespace {

bool is_empty(char const *text)
{
    return text == nullptr || text[0] == '\0';
}

// A /Rotate value normalised to 0, 90, 180 or 270 (a value that is not a multiple
// of 90 is rounded down to one, as viewers do).
int normalised_rotation(long degrees)
{
    degrees %= 360;
    if (degrees < 0) {
        degrees += 360;
    }
    return static_cast<int>(degrees / 90 * 90);
}

// The page's own /Rotate (inherited values have been pushed down already).
long page_rotation(QPDFObjectHandle page)
{
    QPDFObjectHandle rotate = page.getKey("/Rotate");
    if (rotate.isInteger()) {
        return rotate.getIntValue() % 360;
    }
    if (rotate.isReal()) {
        double value = std::fmod(rotate.getNumericValue(), 360.0);
        return std::lround(value);
    }
    return 0;
}

void set_rotation(QPDFObjectHandle page, long base, int quarter_turns)
{
    int degrees = normalised_rotation(base + 90L * (quarter_turns % 4));
    if (degrees == 0) {
        page.removeKey("/Rotate");
    } else {
        page.replaceKey("/Rotate", QPDFObjectHandle::newInteger(degrees));
    }
}

QPDFObjectHandle number(double value)
{
    double whole;
    if (std::modf(value, &whole) == 0.0 && std::fabs(whole) < 1e9) {
        return QPDFObjectHandle::newInteger(static_cast<long long>(whole));
    }
    return QPDFObjectHandle::newReal(value, 4, true);
}

// The arguments of one bridge call.
struct Request {
    pe_source const *sources;
    int source_count;
    pe_item const *items;
    int item_count;
    pe_export_options const *options;
    pe_warning_fn warn;
    void *warn_context;
    StampList stamps{};
};

// The sources of one bridge call, each opened once, however many outputs use them.
class Inputs {
  public:
    Inputs(Request const &arguments, Where &progress) : request(arguments), where(progress) {}

    Request const &request;
    Where &where;
    std::vector<Source> sources;

    // What can be checked before opening anything.
    void check_plan()
    {
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
            } else if (item.kind == PE_ITEM_BLANK) {
                if (!(std::isfinite(item.width) && std::isfinite(item.height) && item.width > 0 &&
                      item.height > 0)) {
                    throw PlanError(
                        "item " + std::to_string(i + 1) + ": a blank page needs a positive size");
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

    // Refuses an output path that is empty or names a source.
    void check_output(char const *out_path)
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

    // Opens every source that one of items [first, first + count) uses, once,
    // tolerating recoverable damage, and checks that their pages exist.
    void open(int first, int count)
    {
        sources.resize(static_cast<size_t>(request.source_count));
        pe_item const *items = request.items + first;
        for (int i = 0; i < count; ++i) {
            if (items[i].kind == PE_ITEM_PAGE) {
                open_source(items[i].source);
            }
        }
        for (int i = 0; i < count; ++i) {
            if (items[i].kind != PE_ITEM_PAGE) {
                continue;
            }
            int pages = static_cast<int>(sources[static_cast<size_t>(items[i].source)].pages.size());
            if (items[i].page < 0 || items[i].page >= pages) {
                where = Where{items[i].source, items[i].page + 1};
                throw PlanError(
                    "page " + std::to_string(items[i].page + 1) + " does not exist (the file has " +
                        std::to_string(pages) + " pages)",
                    pages);
            }
        }
        for_each_stamp(request.stamps, first, count, [this](pe_stamp const &stamp) {
            open_source(stamp.source);
            check_stamp_page(stamp, sources[static_cast<size_t>(stamp.source)], where);
        });
        where = Where{};
    }

    void forward_all_warnings()
    {
        for (size_t i = 0; i < sources.size(); ++i) {
            if (sources[i].pdf) {
                forward_warnings(
                    *sources[i].pdf, static_cast<int>(i), request.warn, request.warn_context);
            }
        }
    }

    void warn(int source, std::string const &message)
    {
        if (request.warn != nullptr) {
            request.warn(request.warn_context, source, message.c_str());
        }
    }

  private:
    void open_source(int index)
    {
        Source &source = sources[static_cast<size_t>(index)];
        if (source.pdf) {
            return;
        }
        where = Where{index, 0};
        pe_source const &arg = request.sources[index];
        source.label = file_name(arg.path);
        // The given password first, then each alternative: a wrong password is
        // only final once every candidate was refused.
        for (int attempt = 0;; ++attempt) {
            char const *password = attempt == 0 ? arg.password : arg.alternatives[attempt - 1];
            source.pdf = std::make_unique<QPDF>();
            QPDF &candidate = *source.pdf;
            candidate.setSuppressWarnings(true);
            candidate.setAttemptRecovery(true);
            try {
                candidate.processFile(arg.path, is_empty(password) ? "" : password);
                break;
            } catch (QPDFExc &e) {
                bool more = e.getErrorCode() == qpdf_e_password && arg.alternatives != nullptr &&
                    attempt < arg.alternative_count;
                if (!more) {
                    forward_warnings(candidate, index, request.warn, request.warn_context);
                    source.pdf.reset();
                    throw;
                }
            } catch (...) {
                forward_warnings(candidate, index, request.warn, request.warn_context);
                source.pdf.reset();
                throw;
            }
        }
        QPDF &pdf = *source.pdf;
        // Inherited /MediaBox, /CropBox, /Resources, /Rotate onto each page, so
        // that a page looks the same out of its tree; also builds the page list,
        // which is where page-tree damage shows.
        pdf.pushInheritedAttributesToPage();
        source.pages = pdf.getAllPages();
        if (pdf.isEncrypted() && !pdf.allowModifyAssembly()) {
            warn(index, "its permissions do not allow assembling pages; used anyway");
        }
        forward_warnings(pdf, index, request.warn, request.warn_context);
    }
};

// One output: the pages of items [first, first + count) with everything that
// follows them.
class Assembly {
  public:
    Assembly(Inputs &opened, int first, int count) :
        inputs(opened),
        sources(opened.sources),
        where(opened.where),
        items(opened.request.items + first),
        item_count(count)
    {
    }

    void build(Dropped &dropped)
    {
        where = Where{};
        out.setSuppressWarnings(true);
        out.emptyPDF();
        for (Source &source : sources) {
            source.first_copy.clear();
        }
        place_pages();
        apply_stamps(
            out, sources, inputs.request.stamps, static_cast<int>(items - inputs.request.items), placed, where);
        std::vector<CopiedAnnotation> widgets;
        copy_annotations(out, sources, placed, where, widgets);
        build_form(out, sources, widgets, placed, where);
        std::vector<OutlineNode> outline =
            arrange_outline(sources, inputs.request.sources, items, item_count);
        write_outline(out, outline, placed);
        pe_export_options const *options = inputs.request.options;
        write_labels(
            out, sources, items, item_count, options == nullptr ? PE_LABELS_KEEP : options->labels);
        copy_document_data(
            out, sources, items, item_count, placed, options, !outline.empty(), dropped, where);
        where = Where{};
        forward_warnings(out, -1, inputs.request.warn, inputs.request.warn_context);
    }

    // Writes the output to `out_path`; `started` is set once the file may exist.
    void write(char const *out_path, bool &started)
    {
        where = Where{};
        PDFVersion version(1, 3);
        for (Source &source : sources) {
            if (source.pdf) {
                version.updateIfGreater(source.pdf->getVersionAsPDFVersion());
            }
        }
        QPDFWriter writer(out);
        started = true;
        writer.setOutputFilename(out_path);
        writer.setMinimumPDFVersion(version);
        writer.setObjectStreamMode(qpdf_o_generate);
        writer.setCompressStreams(true);
        writer.setLinearization(false);
        pe_export_options const *options = inputs.request.options;
        bool encrypt = options != nullptr && options->user_password != nullptr &&
            options->owner_password != nullptr;
        if (encrypt) {
            writer.setR6EncryptionParameters(
                options->user_password,
                options->owner_password,
                true,
                true,
                true,
                true,
                true,
                true,
                qpdf_r3p_full,
                true);
        } else if (options == nullptr || options->deterministic_id != 0) {
            // qpdf cannot make a deterministic /ID for encrypted output.
            writer.setDeterministicID(true);
        }
        writer.write();
        inputs.forward_all_warnings();
        forward_warnings(out, -1, inputs.request.warn, inputs.request.warn_context);
    }

  private:
    Inputs &inputs;
    std::vector<Source> &sources;
    Where &where;
    pe_item const *items;
    int item_count;
    QPDF out;
    std::vector<PlacedPage> placed;

    void place_pages()
    {
        placed.reserve(static_cast<size_t>(item_count));
        for (int i = 0; i < item_count; ++i) {
            pe_item const &item = items[i];
            QPDFObjectHandle page;
            if (item.kind == PE_ITEM_BLANK) {
                page = blank_page(item);
                placed.push_back(PlacedPage{-1, -1, QPDFObjectHandle(), page, true});
            } else {
                page = copied_page(item);
            }
            out.addPage(page, false);
        }
        where = Where{};
    }

    QPDFObjectHandle blank_page(pe_item const &item)
    {
        where = Where{};
        QPDFObjectHandle page = QPDFObjectHandle::newDictionary();
        page.replaceKey("/Type", QPDFObjectHandle::newName("/Page"));
        page.replaceKey(
            "/MediaBox",
            QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{
                number(0), number(0), number(item.width), number(item.height)}));
        page.replaceKey("/Resources", QPDFObjectHandle::newDictionary());
        set_rotation(page, 0, item.quarter_turns);
        return out.makeIndirectObject(page);
    }

    // The source page as a new page object of the output, without its annotations
    // (copied later, once every page exists). The first copy of a source page is
    // qpdf's copy of it, so that references to the page resolve to it; later
    // copies are shallow copies of that one, sharing contents and resources.
    QPDFObjectHandle copied_page(pe_item const &item)
    {
        Source &source = sources[static_cast<size_t>(item.source)];
        int count = static_cast<int>(source.pages.size());
        where = Where{item.source, item.page + 1};
        if (item.page < 0 || item.page >= count) {
            throw PlanError(
                "page " + std::to_string(item.page + 1) + " does not exist (the file has " +
                    std::to_string(count) + " pages)",
                count);
        }
        QPDFObjectHandle from = source.pages[static_cast<size_t>(item.page)];
        QPDFObjGen og = from.getObjGen();
        auto known = source.first_copy.find(og);
        bool first = known == source.first_copy.end();
        QPDFObjectHandle to;
        if (first) {
            to = copy_without_annotations(out, from);
            source.first_copy.emplace(og, to);
        } else {
            to = out.makeIndirectObject(known->second.shallowCopy());
            to.removeKey("/Annots");
        }
        set_rotation(to, page_rotation(from), item.quarter_turns);
        placed.push_back(PlacedPage{item.source, item.page, from, to, first});
        return to;
    }

    static QPDFObjectHandle copy_without_annotations(QPDF &out, QPDFObjectHandle from)
    {
        if (!from.hasKey("/Annots")) {
            return out.copyForeignObject(from);
        }
        // Copying the page with its /Annots would copy the link targets too, and
        // qpdf maps a page it has not copied yet to null: detach them for now.
        QPDFObjectHandle annots = from.getKey("/Annots");
        from.removeKey("/Annots");
        try {
            QPDFObjectHandle to = out.copyForeignObject(from);
            from.replaceKey("/Annots", annots);
            return to;
        } catch (...) {
            from.replaceKey("/Annots", annots);
            throw;
        }
    }
};

// The files a failed call must not leave behind.
struct Written {
    std::vector<char const *> paths;
    ~Written()
    {
        for (char const *path : paths) {
            std::remove(path);
        }
    }
};

void report_dropped(Inputs &inputs, Dropped const &dropped)
{
    if (!dropped.empty()) {
        inputs.warn(dropped.source(), dropped.line());
    }
}

void export_one(Request const &request, char const *out_path, Where &where, Written &written)
{
    Inputs inputs(request, where);
    inputs.check_plan();
    inputs.check_output(out_path);
    inputs.open(0, request.item_count);
    Dropped dropped;
    Assembly assembly(inputs, 0, request.item_count);
    assembly.build(dropped);
    bool started = false;
    try {
        assembly.write(out_path, started);
    } catch (...) {
        if (started) {
            written.paths.push_back(out_path);
        }
        throw;
    }
    report_dropped(inputs, dropped);
}

void export_parts(
    Request const &request,
    pe_part const *parts,
    int part_count,
    Where &where,
    int &current_part,
    Written &written)
{
    Inputs inputs(request, where);
    inputs.check_plan();
    if (part_count <= 0 || parts == nullptr) {
        throw PlanError("no parts");
    }
    std::set<std::string> paths;
    for (int p = 0; p < part_count; ++p) {
        pe_part const &part = parts[p];
        std::string which = "part " + std::to_string(p + 1);
        if (part.first_item < 0 || part.item_count <= 0 ||
            part.item_count > request.item_count - part.first_item) {
            throw PlanError(which + " has no items or items outside the plan");
        }
        inputs.check_output(part.out_path);
        if (!paths.insert(part.out_path).second) {
            throw PlanError(which + " has the same output path as an earlier part");
        }
    }
    for (int p = 0; p < part_count; ++p) {
        inputs.open(parts[p].first_item, parts[p].item_count);
    }
    Dropped dropped;
    for (int p = 0; p < part_count; ++p) {
        current_part = p;
        Assembly assembly(inputs, parts[p].first_item, parts[p].item_count);
        assembly.build(dropped);
        bool started = false;
        try {
            assembly.write(parts[p].out_path, started);
        } catch (...) {
            if (started) {
                written.paths.push_back(parts[p].out_path);
            }
            throw;
        }
        written.paths.push_back(parts[p].out_path);
    }
    current_part = -1;
    written.paths.clear(); // all written: keep them
    report_dropped(inputs, dropped);
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

pe_status *status_or(pe_status *status, pe_status &fallback)
{
    return status == nullptr ? &fallback : status;
}

} // namespace
} // namespace pe

extern "C" int pe_export(
    pe_source const *sources,
    int source_count,
    pe_item const *items,
    int item_count,
    char const *out_path,
    pe_export_options const *options,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    return pe_export_stamped(
        sources, source_count, items, item_count, nullptr, 0, out_path, options, warn, warn_context, status);
}

extern "C" int pe_export_stamped(
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
    pe_status ignored;
    status = pe::status_or(status, ignored);
    pe::Where where;
    pe::Written written; // removed when the export fails
    try {
        pe::export_one(
            pe::Request{
                sources, source_count, items, item_count, options, warn, warn_context, {stamps, stamp_count}},
            out_path,
            where,
            written);
    } catch (...) {
        return pe::record_current_exception(status, where, sources, source_count);
    }
    pe::set_status(status, PE_OK, pe::Where{}, "");
    return PE_OK;
}

extern "C" int pe_export_parts(
    pe_source const *sources,
    int source_count,
    pe_item const *items,
    int item_count,
    pe_part const *parts,
    int part_count,
    pe_export_options const *options,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    return pe_export_parts_stamped(
        sources, source_count, items, item_count, nullptr, 0, parts, part_count, options, warn, warn_context,
        status);
}

extern "C" int pe_export_parts_stamped(
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
    pe_status ignored;
    status = pe::status_or(status, ignored);
    pe::Where where;
    int current_part = -1;
    int code = PE_OK;
    pe::Written written; // removed when the export fails
    try {
        pe::export_parts(
            pe::Request{
                sources, source_count, items, item_count, options, warn, warn_context, {stamps, stamp_count}},
            parts,
            part_count,
            where,
            current_part,
            written);
    } catch (...) {
        code = pe::record_current_exception(status, where, sources, source_count);
    }
    if (code == PE_OK) {
        pe::set_status(status, PE_OK, pe::Where{}, "");
    } else if (status->source_index < 0 && current_part >= 0) {
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
    pe_status ignored;
    status = pe::status_or(status, ignored);
    pe::Where where;
    try {
        pe::outline_starts(
            pe::Request{sources, source_count, items, item_count, nullptr, nullptr, nullptr},
            each,
            context,
            where);
    } catch (...) {
        return pe::record_current_exception(status, where, sources, source_count);
    }
    pe::set_status(status, PE_OK, pe::Where{}, "");
    return PE_OK;
}
