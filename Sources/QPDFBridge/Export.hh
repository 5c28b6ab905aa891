// Internal to QPDFBridge: the state of one pe_export call, shared by the files
// that carry out its steps (Export.cpp: plan, pages, writing; Annotations.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_EXPORT_HH
#define PDFEDIT_QPDF_BRIDGE_EXPORT_HH

#include "Status.hh"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace pe {

// One opened input.
struct Source {
    std::unique_ptr<QPDF> pdf; // null when no item uses this source
    std::vector<QPDFObjectHandle> pages;
    // Source page -> its first copy in the output (qpdf's foreign-object map
    // resolves references to the source page to that same copy).
    std::map<QPDFObjGen, QPDFObjectHandle> first_copy;
};

// One output page made from a source page, before its annotations are copied.
struct PlacedPage {
    int source;
    int page;                   // 0-based in the source
    QPDFObjectHandle from;      // the source page
    QPDFObjectHandle to;        // its page object in the output
    bool first;                 // `to` is first_copy of `from`
};

// Copies the annotations of every placed page onto its output page, in output
// order, after all pages exist in `out` so that link destinations can resolve:
// each output page gets its own annotation objects; internal links to pages not
// in the output are left out; named destinations become explicit ones.
void copy_annotations(
    QPDF &out, std::vector<Source> &sources, std::vector<PlacedPage> const &placed, Where &where);

} // namespace pe

#endif
