// PageList (Source.hh): a source's pages, read lazily when its page tree looks
// regular. qpdf's getAllPages resolves every page object of the file (a 20,000-
// page file: 20,000 objects parsed to copy 51 of them); here a page is found by
// the /Count of the nodes above it, with libqpdf's object API, and only the /Pages
// nodes on its path and their kids are resolved. Anything the lazy walk does not
// accept sends the whole tree through getAllPages, as before.
#include "Export.hh"

#include <qpdf/QPDFExc.hh>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pe {

void PageList::open(QPDF &document, bool lazy, bool export_use, long long object_bound)
{
    pdf = &document;
    for_export = export_use;
    if (lazy && export_use && open_lazily(object_bound)) {
        return;
    }
    read_whole();
}

bool PageList::open_lazily(long long object_bound)
{
    bound = object_bound;
    QPDFObjectHandle root = pdf->getRoot().getKey("/Pages");
    // An indirect root of /Type /Pages that is its tree's root (getAllPages
    // walks up /Parent otherwise), whose /Count is no larger than the file's
    // number of objects (every page is an object of its own) nor smaller than
    // its number of kids (each holds a page at least).
    if (!root.isIndirect() || !root.isDictionaryOfType("/Pages") || root.hasKey("/Parent")) {
        return false;
    }
    QPDFObjectHandle count = root.getKey("/Count");
    if (!count.isInteger() || count.getIntValue() < 1 || count.getIntValue() > bound) {
        return false;
    }
    page_count = static_cast<int>(count.getIntValue());
    pages.assign(static_cast<size_t>(page_count), QPDFObjectHandle());
    page_frame.assign(static_cast<size_t>(page_count), 0);
    frames.assign(1, InheritedFrame{});
    root_id = root.getObjGen();
    node_refs.insert(root_id);
    if (!enter_node(root, 0, 1, page_count, 0)) {
        reset();
        return false;
    }
    lazy_mode = true;
    return true;
}

void PageList::reset()
{
    lazy_mode = false;
    page_count = 0;
    found = 0;
    pages.clear();
    frames.clear();
    page_frame.clear();
    nodes.clear();
    node_refs.clear();
    leaves.clear();
    page_index.clear();
    page_index_built = false;
}

// Every page was met by the lazy walk and every node read to its last kid: the
// list is whole, as read_whole would have left it.
void PageList::finish_whole_from_lazy()
{
    lazy_mode = false;
    nodes.clear();
    page_index_built = true; // every page was noted as it was met
    if (frames.size() == 1) {
        frames.clear(); // nothing to inherit
        page_frame.clear();
    }
}

bool PageList::enter_node(QPDFObjectHandle node, int parent_frame, int depth, long long expected, long long base)
{
    if (depth > page_tree_maximum_depth() || !node.isDictionaryOfType("/Pages")) {
        return false;
    }
    Node made;
    made.object = node;
    made.kids_array = node.getKey("/Kids");
    if (!made.kids_array.isArray()) {
        return false;
    }
    made.kid_count = made.kids_array.getArrayNItems();
    if (made.kid_count < 1 || made.kid_count > expected) {
        return false;
    }
    made.expected = expected;
    made.base = base;
    made.frame = node_frame(node, parent_frame, frames);
    made.depth = depth;
    nodes.emplace(node.getObjGen(), std::move(made));
    return true;
}

bool PageList::resolve_kid(Node &node)
{
    int j = static_cast<int>(node.kids.size());
    QPDFObjectHandle kid = node.kids_array.getArrayItem(j);
    // getAllPages turns a direct kid into an object and copies a page met twice
    // (with a warning): not lazily.
    if (!kid.isIndirect() || !kid.isDictionary()) {
        return false;
    }
    long long size = 1;
    bool is_node = kid.hasKey("/Kids");
    if (is_node) {
        // A node: its /Count is trusted until the walk enters it and reads its
        // kids, which must hold as many. A node met twice (a loop, or two
        // parents) is qpdf's "loop detected".
        QPDFObjectHandle count = kid.getKey("/Count");
        if (!kid.isDictionaryOfType("/Pages") || !count.isInteger() || count.getIntValue() < 1 ||
            count.getIntValue() > bound || !node_refs.insert(kid.getObjGen()).second) {
            return false;
        }
        size = count.getIntValue();
    } else if (!kid.isDictionaryOfType("/Page") || !leaves.insert(kid.getObjGen()).second) {
        return false; // getAllPages would set its /Type, or copy it
    }
    if (node.held + size > node.expected) {
        return false;
    }
    node.kids.push_back(kid);
    node.first.push_back(node.held);
    node.is_node.push_back(is_node ? 1 : 0);
    if (!is_node) {
        size_t index = static_cast<size_t>(node.base + node.held);
        pages[index] = kid;
        page_frame[index] = node.frame;
        page_index.emplace(kid.getObjGen(), static_cast<int>(index));
        ++found;
    }
    node.held += size;
    // The last kid: together they hold the node's /Count.
    return static_cast<int>(node.kids.size()) < node.kid_count || node.held == node.expected;
}

