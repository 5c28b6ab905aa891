// Checks of a source's page tree that qpdf does not make before walking it.
#include "Export.hh"
#include "Limits.hh"

#include <qpdf/QPDFExc.hh>

#include <atomic>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {
std::atomic<int> tree_depth_limit{1024};
}

extern "C" void pe_set_tree_depth_limit(int levels)
{
    if (levels > 0) {
        tree_depth_limit.store(levels, std::memory_order_relaxed);
    }
}

extern "C" int pe_tree_depth_limit(void)
{
    return tree_depth_limit.load(std::memory_order_relaxed);
}

namespace pe {

int page_tree_maximum_depth()
{
    return pe_tree_depth_limit();
}

namespace {

// Whether no path from `roots` (level 1) nests more than page_tree_maximum_depth
// levels, following `links`: a key whose value (a dictionary, or an array of them)
// is `delta` levels further down; `enter` says which dictionaries count as nodes.
// Depth-first without recursion. A node reached again by a deeper path is walked
// again from there (a node with two parents must not hide the deeper one: the
// readers that recurse follow every path), one on the current path is a loop and
// is not (qpdf and poppler report or stop at loops themselves). A node is
// re-entered only when its depth grows, so the walk is bounded by the number of
// nodes times the limit.
bool within_depth(
    std::vector<QPDFObjectHandle> const &roots, std::vector<std::pair<std::string, int>> const &links,
    bool (*enter)(QPDFObjectHandle &))
{
    int const limit = page_tree_maximum_depth();
    struct Frame {
        QPDFObjectHandle node;
        int depth;
        std::vector<std::pair<QPDFObjectHandle, int>> next; // children and their depths
        size_t index = 0;
    };
    std::map<QPDFObjGen, int> deepest;
    std::set<QPDFObjGen> on_path;
    std::vector<Frame> frames;
    auto push = [&](QPDFObjectHandle node, int depth) -> bool {
        if (!node.isDictionary() || !enter(node)) {
            return true;
        }
        if (node.isIndirect()) {
            QPDFObjGen id = node.getObjGen();
            if (on_path.count(id) != 0) {
                return true; // a loop
            }
            auto known = deepest.find(id);
            if (known != deepest.end() && known->second >= depth) {
                return true; // walked from here at this depth or deeper already
            }
            deepest[id] = depth;
            on_path.insert(id);
        }
        if (depth > limit) {
            return false;
        }
        Frame frame{node, depth, {}, 0};
        for (auto const &link : links) {
            QPDFObjectHandle value = node.getKey(link.first);
            if (value.isArray()) {
                int count = value.getArrayNItems();
                for (int i = 0; i < count; ++i) {
                    frame.next.emplace_back(value.getArrayItem(i), depth + link.second);
                }
            } else if (value.isDictionary()) {
                frame.next.emplace_back(value, depth + link.second);
            }
        }
        frames.push_back(std::move(frame));
        return true;
    };
    for (auto const &root : roots) {
        if (!push(root, 1)) {
            return false;
        }
        while (!frames.empty()) {
            Frame &top = frames.back();
            if (top.index == top.next.size()) {
                if (top.node.isIndirect()) {
                    on_path.erase(top.node.getObjGen());
                }
                frames.pop_back();
                continue;
            }
            auto child = top.next[top.index++];
            if (!push(child.first, child.second)) { // may move `top`: not used after
                return false;
            }
        }
    }
    return true;
}

bool any_dictionary(QPDFObjectHandle &)
{
    return true;
}

bool pages_node(QPDFObjectHandle &node)
{
    return node.hasKey("/Kids");
}

} // namespace

void check_page_tree_depth(QPDF &pdf)
{
    QPDFObjectHandle root = pdf.getRoot();
    if (!root.isDictionary()) {
        return;
    }
    if (!within_depth({root.getKey("/Pages")}, {{"/Kids", 1}}, pages_node)) {
        throw QPDFExc(
            qpdf_e_pages, pdf.getFilename(), "", 0,
            "the page tree is nested more than " + std::to_string(page_tree_maximum_depth()) + " levels deep");
    }
}

void check_tree_depths(QPDF &pdf)
{
    QPDFObjectHandle root = pdf.getRoot();
    if (!root.isDictionary()) {
        return;
    }
    auto refuse = [&pdf](std::string const &tree) {
        throw QPDFExc(
            qpdf_e_pages, pdf.getFilename(), "", 0,
            "over a limit: its " + tree + " is nested more than " + std::to_string(page_tree_maximum_depth()) +
                " levels deep");
    };
    std::vector<std::pair<std::string, int>> kids{{"/Kids", 1}};
    if (!within_depth({root.getKey("/PageLabels")}, kids, any_dictionary)) {
        refuse("page-label tree");
    }
    std::vector<QPDFObjectHandle> name_trees;
    QPDFObjectHandle names = root.getKey("/Names");
    if (names.isDictionary()) {
        for (auto const &entry : names.getDictAsMap()) {
            name_trees.push_back(entry.second);
        }
    }
    if (!within_depth(name_trees, kids, any_dictionary)) {
        refuse("name tree");
    }
    QPDFObjectHandle fields = root.getKey("/AcroForm").getKeyIfDict("/Fields");
    if (fields.isArray() && !within_depth(fields.getArrayAsVector(), kids, any_dictionary)) {
        refuse("form-field tree");
    }
    if (!within_depth({root.getKey("/Outlines")}, {{"/First", 1}, {"/Next", 0}}, any_dictionary)) {
        refuse("outline");
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
