// Checks of a source's page tree that qpdf does not make before walking it.
#include "Export.hh"

#include <qpdf/QPDFExc.hh>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pe {

void check_page_tree_depth(QPDF &pdf)
{
    QPDFObjectHandle root = pdf.getRoot();
    if (!root.isDictionary()) {
        return;
    }
    std::vector<std::pair<QPDFObjectHandle, int>> pending{{root.getKey("/Pages"), 1}};
    std::set<QPDFObjGen> seen;
    while (!pending.empty()) {
        QPDFObjectHandle node = pending.back().first;
        int depth = pending.back().second;
        pending.pop_back();
        if (!node.isDictionary() || !node.hasKey("/Kids")) {
            continue;
        }
        if (node.isIndirect() && !seen.insert(node.getObjGen()).second) {
            continue; // a loop: getAllPages reports it
        }
        if (depth > page_tree_maximum_depth) {
            throw QPDFExc(
                qpdf_e_pages, pdf.getFilename(), "", 0,
                "the page tree is nested more than " + std::to_string(page_tree_maximum_depth) +
                    " levels deep");
        }
        QPDFObjectHandle kids = node.getKey("/Kids");
        if (!kids.isArray()) {
            continue;
        }
        int count = kids.getArrayNItems();
        for (int i = 0; i < count; ++i) {
            QPDFObjectHandle kid = kids.getArrayItem(i);
            if (kid.isDictionary() && kid.hasKey("/Kids")) {
                pending.emplace_back(kid, depth + 1);
            }
        }
    }
}

void check_pages_are_dictionaries(QPDF &pdf, std::vector<QPDFObjectHandle> &pages)
{
    for (size_t i = 0; i < pages.size(); ++i) {
        if (!pages[i].isDictionary()) {
            throw QPDFExc(
                qpdf_e_damaged_pdf, pdf.getFilename(), "", 0,
                "page " + std::to_string(i + 1) + ": the page tree holds something that is not a page");
        }
    }
}

} // namespace pe
