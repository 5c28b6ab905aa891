// Internal to QPDFBridge: the arguments of one export call (Request) and its
// sources, checked against the plan and opened once however many outputs use
// them (Inputs, see Inputs.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_INPUTS_HH
#define PDFEDIT_QPDF_BRIDGE_INPUTS_HH

#include "Export.hh"
#include "Limits.hh"
#include "Stamps.hh"

#include <map>
#include <set>
#include <string>
#include <vector>

// A file opened by pe_document_open, handed to exports through pe_source.document.
struct pe_document {
    pe::Source source;
    // Opened with PE_OPEN_EXPORT: checked and prepared as an export's source.
    bool for_export = true;
    // pe_document_free_on_close: one of many opened in turn (at most one is kept when closed).
    bool free_on_close = false;
    // Shared streams (fonts, forms) pe_document_check_page already inflated.
    std::set<QPDFObjGen> reader_checked;
    // The forms pe_document_check_page measured (PageWork.cpp).
    std::map<QPDFObjGen, pe::PageWork> reader_forms;
    // The digests pe_document_page_fingerprint computed of this document's objects.
    std::map<QPDFObjGen, std::string> page_digests;
};

namespace pe {

// A missing or empty C string.
inline bool is_empty(char const *text)
{
    return text == nullptr || text[0] == '\0';
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
// Refuses a sheet (`item`, the plan's item `index`) whose cells name no source
// or lie off the sheet (Sheets.cpp).
void check_sheet_cells(pe_item const &item, int index, int source_count);

class Inputs {
  public:
    Inputs(Request const &arguments, Where &progress) : request(arguments), where(progress) {}
    Inputs(Inputs const &) = delete;
    Inputs &operator=(Inputs const &) = delete;

    // Whether this is the last use of every source it opened, each a document
    // the caller opened (direct mode's one export): what the export made can
    // then be kept until the process exits (keep_until_exit) rather than freed.
    bool last_use_of_caller_documents() const;

    Request const &request;
    Where &where;
    std::vector<Source> sources;

    // What can be checked before opening anything.
    void check_plan();

    // Refuses an output path that is empty or names a source.
    void check_output(char const *out_path);

    // Opens every source that one of items [first, first + count) uses, once,
    // tolerating recoverable damage, and checks that their pages exist.
    void open(int first, int count);

    // The warnings qpdf collected for each opened source.
    void forward_all_warnings();

    // The output's warnings: damage in a source met while copying or writing is
    // that source's (see forward_warnings).
    void forward_output_warnings(QPDF &out);

    // Refuses (PlanError, naming that page and giving the page count) a page
    // (0-based) that the opened sources[source] does not have.
    void check_page(int source, int page);

    // Gives the caller one warning line about `source` (-1: none).
    void warn(int source, std::string const &message);

  private:
    // The name qpdf knows each opened source by (its warnings carry it).
    std::vector<std::string> file_names;

    void open_source(int index);
    // Opens the sources of a sheet's cells and checks their pages exist (Sheets.cpp).
    void open_sheet_sources(pe_item const &item);
    void forward_source_warnings(Source &source, int index);
};

} // namespace pe

#endif
