// The reader entry points (QPDFBridgeReader.h): a PDF opened for what it is —
// document facts and page geometry for info, list and the kit's page sizes —
// with the same opening checks as an export's sources (PageTree.cpp) and the
// geometry rules of Geometry.hh.
#include "Reader.hh"

#include "Export.hh"
#include "Geometry.hh"

#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFSystemError.hh>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

struct pe_reader {
    std::shared_ptr<QPDF> pdf;
    std::vector<QPDFObjectHandle> pages;
};

namespace pe {

int record_reader_exception(pe_status *status, Where where) noexcept
{
    int code = PE_E_INTERNAL;
    std::string message;
    try {
        try {
            throw;
        } catch (QPDFExc const &e) {
            code = code_for(e.getErrorCode());
            message = e.getMessageDetail();
        } catch (QPDFSystemError const &e) {
            code = PE_E_SYSTEM;
            message = e.what();
        } catch (PlanError const &e) {
            code = PE_E_PLAN;
            message = e.what();
            set_status(status, code, where, message.c_str());
            if (status != nullptr) {
                status->page_count = e.page_count;
            }
            return code;
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
    set_status(status, code, where, message.c_str());
    return code;
}

namespace {

// The shape of every reader entry point: runs body(where); an exception becomes
// the code and message in *status (which may be NULL); success clears it.
template <typename Body>
int reader_guarded(pe_status *given, Body body)
{
    pe_status ignored;
    pe_status *status = given == nullptr ? &ignored : given;
    Where where;
    try {
        body(where);
    } catch (...) {
        return record_reader_exception(status, where);
    }
    set_status(status, PE_OK, Where{}, "");
    return PE_OK;
}

void set_box(double (&to)[4], Rect const &box)
{
    to[0] = box.llx;
    to[1] = box.lly;
    to[2] = box.urx;
    to[3] = box.ury;
}

} // namespace
} // namespace pe

extern "C" int pe_reader_open(
    char const *path,
    char const *password,
    pe_reader **reader,
    int *page_count,
    pe_warning_fn warn,
    void *warn_context,
    pe_status *status)
{
    pe::tune_allocator();
    if (reader != nullptr) {
        *reader = nullptr;
    }
    auto made = std::make_unique<pe_reader>();
    int code = pe::reader_guarded(status, [&](pe::Where &) {
        if (path == nullptr || reader == nullptr) {
            throw std::logic_error("pe_reader_open: no path or no result");
        }
        made->pdf = std::make_shared<QPDF>();
        QPDF &pdf = *made->pdf;
        pdf.setSuppressWarnings(true);
        pdf.setAttemptRecovery(true);
        pe::open_pdf(pdf, path, password == nullptr ? "" : password);
        // qpdf walks these trees recursively (and poppler some of them): they are
        // measured first, without recursion.
        pe::check_page_tree_depth(pdf);
        pe::check_tree_depths(pdf);
        made->pages = pdf.getAllPages();
    });
    if (made->pdf && warn != nullptr) {
        for (QPDFExc const &warning : made->pdf->getWarnings()) {
            warn(warn_context, -1, warning.what());
        }
    }
    if (code != PE_OK) {
        return code;
    }
    if (page_count != nullptr) {
        *page_count = static_cast<int>(made->pages.size());
    }
    *reader = made.release();
    return PE_OK;
}

extern "C" void pe_reader_close(pe_reader *reader)
{
    delete reader;
}

extern "C" int pe_reader_facts_of(
    pe_reader *reader, pe_reader_facts *facts, pe_text_fn text, void *context, pe_status *status)
{
    return pe::reader_guarded(status, [&](pe::Where &) {
        if (reader == nullptr || !reader->pdf || facts == nullptr) {
            throw std::logic_error("pe_reader_facts_of: no reader or no result");
        }
        QPDF &pdf = *reader->pdf;
        QPDFObjectHandle root = pdf.getRoot();
        QPDFObjectHandle fields = pe::present_value(pe::present_value(root, "/AcroForm"), "/Fields");
        pe_reader_facts made{};
        made.page_count = static_cast<int>(reader->pages.size());
        made.encrypted = pdf.isEncrypted() ? 1 : 0;
        made.allows_assembly = pdf.allowModifyAssembly() ? 1 : 0;
        made.has_form = fields.isArray() && fields.getArrayNItems() > 0 ? 1 : 0;
        made.has_outlines = pe::present_value(pe::present_value(root, "/Outlines"), "/First").isNull() ? 0 : 1;
        made.has_page_labels = pe::present_value(root, "/PageLabels").isNull() ? 0 : 1;
        made.tagged = pe::present_value(root, "/StructTreeRoot").isNull() ? 0 : 1;
        std::string version = pdf.getPDFVersion();
        QPDFObjectHandle info = pe::present_value(pdf.getTrailer(), "/Info");
        std::vector<std::pair<char const *, std::string>> texts;
        for (char const *key : {"Producer", "Creator", "Title"}) {
            QPDFObjectHandle value = pe::present_value(info, ("/" + std::string(key)).c_str());
            if (value.isString()) {
                texts.emplace_back(key, value.getUTF8Value());
            }
        }
        *facts = made;
        if (text != nullptr) {
            text(context, "Version", version.c_str());
            for (auto const &entry : texts) {
                text(context, entry.first, entry.second.c_str());
            }
        }
    });
}

extern "C" int pe_reader_page_geometry(pe_reader *reader, int page, pe_page_geometry *geometry, pe_status *status)
{
    return pe::reader_guarded(status, [&](pe::Where &) {
        if (reader == nullptr || geometry == nullptr) {
            throw std::logic_error("pe_reader_page_geometry: no reader or no result");
        }
        int count = static_cast<int>(reader->pages.size());
        if (page < 0 || page >= count) {
            throw pe::PlanError("no such page", count);
        }
        pe::PageGeometry found = pe::page_geometry(reader->pages[static_cast<size_t>(page)]);
        pe::set_box(geometry->media_box, found.media);
        pe::set_box(geometry->crop_box, found.visible);
        geometry->rotation = found.rotation;
        geometry->user_unit = found.unit;
    });
}
