// Internal to QPDFBridge: turning exceptions and qpdf warnings into pe_status and
// warning callbacks. Nothing here is visible to Swift.
#ifndef PDFEDIT_QPDF_BRIDGE_STATUS_HH
#define PDFEDIT_QPDF_BRIDGE_STATUS_HH

#include "QPDFBridge.h"

// We use no PointerHolder (qpdf 11 warns unless told which transition level applies).
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif

#include <qpdf/QPDF.hh>

#include <stdexcept>
#include <string>
#include <vector>

namespace pe {

// Where the work is, kept up to date as an export proceeds, so that a failure can
// say which source (index, -1 for the output or none) and which 1-based page.
struct Where {
    int source = -1;
    int page = 0;
};

// A failure the bridge detects itself (the plan does not fit the sources) rather
// than one qpdf reports. `page_count` is the source's page count when known.
class PlanError : public std::runtime_error {
  public:
    explicit PlanError(std::string const& message, int count = 0) :
        std::runtime_error(message), page_count(count)
    {
    }
    int page_count;
};

// A page redaction cannot judge (Redact.cpp): PE_E_UNSUPPORTED, "cannot redact: " + what.
class RedactRefused : public std::runtime_error {
  public:
    explicit RedactRefused(std::string const &message);
};

// Fills `status` completely (message truncated to fit). Never throws.
void set_status(pe_status *status, int code, Where where, char const *message) noexcept;

// How record_current_exception words qpdf's errors in pe_status::message.
enum class Wording {
    // A QPDFExc without the file name (Swift adds it), a QPDFSystemError as its
    // errno text.
    without_file,
    // A QPDFExc as its detail alone, a QPDFSystemError as its full text
    // (pe_document_open).
    detail,
};

// Call from a catch block only: rethrows the exception being handled and records
// it in `status` (QPDFExc by its code, QPDFSystemError as PE_E_SYSTEM, both
// worded as `wording` says, OverLimit as PE_E_LIMIT, PlanError as PE_E_PLAN,
// anything else PE_E_INTERNAL). A QPDFExc whose file name is one of `sources` is
// attributed to that source. Returns the code stored. Never throws.
int record_current_exception(
    pe_status *status,
    Where where,
    pe_source const *sources,
    int source_count,
    Wording wording = Wording::without_file) noexcept;

// The shape of every extern "C" entry point that can meet an exception: no
// exception crosses into Swift. Runs body(where), where `where` is the source and page being worked on;
// an exception becomes the code and message in *status (which may be NULL),
// naming that source and page (a qpdf error of one of `sources` names that
// source), worded as `wording` says; success clears *status. Returns the code.
template <typename Body>
int guarded(
    pe_status *given, pe_source const *sources, int source_count, Body body, Wording wording = Wording::without_file)
{
    pe_status ignored;
    pe_status *status = given == nullptr ? &ignored : given;
    Where where;
    try {
        body(where);
    } catch (...) {
        return record_current_exception(status, where, sources, source_count, wording);
    }
    set_status(status, PE_OK, Where{}, "");
    return PE_OK;
}

// A call on an opened document or an image page: guarded, qpdf's errors worded
// as their detail alone (as pe_document_open words them).
template <typename Body>
int reading(pe_status *status, Body body)
{
    return guarded(status, nullptr, 0, [&](Where &where) { body(where); }, Wording::detail);
}

// A caller's bug (a missing document or result), not the file's.
inline void require(bool given, char const *problem)
{
    if (!given) {
        throw std::logic_error(problem);
    }
}

// Passes each warning qpdf collected for `pdf` since the last call to `warn`
// (QPDF::getWarnings clears the list), as `source_index`'s, except that a warning
// whose file name is `file_names[i]` (the name source i was opened by) is source
// i's: qpdf reports damage it meets in a copied object's stream data while the
// output is written on the output's QPDF, naming the source file it read.
void forward_warnings(
    QPDF &pdf,
    int source_index,
    pe_warning_fn warn,
    void *context,
    std::vector<std::string> const &file_names = {});

} // namespace pe

#endif
