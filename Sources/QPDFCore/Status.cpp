#include "Status.hh"

#include "Limits.hh"

#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFSystemError.hh>

#include <cstring>
#include <new>

namespace pe {

void set_status(pe_status *status, int code, Where where, char const *message) noexcept
{
    if (status == nullptr) {
        return;
    }
    status->code = code;
    status->source_index = where.source;
    status->page = where.page;
    status->page_count = 0;
    std::strncpy(status->message, message, sizeof(status->message) - 1);
    status->message[sizeof(status->message) - 1] = '\0';
}

namespace {

// The pe_status code for a qpdf error code.
int code_for(qpdf_error_code_e code) noexcept
{
    switch (code) {
    case qpdf_e_success:
    case qpdf_e_internal:
    case qpdf_e_json:
        return PE_E_INTERNAL;
    case qpdf_e_system:
        return PE_E_SYSTEM;
    case qpdf_e_unsupported:
        return PE_E_UNSUPPORTED;
    case qpdf_e_password:
        return PE_E_PASSWORD;
    case qpdf_e_damaged_pdf:
    case qpdf_e_object:
    case qpdf_e_linearization:
        return PE_E_DAMAGED;
    case qpdf_e_pages:
        return PE_E_PAGES;
    }
    return PE_E_INTERNAL;
}

// The text of a qpdf error or warning without the file name: Swift adds the name.
// E.g. "(object 5 0, offset 123): invalid password".
std::string describe(QPDFExc const &e)
{
    // what() is "FILE (object N G, offset K): detail"; keep everything after FILE.
    std::string text = e.what();
    std::string const &file = e.getFilename();
    if (!file.empty() && text.compare(0, file.size(), file) == 0) {
        text.erase(0, file.size());
        while (!text.empty() && (text[0] == ' ' || text[0] == ':')) {
            text.erase(0, 1);
        }
    }
    return text.empty() ? e.getMessageDetail() : text;
}

int source_named(std::string const &file, pe_source const *sources, int source_count) noexcept
{
    for (int i = 0; i < source_count; ++i) {
        if (sources[i].path != nullptr && file == sources[i].path) {
            return i;
        }
    }
    return -1;
}

} // namespace

int record_current_exception(
    pe_status *status, Where where, pe_source const *sources, int source_count, Wording wording) noexcept
{
    bool detail = wording == Wording::detail;
    // An error naming one of the sources' files is that source's.
    auto attribute = [&](std::string const &file) {
        int named = source_named(file, sources, source_count);
        if (named >= 0 && named != where.source) {
            where = Where{named, 0};
        }
    };
    try {
        try {
            throw;
        } catch (QPDFExc const &e) {
            attribute(e.getFilename());
            int code = code_for(e.getErrorCode());
            set_status(status, code, where, detail ? e.getMessageDetail().c_str() : describe(e).c_str());
            return code;
        } catch (QPDFSystemError const &e) {
            // The description names the file; the errno text is the problem.
            set_status(status, PE_E_SYSTEM, where, detail ? e.what() : std::strerror(e.getErrno()));
            return PE_E_SYSTEM;
        } catch (OverLimit const &e) {
            attribute(e.file);
            set_status(status, PE_E_LIMIT, where, e.what());
            return PE_E_LIMIT;
        } catch (RedactRefused const &e) {
            set_status(status, PE_E_UNSUPPORTED, where, (std::string("cannot redact: ") + e.what()).c_str());
            return PE_E_UNSUPPORTED;
        } catch (PlanError const &e) {
            set_status(status, PE_E_PLAN, where, e.what());
            if (status != nullptr) {
                status->page_count = e.page_count;
            }
            return PE_E_PLAN;
        } catch (std::bad_alloc const &) {
            set_status(status, PE_E_SYSTEM, where, "out of memory");
            return PE_E_SYSTEM;
        } catch (std::exception const &e) {
            set_status(status, PE_E_INTERNAL, where, e.what());
            return PE_E_INTERNAL;
        }
    } catch (...) {
        set_status(status, PE_E_INTERNAL, where, "unknown internal error");
        return PE_E_INTERNAL;
    }
}

void forward_warnings(
    QPDF &pdf, int source_index, pe_warning_fn warn, void *context, std::vector<std::string> const &file_names)
{
    for (QPDFExc const &warning : pdf.getWarnings()) {
        if (warn == nullptr) {
            continue;
        }
        int index = source_index;
        for (size_t i = 0; i < file_names.size(); ++i) {
            if (!file_names[i].empty() && file_names[i] == warning.getFilename()) {
                index = static_cast<int>(i);
                break;
            }
        }
        warn(context, index, ("qpdf: " + describe(warning)).c_str());
    }
}

} // namespace pe
