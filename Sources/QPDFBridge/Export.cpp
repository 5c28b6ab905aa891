// pe_export, pe_export_parts, pe_outline_starts: check the plan, open the
// sources (each once per call), and for each output place the pages, then have
// the other steps copy annotations, forms, bookmarks, labels and document data,
// and write the result.
#include "Export.hh"

#include "CheckedFile.hh"
#include "Geometry.hh"
#include "Limits.hh"
#include "Stamps.hh"

#include <qpdf/PDFVersion.hh>
#include <qpdf/QPDFSystemError.hh>
#include <qpdf/QPDFWriter.hh>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <sched.h>
#include <system_error>
#include <thread>
#include <cstring>
#include <stdexcept>
#include <string>

struct pe_document {
    pe::Source source;
    // Shared streams (fonts, forms) pe_document_check_page already inflated.
    std::set<QPDFObjGen> reader_checked;
};

namespace pe {
namespace {

// Outputs with fewer pages are written without object streams.
constexpr size_t object_stream_minimum = 16;

bool is_empty(char const *text)
{
    return text == nullptr || text[0] == '\0';
}

// The page's displayed rotation: from its own /Rotate, else the one it inherits
// (`inherited`, may be nullptr).
int page_rotation(QPDFObjectHandle page, InheritedFrame const *inherited)
{
    QPDFObjectHandle rotate = page.getKey("/Rotate");
    if (!page.hasKey("/Rotate") && inherited != nullptr &&
        inherited->values[inherited_rotate].isInitialized()) {
        rotate = inherited->values[inherited_rotate];
    }
    return displayed_rotation(rotate);
}

void set_rotation(QPDFObjectHandle page, int base, int quarter_turns)
{
    int degrees = turned_rotation(base, quarter_turns);
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

// Writes `pdf` (an output of `pages` pages) to `out_path` with the export's
// settings; `started` is set once the file may exist. `sync`: fsync the file
// (else the caller syncs its file system once, after writing many).
void write_output(
    QPDF &pdf,
    char const *out_path,
    PDFVersion const &minimum,
    size_t pages,
    bool object_streams,
    pe_export_options const *options,
    bool &started,
    bool sync,
    bool report)
{
    QPDFWriter writer(pdf);
    if (report && options != nullptr && options->progress != nullptr) {
        auto progress = options->progress;
        void *context = options->progress_context;
        writer.registerProgressReporter(std::make_shared<QPDFWriter::FunctionProgressReporter>(
            [progress, context](int percent) { progress(context, percent, 100); }));
    }
    started = true;
    // Not setOutputFilename: see CheckedFile for why qpdf's file output is not used.
    CheckedFile file(out_path, sync);
    writer.setOutputPipeline(&file);
    writer.setMinimumPDFVersion(minimum);
    // Object streams when a source has them, as qpdf's default (preserve) keeps
    // them, and the output is not tiny. They make a large output about half as
    // big (20,000 pages: 2.7 MB instead of 6.1 MB) but cost a tenth of the time of
    // writing it, and two zlib streams per file, which was most of the time of
    // writing a one-page part of a split.
    writer.setObjectStreamMode(
        object_streams && pages >= object_stream_minimum ? qpdf_o_generate : qpdf_o_disable);
    writer.setCompressStreams(true);
    writer.setLinearization(false);
    bool encrypt =
        options != nullptr && options->user_password != nullptr && options->owner_password != nullptr;
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
    file.close();
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
        long long limit = request.options == nullptr ? 0 : request.options->max_stream_bytes;
        for_each_stamp(request.stamps, first, count, [this, limit](pe_stamp const &stamp) {
            open_source(stamp.source);
            Source &source = sources[static_cast<size_t>(stamp.source)];
            check_stamp_page(stamp, source, where);
            // The stamp's form XObject is its page's contents inflated (in memory,
            // by the writer): bounded before anything is written.
            where = Where{stamp.source, stamp.page + 1};
            check_page_contents(source.pages[static_cast<size_t>(stamp.page)], limit);
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

    // The output's warnings: damage in a source met while copying or writing is
    // that source's (see forward_warnings).
    void forward_output_warnings(QPDF &out)
    {
        forward_warnings(out, -1, request.warn, request.warn_context, file_names);
    }

    void warn(int source, std::string const &message)
    {
        if (request.warn != nullptr) {
            request.warn(request.warn_context, source, message.c_str());
        }
    }

  private:
    // The name qpdf knows each opened source by (its warnings carry it).
    std::vector<std::string> file_names;

    void open_source(int index)
    {
        Source &source = sources[static_cast<size_t>(index)];
        if (source.pdf) {
            return;
        }
        where = Where{index, 0};
        pe_source const &arg = request.sources[index];
        source.label = file_name(arg.path);
        if (arg.document != nullptr) {
            Source const &opened = arg.document->source;
            source.pdf = opened.pdf;
            source.pages = opened.pages;
            source.frames = opened.frames;
            source.page_frame = opened.page_frame;
            source.version = opened.version;
            source.object_streams = opened.object_streams;
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

    void forward_source_warnings(Source &source, int index)
    {
        if (source.pdf) {
            forward_warnings(*source.pdf, index, request.warn, request.warn_context);
        }
    }
};

} // namespace

void open_source_file(Source &source, char const *path, char const *password)
{
    source.pdf = std::make_shared<QPDF>();
    QPDF &pdf = *source.pdf;
    pdf.setSuppressWarnings(true);
    pdf.setAttemptRecovery(true);
    open_pdf(pdf, path, password == nullptr ? "" : password);
    check_page_tree_depth(pdf);
    check_tree_depths(pdf);
    // The page list is where page-tree damage shows. Inherited /MediaBox,
    // /CropBox, /Resources and /Rotate are found once here and given to each
    // copied page (Assembly::inherit), so that a page looks the same out of its
    // tree.
    source.pages = pdf.getAllPages();
    check_pages_are_dictionaries(pdf, source.pages);
    source.find_inherited();
    source.version = pdf.getVersionAsPDFVersion();
    for (auto const &entry : pdf.getXRefTable()) {
        if (entry.second.getType() == 2) {
            source.object_streams = true;
            break;
        }
    }
}

namespace {

// The object made for each inherited value (by the /Pages node that holds it and
// which attribute it is), so that the pages inheriting it share one.
using SharedInherited = std::map<std::pair<QPDFObjGen, int>, QPDFObjectHandle>;

// Sets on `page` the inherited /MediaBox, /CropBox and /Resources that `own` (the
// page as its source has it) does not override; /Rotate is set by set_rotation.
// Like qpdf's pushInheritedAttributesToPage, but a value is made by `make(value)`
// once, the first time a page needs it, and then shared through `shared`.
template <typename Make>
void inherit_attributes(
    QPDFObjectHandle page, QPDFObjectHandle own, InheritedFrame const *inherited, SharedInherited &shared, Make make)
{
    if (inherited == nullptr) {
        return;
    }
    for (int k = 0; k < inheritable_count; ++k) {
        QPDFObjectHandle value = inherited->values[k];
        if (k == inherited_rotate || !value.isInitialized() || own.hasKey(inheritable_keys[k])) {
            continue;
        }
        auto key = std::make_pair(inherited->holders[k], k);
        auto known = shared.find(key);
        if (known == shared.end()) {
            known = shared.emplace(key, make(value)).first;
        }
        page.replaceKey(inheritable_keys[k], known->second);
    }
}

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
        inputs.forward_output_warnings(out);
    }

    // Frees what was read from the sources once the output holds its copies (a
    // third less memory at 20,000 pages): copied streams read their data from
    // the source files through qpdf's ForeignStreamData, which keeps the input
    // and the decryption parameters but not the source's objects. A document the
    // caller opened (pe_document) is freed too when this call is its last use.
    // Only for an output written on its own: the parts of a split share the
    // sources.
    void release_sources()
    {
        if (inputs.request.stamps.count > 0) {
            // A stamp's form XObject is made in its source with qpdf's content
            // provider, which reads the source's page when the output is written.
            return;
        }
        version = output_version();
        versioned = true;
        placed.clear();
        for (size_t i = 0; i < sources.size(); ++i) {
            Source &source = sources[i];
            if (!source.pdf) {
                continue;
            }
            pe_source const &arg = inputs.request.sources[i];
            if (arg.document != nullptr) {
                if (arg.document_last_use == 0) {
                    continue; // the caller uses it again
                }
                arg.document->source = Source{};
            }
            source = Source{};
        }
    }

    // Writes the output to `out_path`; `started` is set once the file may exist.
    // `sync`: fsync the file (else the caller syncs its file system later).
    // `report`: tell options->progress how far the writing got (one output on
    // its own; a split reports parts instead).
    void write(char const *out_path, bool &started, bool sync, bool report)
    {
        where = Where{};
        PDFVersion minimum = versioned ? version : output_version();
        write_output(
            out, out_path, minimum, placed_count, object_streams, inputs.request.options, started, sync, report);
        inputs.forward_all_warnings();
        inputs.forward_output_warnings(out);
    }

  private:
    Inputs &inputs;
    std::vector<Source> &sources;
    Where &where;
    pe_item const *items;
    int item_count;
    QPDF out;
    std::vector<PlacedPage> placed;
    PDFVersion version; // of the output, once release_sources ran
    bool versioned = false;
    size_t placed_count = 0; // pages of the output (placed is cleared by release_sources)

    bool object_streams = false; // a source of its pages has object streams (place_pages)

    PDFVersion output_version() const
    {
        PDFVersion result(1, 3);
        for (Source const &source : sources) {
            if (source.pdf) {
                result.updateIfGreater(source.version);
            }
        }
        if (needs_user_unit) {
            result.updateIfGreater(PDFVersion(1, 6)); // /UserUnit is PDF 1.6
        }
        return result;
    }
    // Inherited values already in `out`, by the /Pages node holding them and key.
    SharedInherited shared_values;
    bool needs_user_unit = false; // a blank page was given a /UserUnit

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
        placed_count = placed.size();
        // From this output's own pages only (the same whichever thread writes a
        // part, whatever else that thread has opened).
        for (int i = 0; i < item_count && !object_streams; ++i) {
            object_streams = items[i].kind == PE_ITEM_PAGE &&
                sources[static_cast<size_t>(items[i].source)].object_streams;
        }
        where = Where{};
    }

    QPDFObjectHandle blank_page(pe_item const &item)
    {
        where = Where{};
        QPDFObjectHandle page = QPDFObjectHandle::newDictionary();
        page.replaceKey("/Type", QPDFObjectHandle::newName("/Page"));
        // A side over the readers' limit is written with a /UserUnit, in units.
        double unit = pe_user_unit_for(item.width, item.height);
        page.replaceKey(
            "/MediaBox",
            QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{
                number(0), number(0), number(item.width / unit), number(item.height / unit)}));
        if (unit != 1) {
            page.replaceKey("/UserUnit", number(unit));
            needs_user_unit = true;
        }
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
        InheritedFrame const *inherited = source.inherited(item.page);
        if (first) {
            to = copy_without_annotations(out, from);
            inherit(to, from, inherited);
            source.first_copy.emplace(og, to);
        } else {
            to = out.makeIndirectObject(known->second.shallowCopy());
            to.removeKey("/Annots");
        }
        set_rotation(to, page_rotation(from, inherited), item.quarter_turns);
        placed.push_back(PlacedPage{item.source, item.page, from, to, first});
        return to;
    }

    // The inherited attributes `from` does not override, onto its copy `to`; an
    // array or dictionary several pages inherit becomes one indirect object of the
    // output they share.
    void inherit(QPDFObjectHandle to, QPDFObjectHandle from, InheritedFrame const *inherited)
    {
        inherit_attributes(to, from, inherited, shared_values, [this](QPDFObjectHandle value) {
            if (value.isIndirect()) {
                return copy_foreign(out, value);
            }
            if (value.isArray() || value.isDictionary()) {
                return out.makeIndirectObject(import_direct(out, value));
            }
            return fresh_copy(value);
        });
    }

    static QPDFObjectHandle copy_without_annotations(QPDF &out, QPDFObjectHandle from)
    {
        if (!from.hasKey("/Annots")) {
            return copy_foreign(out, from);
        }
        // Copying the page with its /Annots would copy the link targets too, and
        // qpdf maps a page it has not copied yet to null: detach them for now.
        QPDFObjectHandle annots = from.getKey("/Annots");
        from.removeKey("/Annots");
        try {
            QPDFObjectHandle to = copy_foreign(out, from);
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

// One output made by rearranging its only source where it is, then writing that
// source: its pages become the output's page tree, in item order, with the
// inherited attributes and rotations a copy would get; a page used again is a
// shallow copy of its first use, as Assembly makes it. Nothing is copied: moving
// 3 pages of a 20,000-page file took 0.65 s and 111 MB instead of 1.05 s and
// 151 MB. Only for what the copying path would carry over the same way
// (in_place_source); everything else is copied by Assembly.
class InPlace {
  public:
    InPlace(Inputs &opened, int s) :
        inputs(opened), source(opened.sources[static_cast<size_t>(s)]), where(opened.where)
    {
    }

    // The source of a plan that can be written in place, or -1: one source for
    // every item, pages only (no blank pages, no stamps), most of the source's
    // pages, not encrypted, owned by this call (or a document at its last use),
    // none of the used pages with annotations, article beads or page actions (they
    // point at other pages, which copying would cut), and a catalog of entries
    // copying carries the same way (catalog_allows_in_place).
    static int in_place_source(Inputs &inputs)
    {
        Request const &request = inputs.request;
        if (request.stamps.count > 0 || request.item_count <= 0 || std::getenv("PDFEDIT_NO_IN_PLACE") != nullptr) {
            return -1;
        }
        int s = request.items[0].source;
        for (int i = 0; i < request.item_count; ++i) {
            if (request.items[i].kind != PE_ITEM_PAGE || request.items[i].source != s) {
                return -1;
            }
        }
        pe_source const &arg = request.sources[s];
        if (arg.document != nullptr && arg.document_last_use == 0) {
            return -1;
        }
        Source &source = inputs.sources[static_cast<size_t>(s)];
        if (!source.pdf || source.pdf->isEncrypted() ||
            static_cast<size_t>(request.item_count) * 2 < source.pages.size() ||
            !catalog_allows_in_place(source.pdf->getRoot())) {
            return -1;
        }
        for (int i = 0; i < request.item_count; ++i) {
            QPDFObjectHandle page = source.pages[static_cast<size_t>(request.items[i].page)];
            if (page.hasKey("/Annots") || page.hasKey("/B") || page.hasKey("/AA")) {
                return -1;
            }
        }
        return s;
    }

    void build()
    {
        QPDF &pdf = *source.pdf;
        pe_item const *items = inputs.request.items;
        int count = inputs.request.item_count;
        pe_export_options const *options = inputs.request.options;
        where = Where{items[0].source, 0};
        // Read from the source as it is before anything changes.
        std::vector<QPDFObjectHandle> nums;
        bool labelled = label_numbers(
            inputs.sources, items, count, options == nullptr ? PE_LABELS_KEEP : options->labels, nums);
        std::vector<int> rotations(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i) {
            rotations[static_cast<size_t>(i)] = page_rotation(
                source.pages[static_cast<size_t>(items[i].page)], source.inherited(items[i].page));
        }
        QPDFObjectHandle old_root = pdf.getRoot();
        QPDFObjectHandle trailer = pdf.getTrailer();
        QPDFObjectHandle old_info = trailer.getKey("/Info");

        std::vector<QPDFObjectHandle> kids;
        kids.reserve(static_cast<size_t>(count));
        std::map<QPDFObjGen, QPDFObjectHandle> first;
        SharedInherited shared;
        for (int i = 0; i < count; ++i) {
            where = Where{items[i].source, items[i].page + 1};
            QPDFObjectHandle from = source.pages[static_cast<size_t>(items[i].page)];
            QPDFObjGen og = from.getObjGen();
            auto known = first.find(og);
            QPDFObjectHandle to;
            if (known == first.end()) {
                to = from;
                inherit(pdf, to, source.inherited(items[i].page), shared);
                first.emplace(og, to);
            } else {
                to = pdf.makeIndirectObject(known->second.shallowCopy());
            }
            set_rotation(to, rotations[static_cast<size_t>(i)], items[i].quarter_turns);
            kids.push_back(to);
        }
        where = Where{items[0].source, 0};
        QPDFObjectHandle tree = QPDFObjectHandle::newDictionary();
        tree.replaceKey("/Type", QPDFObjectHandle::newName("/Pages"));
        tree.replaceKey("/Kids", QPDFObjectHandle::newArray(kids));
        tree.replaceKey("/Count", QPDFObjectHandle::newInteger(count));
        tree = pdf.makeIndirectObject(tree);
        for (QPDFObjectHandle &kid : kids) {
            kid.replaceKey("/Parent", tree);
        }
        QPDFObjectHandle root = QPDFObjectHandle::newDictionary();
        root.replaceKey("/Type", QPDFObjectHandle::newName("/Catalog"));
        root.replaceKey("/Pages", tree);
        root = pdf.makeIndirectObject(root);
        // The trailer of a new file: /Root (and /Info, below); no /ID, so that
        // the deterministic /ID is all new, as a copy's.
        for (std::string const &key : trailer.getKeys()) {
            if (key != "/Size") {
                trailer.removeKey(key);
            }
        }
        trailer.replaceKey("/Root", root);
        pdf.updateAllPagesCache();
        if (labelled) {
            QPDFObjectHandle labels = QPDFObjectHandle::newDictionary();
            labels.replaceKey("/Nums", QPDFObjectHandle::newArray(nums));
            root.replaceKey("/PageLabels", labels);
        }
        settle_in_place(pdf, old_root, old_info, options);
        page_count = static_cast<size_t>(count);
        where = Where{};
    }

    void write(char const *out_path, bool &started)
    {
        where = Where{};
        PDFVersion minimum(1, 3);
        minimum.updateIfGreater(source.version);
        write_output(
            *source.pdf, out_path, minimum, page_count, source.object_streams, inputs.request.options, started, true,
            true);
        inputs.forward_all_warnings();
    }

  private:
    Inputs &inputs;
    Source &source;
    Where &where;
    size_t page_count = 0;

    // Assembly::inherit within the source: an inherited array or dictionary
    // becomes one indirect object the pages share.
    static void inherit(QPDF &pdf, QPDFObjectHandle page, InheritedFrame const *inherited, SharedInherited &shared)
    {
        inherit_attributes(page, page, inherited, shared, [&pdf](QPDFObjectHandle value) {
            if (value.isIndirect()) {
                return value;
            }
            if (value.isArray() || value.isDictionary()) {
                return pdf.makeIndirectObject(value.shallowCopy());
            }
            return fresh_copy(value);
        });
    }
};

void export_one(Request const &request, char const *out_path, Where &where, Written &written)
{
    Inputs inputs(request, where);
    inputs.check_plan();
    inputs.check_output(out_path);
    inputs.open(0, request.item_count);
    Dropped dropped;
    int in_place = InPlace::in_place_source(inputs);
    if (in_place >= 0) {
        InPlace rearranged(inputs, in_place);
        rearranged.build();
        bool started = false;
        try {
            rearranged.write(out_path, started);
        } catch (...) {
            if (started) {
                written.paths.push_back(out_path);
            }
            throw;
        }
        return; // nothing is dropped: the catalog holds nothing that would be
    }
    Assembly assembly(inputs, 0, request.item_count);
    assembly.build(dropped);
    assembly.release_sources();
    bool started = false;
    try {
        assembly.write(out_path, started, true, true);
    } catch (...) {
        if (started) {
            written.paths.push_back(out_path);
        }
        throw;
    }
    report_dropped(inputs, dropped);
}

// How many threads a split export uses: PDFEDIT_THREADS when it is a whole
// number from 1 (none) to 64, else the CPUs this process may run on, at most 4;
// never more than there are parts. Each thread but the first opens its own copy of
// the sources (qpdf objects are not shared between threads). The value is read
// with strtol and range-checked (atoi's result on overflow is undefined, and a
// huge count would ask for more threads than the system can make).
int thread_count(int part_count)
{
    int wanted = 0;
    if (char const *text = std::getenv("PDFEDIT_THREADS")) {
        char *end = nullptr;
        errno = 0;
        long value = std::strtol(text, &end, 10);
        if (errno == 0 && end != text && *end == '\0' && value >= 1 && value <= 64) {
            wanted = static_cast<int>(value);
        }
    }
    if (wanted <= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        wanted = sched_getaffinity(0, sizeof set, &set) == 0
            ? CPU_COUNT(&set)
            : static_cast<int>(std::thread::hardware_concurrency());
        wanted = std::min(wanted, 4);
    }
    return std::max(1, std::min(wanted, part_count));
}

// What one part produced besides its file, kept until every thread is done so
// that it is reported in part order, as one thread would have.
struct PartOutcome {
    std::vector<std::pair<int, std::string>> warnings; // (source index, message)
    Dropped dropped;
};

// One thread of a split export: its own copy of the call's arguments (the
// sources without a shared pe_document for all but the first thread, warnings
// collected instead of passed on), its own opened sources and progress.
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

    // Writes parts while there are some left and no thread failed. A part
    // claimed is always finished (or fails), so that when part k fails every part
    // before it was attempted, as one thread would have.
    void run(
        pe_part const *parts,
        int part_count,
        std::atomic<int> &next,
        std::atomic<bool> &stop,
        std::vector<PartOutcome> &outcomes,
        PartProgress &progress)
    {
        while (!stop.load() && !cancel_requested()) {
            int p = next.fetch_add(1);
            if (p >= part_count) {
                break;
            }
            PartOutcome &outcome = outcomes[static_cast<size_t>(p)];
            sink = &outcome.warnings;
            bool started = false;
            try {
                inputs->open(parts[p].first_item, parts[p].item_count);
                Assembly assembly(*inputs, parts[p].first_item, parts[p].item_count);
                assembly.build(outcome.dropped);
                assembly.write(parts[p].out_path, started, false, false);
                written.push_back(parts[p].out_path);
                progress.part_written(part_count);
            } catch (...) {
                if (started) {
                    written.push_back(parts[p].out_path);
                }
                failed_part = p;
                failed_where = where;
                failure = std::current_exception();
                stop.store(true);
                break;
            }
        }
        sink = nullptr;
    }

  private:
    static void collect(void *context, int source, char const *message)
    {
        auto *worker = static_cast<PartWorker *>(context);
        if (worker->sink != nullptr) {
            worker->sink->emplace_back(source, message == nullptr ? "" : message);
        }
    }
};

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

    int threads = thread_count(part_count);
    for (int t = 1; t < threads; ++t) {
        workers.push_back(std::make_unique<PartWorker>(request, false));
    }
    std::vector<PartOutcome> outcomes(static_cast<size_t>(part_count));
    std::atomic<int> next{0};
    std::atomic<bool> stop{false};
    PartProgress progress(request.options);
    std::vector<std::thread> running;
    for (size_t t = 1; t < workers.size(); ++t) {
        PartWorker *worker = workers[t].get();
        try {
            running.emplace_back(
                [worker, parts, part_count, &next, &stop, &outcomes, &progress] {
                    worker->run(parts, part_count, next, stop, outcomes, progress);
                });
        } catch (std::system_error const &) {
            break; // no thread: the others do the work
        }
    }
    first.run(parts, part_count, next, stop, outcomes, progress);
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
        for (auto const &warning : outcome.warnings) {
            if (warning.first >= 0 && !given.insert(warning).second) {
                continue;
            }
            if (request.warn != nullptr) {
                request.warn(request.warn_context, warning.first, warning.second.c_str());
            }
        }
        dropped.merge(outcome.dropped);
    }
    if (failed != nullptr) {
        current_part = failed->failed_part;
        where = failed->failed_where;
        std::rethrow_exception(failed->failure);
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

// The shape of an extern "C" entry point over sources: no exception crosses into
// Swift. Runs body(where), where `where` is the source and page being worked on;
// an exception becomes the code and message in *status (which may be NULL),
// naming that source and page; success clears *status. Returns the code.
template <typename Body>
int guarded(pe_status *given, pe_source const *sources, int source_count, Body body)
{
    tune_allocator();
    pe_status ignored;
    pe_status *status = status_or(given, ignored);
    Where where;
    try {
        body(where);
    } catch (...) {
        return record_current_exception(status, where, sources, source_count);
    }
    set_status(status, PE_OK, Where{}, "");
    return PE_OK;
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
    int current_part = -1;
    int code = pe::guarded(status, sources, source_count, [&](pe::Where &where) {
        pe::Written written; // removed when the export fails
        pe::export_parts(
            pe::Request{
                sources, source_count, items, item_count, options, warn, warn_context, {stamps, stamp_count}},
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
    pe_document **document,
    int *page_count,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    pe::tune_allocator();
    pe_status ignored;
    status = pe::status_or(status, ignored);
    if (document != nullptr) {
        *document = nullptr;
    }
    auto made = std::make_unique<pe_document>();
    int code = PE_OK;
    std::string message;
    try {
        try {
            if (path == nullptr || document == nullptr) {
                throw std::logic_error("pe_document_open: no path or no result");
            }
            pe::open_source_file(made->source, path, password);
        } catch (QPDFExc const &e) {
            code = pe::code_for(e.getErrorCode());
            message = e.getMessageDetail();
        } catch (QPDFSystemError const &e) {
            code = PE_E_SYSTEM;
            message = e.what();
        } catch (std::bad_alloc const &) {
            code = PE_E_SYSTEM;
            message = "out of memory";
        } catch (std::exception const &e) {
            code = PE_E_INTERNAL;
            message = e.what();
        }
    } catch (...) {
        code = PE_E_INTERNAL;
        message = "unknown internal error";
    }
    if (made->source.pdf) {
        for (QPDFExc const &warning : made->source.pdf->getWarnings()) {
            if (warn != nullptr) {
                warn(warn_context, -1, warning.what());
            }
        }
    }
    if (code != PE_OK) {
        pe::set_status(status, code, pe::Where{}, message.c_str());
        return code;
    }
    if (page_count != nullptr) {
        *page_count = static_cast<int>(made->source.pages.size());
    }
    *document = made.release();
    pe::set_status(status, PE_OK, pe::Where{}, "");
    return PE_OK;
}

extern "C" int pe_document_check_page(
    pe_document *document, int page, long long max_stream_bytes, long long max_pixels, long long *largest_image,
    pe_status *status)
{
    pe_status ignored;
    status = pe::status_or(status, ignored);
    pe::Where where{-1, page + 1};
    try {
        if (document == nullptr || !document->source.pdf || page < 0 ||
            static_cast<size_t>(page) >= document->source.pages.size()) {
            throw pe::PlanError("no such page");
        }
        long long largest = pe::check_page_for_reader(
            document->source.pages[static_cast<size_t>(page)], max_stream_bytes, max_pixels, document->reader_checked);
        if (largest_image != nullptr) {
            *largest_image = largest;
        }
        document->source.pdf->getWarnings(); // decoding damage is poppler's to report
    } catch (...) {
        return pe::record_current_exception(status, where, nullptr, 0);
    }
    pe::set_status(status, PE_OK, where, "");
    return PE_OK;
}

extern "C" void pe_document_close(pe_document *document)
{
    delete document;
}