bool PageList::find(int index)
{
    QPDFObjGen at = root_id;
    for (;;) {
        auto known = nodes.find(at);
        if (known == nodes.end()) {
            return false;
        }
        Node &node = known->second;
        long long relative = index - node.base;
        while (node.held <= relative) {
            if (static_cast<int>(node.kids.size()) == node.kid_count || !resolve_kid(node)) {
                return false;
            }
        }
        auto next = std::upper_bound(node.first.begin(), node.first.end(), relative);
        size_t j = static_cast<size_t>(next - node.first.begin()) - 1;
        if (!node.is_node[j]) {
            return pages[static_cast<size_t>(index)].isInitialized();
        }
        QPDFObjectHandle kid = node.kids[j];
        QPDFObjGen id = kid.getObjGen();
        if (nodes.find(id) == nodes.end() &&
            !enter_node(kid, node.frame, node.depth + 1, kid.getKey("/Count").getIntValue(),
                        node.base + node.first[j])) {
            return false;
        }
        at = id;
    }
}

bool PageList::complete_nodes()
{
    // Entering a node adds to `nodes` (std::map: its iterators stay valid), in
    // object-number order: passes until no node is left unentered.
    for (bool more = true; more;) {
        more = false;
        for (auto &entry : nodes) {
            Node &node = entry.second;
            while (static_cast<int>(node.kids.size()) < node.kid_count) {
                if (!resolve_kid(node)) {
                    return false;
                }
            }
            for (size_t j = 0; j < node.kids.size(); ++j) {
                if (node.is_node[j] && nodes.find(node.kids[j].getObjGen()) == nodes.end()) {
                    if (!enter_node(node.kids[j], node.frame, node.depth + 1,
                                    node.kids[j].getKey("/Count").getIntValue(), node.base + node.first[j])) {
                        return false;
                    }
                    more = true;
                }
            }
        }
    }
    return found == page_count;
}

QPDFObjectHandle PageList::page(int index)
{
    if (index < 0 || index >= page_count) {
        throw std::logic_error("PageList::page: no page " + std::to_string(index));
    }
    if (!pages[static_cast<size_t>(index)].isInitialized()) {
        if (!find(index)) {
            fall_back();
        } else if (found == page_count) {
            // Every page met: the rest of the nodes are read (and their counts
            // checked) and the list is whole.
            if (complete_nodes()) {
                finish_whole_from_lazy();
            } else {
                fall_back();
            }
        }
    }
    return pages[static_cast<size_t>(index)];
}

std::vector<QPDFObjectHandle> const &PageList::all()
{
    if (lazy_mode) {
        fall_back();
    }
    return pages;
}

InheritedFrame const *PageList::inherited(int index)
{
    page(index); // found, with its frame
    if (page_frame.empty()) {
        return nullptr;
    }
    int frame = page_frame[static_cast<size_t>(index)];
    return frame == 0 ? nullptr : &frames[static_cast<size_t>(frame)];
}

int PageList::index_of(QPDFObjectHandle page)
{
    if (!page.isIndirect()) {
        return -1;
    }
    if (lazy_mode) {
        auto met = page_index.find(page.getObjGen());
        if (met != page_index.end()) {
            return met->second;
        }
        all(); // a page of a branch not read yet, or no page: only the whole list says
    }
    if (!page_index_built) {
        page_index.clear();
        for (size_t i = 0; i < pages.size(); ++i) {
            page_index.emplace(pages[i].getObjGen(), static_cast<int>(i));
        }
        page_index_built = true;
    }
    auto known = page_index.find(page.getObjGen());
    return known == page_index.end() ? -1 : known->second;
}

void PageList::read_whole()
{
    check_page_tree_depth(*pdf);
    pages = pdf->getAllPages();
    page_count = static_cast<int>(pages.size());
    if (!for_export) {
        return;
    }
    check_pages_are_dictionaries(*pdf, pages);
    bool walked = find_inherited_frames(pdf->getRoot().getKey("/Pages"), pages, frames, page_frame);
    if (!walked) {
        // Not the tree getAllPages reported: let qpdf push the attributes itself.
        frames.clear();
        page_frame.clear();
        pdf->pushInheritedAttributesToPage();
        pages = pdf->getAllPages();
        page_count = static_cast<int>(pages.size());
        return;
    }
    if (frames.size() == 1) {
        frames.clear(); // nothing to inherit
        page_frame.clear();
    }
}

void PageList::fall_back()
{
    // What was given out: the count (the caller planned with it) and the pages found.
    int given_count = page_count;
    std::vector<QPDFObjectHandle> given = pages;
    reset();
    read_whole();
    // Damage qpdf met now (and any it met since the open) is damage an open
    // that read every page would have seen.
    completion_warned = pdf->anyWarnings();
    auto refuse = [this](std::string const &what) {
        throw QPDFExc(qpdf_e_damaged_pdf, pdf->getFilename(), "", 0, "its page tree is inconsistent: " + what);
    };
    if (page_count != given_count) {
        refuse("its /Count says " + std::to_string(given_count) + " pages, its /Kids hold " +
               std::to_string(page_count));
    }
    for (size_t i = 0; i < given.size(); ++i) {
        if (given[i].isInitialized() && given[i].getObjGen() != pages[i].getObjGen()) {
            refuse("page " + std::to_string(i + 1) + " is not where its /Count places it");
        }
    }
}

} // namespace pe
