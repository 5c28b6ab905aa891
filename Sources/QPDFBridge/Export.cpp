// pe_export: checks the plan, opens the sources, places the pages, then has
// Annotations.cpp copy their annotations and writes the result.
#include "Export.hh"

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

// The arguments of one pe_export call.
struct Request {
    pe_source const *sources;
    int source_count;
    pe_item const *items;
    int item_count;
    char const *out_path;
    pe_export_options const *options;
    pe_warning_fn warn;
    void *warn_context;
};

class Exporter {
  public:
    Exporter(Request const &request, Where &progress) :
        source_args(request.sources),
        source_count(request.source_count),
        items(request.items),
        item_count(request.item_count),
        out_path(request.out_path),
        options(request.options),
        warn(request.warn),
        warn_context(request.warn_context),
        where(progress)
    {
    }

    // True once the output file may exist (so a failure must remove it).
    bool output_opened = false;

    void run()
    {
        check_plan();
        open_sources();
        out.setSuppressWarnings(true);
        out.emptyPDF();
        place_pages();
        copy_annotations(out, sources, placed, where);
        copy_info();
        forward_all_warnings();
        write();
        forward_all_warnings();
    }

  private:
    pe_source const *source_args;
    int source_count;
    pe_item const *items;
    int item_count;
    char const *out_path;
    pe_export_options const *options;
    pe_warning_fn warn;
    void *warn_context;
    Where &where;

    // Declared before `out`: the output reads stream data from the sources while
    // it is written, so they must outlive it.
    std::vector<Source> sources;
    QPDF out;
    std::vector<PlacedPage> placed;

    // What can be checked before opening anything.
    void check_plan()
    {
        where = Where{};
        if (source_count < 0 || (source_count > 0 && source_args == nullptr)) {
            throw PlanError("invalid source list");
        }
        if (item_count <= 0 || items == nullptr) {
            throw PlanError("nothing to export: no pages");
        }
        if (is_empty(out_path)) {
            throw PlanError("no output path");
        }
        for (int i = 0; i < source_count; ++i) {
            if (is_empty(source_args[i].path)) {
                where = Where{i, 0};
                throw PlanError("source without a path");
            }
            if (std::strcmp(source_args[i].path, out_path) == 0) {
                where = Where{i, 0};
                throw PlanError("the output would overwrite this input");
            }
        }
        for (int i = 0; i < item_count; ++i) {
            pe_item const &item = items[i];
            if (item.kind == PE_ITEM_PAGE) {
                if (item.source < 0 || item.source >= source_count) {
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
    }

    // Opens every source an item uses, once, tolerating recoverable damage.
    void open_sources()
    {
        sources.resize(static_cast<size_t>(source_count));
        for (int i = 0; i < item_count; ++i) {
            if (items[i].kind != PE_ITEM_PAGE) {
                continue;
            }
            Source &source = sources[static_cast<size_t>(items[i].source)];
            if (source.pdf) {
                continue;
            }
            where = Where{items[i].source, 0};
            pe_source const &arg = source_args[items[i].source];
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
                        forward_warnings(candidate, where.source, warn, warn_context);
                        throw;
                    }
                } catch (...) {
                    forward_warnings(candidate, where.source, warn, warn_context);
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
                if (warn != nullptr) {
                    warn(warn_context, where.source,
                         "its permissions do not allow assembling pages; used anyway");
                }
            }
            forward_warnings(pdf, where.source, warn, warn_context);
        }
    }

    void place_pages()
    {
        placed.reserve(static_cast<size_t>(item_count));
        for (int i = 0; i < item_count; ++i) {
            pe_item const &item = items[i];
            QPDFObjectHandle page =
                item.kind == PE_ITEM_BLANK ? blank_page(item) : copied_page(item);
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

    // The document information (title, author, ...) of the first source used.
    void copy_info()
    {
        for (int i = 0; i < item_count; ++i) {
            if (items[i].kind != PE_ITEM_PAGE) {
                continue;
            }
            where = Where{items[i].source, 0};
            QPDF &pdf = *sources[static_cast<size_t>(items[i].source)].pdf;
            QPDFObjectHandle trailer = pdf.getTrailer();
            QPDFObjectHandle info = trailer.getKey("/Info");
            if (info.isDictionary()) {
                if (!info.isIndirect()) {
                    info = pdf.makeIndirectObject(info.shallowCopy());
                }
                out.getTrailer().replaceKey("/Info", out.copyForeignObject(info));
            }
            break;
        }
        where = Where{};
    }

    void write()
    {
        where = Where{};
        PDFVersion version(1, 3);
        for (Source &source : sources) {
            if (source.pdf) {
                version.updateIfGreater(source.pdf->getVersionAsPDFVersion());
            }
        }
        QPDFWriter writer(out);
        output_opened = true;
        writer.setOutputFilename(out_path);
        writer.setMinimumPDFVersion(version);
        writer.setObjectStreamMode(qpdf_o_generate);
        writer.setCompressStreams(true);
        writer.setLinearization(false);
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
    }

    void forward_all_warnings()
    {
        for (size_t i = 0; i < sources.size(); ++i) {
            if (sources[i].pdf) {
                forward_warnings(*sources[i].pdf, static_cast<int>(i), warn, warn_context);
            }
        }
        forward_warnings(out, -1, warn, warn_context);
    }
};

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
    pe_status ignored;
    if (status == nullptr) {
        status = &ignored;
    }
    pe::Where where;
    bool remove_output = false;
    int code = PE_OK;
    try {
        pe::Exporter exporter(
            pe::Request{
                sources, source_count, items, item_count, out_path, options, warn, warn_context},
            where);
        try {
            exporter.run();
        } catch (...) {
            remove_output = exporter.output_opened;
            throw;
        }
        pe::set_status(status, PE_OK, pe::Where{}, "");
    } catch (...) {
        code = pe::record_current_exception(status, where, sources, source_count);
    }
    if (remove_output && out_path != nullptr) {
        std::remove(out_path);
    }
    return code;
}
