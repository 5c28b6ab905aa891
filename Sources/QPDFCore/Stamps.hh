// Internal to QPDFBridge: stamps (pages drawn onto output pages, see pe_stamp in
// QPDFBridge.h). Inputs.cpp checks them with the plan, opens their sources with
// the items' and calls apply_stamps once an output's pages are placed.
#ifndef PDFEDIT_QPDF_BRIDGE_STAMPS_HH
#define PDFEDIT_QPDF_BRIDGE_STAMPS_HH

#include "Export.hh"
#include "Geometry.hh"

#include <functional>
#include <vector>

namespace pe {

// The stamps of one bridge call.
struct StampList {
    pe_stamp const *stamps = nullptr;
    int count = 0;
};

// Refuses (PlanError) stamps that do not fit the plan: an item or source index out
// of range, an opacity outside (0, 1]. Their pages are checked once their sources
// are open (Inputs::check_page).
void check_stamps(StampList list, int source_count, int item_count);

// Calls `use` with each stamp drawn on items [first, first + count), in list order.
void for_each_stamp(StampList list, int first, int count, std::function<void(pe_stamp const &)> const &use);

// Draws the stamps of items [first, first + placed.size()) onto their output pages
// (placed[i] is item first + i). One form XObject per stamp page in `out`.
void apply_stamps(
    QPDF &out,
    std::vector<Source> &sources,
    StampList list,
    int first,
    std::vector<PlacedPage> const &placed,
    Where &where);

// Draws `stamps` onto one output page (a sheet's cell page, Sheets.cpp) as
// apply_stamps draws an item's.
void stamp_page(
    QPDF &out,
    std::vector<Source> &sources,
    PlacedPage const &page,
    std::vector<pe_stamp const *> const &stamps,
    Where &where);

} // namespace pe

#endif
