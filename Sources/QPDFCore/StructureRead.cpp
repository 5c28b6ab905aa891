// Reading a source's structure tree once (see StructureTree.hh): every element
// reachable from /StructTreeRoot /K through /K, each taken the first time it is
// met (a cycle or an element listed twice is ignored after that), with its
// content items and the source page of each: an integer's page is the element's
// /Pg or its nearest ancestor's; an MCR's and an OBJR's their own /Pg, else the
// element's; an OBJR whose /Obj is an annotation of a page belongs to that page.
// Walked without recursion, at most page_tree_maximum_depth levels deep: a deeper
// tree is unusable (the export drops it with a warning).
#include "StructureTree.hh"

#include <utility>

namespace pe {
namespace {

// The largest MCID kept: the parent tree holds an array entry per MCID of a
// page, so a hostile 2^40 must not size one (write_tree also refuses arrays far
// sparser than their entries).
constexpr long long max_mcid = 1 << 20;

class Reader {
  public:
    explicit Reader(Source &from) : source(from) {}

    SourceStructure read()
    {
        QPDFObjectHandle root = dict_key(source.pdf->getRoot(), "/StructTreeRoot");
        if (!root.isDictionary()) {
            tree.error = "no /StructTreeRoot";
            return std::move(tree);
        }
        if (root.isIndirect()) {
            seen.insert(root.getObjGen());
        }
        depth_limit = page_tree_maximum_depth();
        for (QPDFObjectHandle kid : kids_of(root.getKey("/K"))) {
            if (kind_of(kid) != StructureItem::element || !first_time(kid)) {
                continue;
            }
            int node = add_node(kid, -1, static_cast<int>(tree.top.size()), -1, 1);
            tree.top.push_back(node);
        }
        while (!pending.empty()) {
            Pending next = pending.back();
            pending.pop_back();
            if (next.depth > depth_limit) {
                tree.error = "it is nested more than " + std::to_string(depth_limit) + " levels deep";
                tree.nodes.clear();
                return std::move(tree);
            }
            read_kids(next);
        }
        settle_contentless();
        tree.usable = true;
        return std::move(tree);
    }

    // Whether read() would find the tree usable as far as its shape goes: the
    // same walk over the elements (same order, each taken the first time it is
    // met, the same depth limit), without reading their content items.
    bool shape_readable()
    {
        QPDFObjectHandle root = dict_key(source.pdf->getRoot(), "/StructTreeRoot");
        if (!root.isDictionary()) {
            return false;
        }
        if (root.isIndirect()) {
            seen.insert(root.getObjGen());
        }
        depth_limit = page_tree_maximum_depth();
        std::vector<std::pair<QPDFObjectHandle, int>> walk;
        for (QPDFObjectHandle kid : kids_of(root.getKey("/K"))) {
            if (kind_of(kid) == StructureItem::element && first_time(kid)) {
                walk.emplace_back(kid, 1);
            }
        }
        while (!walk.empty()) {
            auto [element, depth] = walk.back();
            walk.pop_back();
            if (depth > depth_limit) {
                return false;
            }
            for (QPDFObjectHandle kid : kids_of(element.getKey("/K"))) {
                if (kind_of(kid) == StructureItem::element && first_time(kid)) {
                    walk.emplace_back(kid, depth + 1);
                }
            }
        }
        return true;
    }

  private:
    struct Pending {
        int node;
        int inherited_page; // the page integers of this element are on
        int depth;
    };

    Source &source;
    SourceStructure tree;
    std::set<QPDFObjGen> seen;
    std::vector<Pending> pending;
    int depth_limit = 0;
    bool annotation_pages_built = false;
    std::map<QPDFObjGen, int> annotation_page; // annotation -> 0-based page

    static std::vector<QPDFObjectHandle> kids_of(QPDFObjectHandle k)
    {
        if (k.isArray()) {
            return k.getArrayAsVector();
        }
        if (k.isInitialized() && !k.isNull()) {
            return {k};
        }
        return {};
    }

    // What a /K entry is; `element` also for anything unknown that is not an
    // element (the caller checks the dictionary): see is_element.
    static StructureItem::Kind kind_of(QPDFObjectHandle kid)
    {
        if (kid.isInteger()) {
            return StructureItem::marked;
        }
        QPDFObjectHandle type = dict_key(kid, "/Type");
        if (type.isNameAndEquals("/MCR")) {
            return StructureItem::reference;
        }
        if (type.isNameAndEquals("/OBJR")) {
            return StructureItem::object;
        }
        return StructureItem::element;
    }

    // A dictionary that is neither an MCR nor an OBJR is an element when it has
    // a structure type (/S) or says it is one.
    static bool is_element(QPDFObjectHandle kid)
    {
        return kid.isDictionary() &&
            (kid.getKey("/S").isName() || dict_key(kid, "/Type").isNameAndEquals("/StructElem"));
    }

    bool first_time(QPDFObjectHandle element)
    {
        if (!is_element(element)) {
            return false;
        }
        return !element.isIndirect() || seen.insert(element.getObjGen()).second;
    }

    int page_of(QPDFObjectHandle page) { return page.isDictionary() ? source.index_of_page(page) : -1; }

    int add_node(QPDFObjectHandle dict, int parent, int position, int inherited_page, int depth)
    {
        StructureNode node;
        node.dict = dict;
        node.parent = parent;
        node.position = position;
        node.page = page_of(dict.getKey("/Pg"));
        int index = static_cast<int>(tree.nodes.size());
        if (dict.isIndirect()) {
            tree.index.emplace(dict.getObjGen(), index);
        }
        pending.push_back(Pending{index, node.page >= 0 ? node.page : inherited_page, depth});
        tree.nodes.push_back(std::move(node));
        return index;
    }

    void read_kids(Pending const &at)
    {
        QPDFObjectHandle dict = tree.nodes[static_cast<size_t>(at.node)].dict;
        std::vector<StructureItem> items;
        for (QPDFObjectHandle kid : kids_of(dict.getKey("/K"))) {
            StructureItem item;
            item.kind = kind_of(kid);
            switch (item.kind) {
            case StructureItem::marked:
                item.mcid = kid.getIntValue();
                item.page = at.inherited_page;
                break;
            case StructureItem::reference:
                if (!kid.getKey("/MCID").isInteger()) {
                    continue;
                }
                item.mcid = kid.getKey("/MCID").getIntValue();
                item.page = page_of(kid.getKey("/Pg"));
                item.page = item.page >= 0 ? item.page : at.inherited_page;
                if (kid.getKey("/Stm").isStream()) {
                    item.stream = kid.getKey("/Stm");
                }
                break;
            case StructureItem::object: {
                item.target = kid.getKey("/Obj");
                if (!item.target.isIndirect() || !(item.target.isDictionary() || item.target.isStream())) {
                    continue;
                }
                int holder = page_holding(item.target);
                item.page = holder >= 0 ? holder : page_of(kid.getKey("/Pg"));
                item.page = item.page >= 0 ? item.page : at.inherited_page;
                break;
            }
            case StructureItem::element:
                if (!first_time(kid)) {
                    continue;
                }
                item.node = add_node(kid, at.node, static_cast<int>(items.size()), at.inherited_page, at.depth + 1);
                break;
            }
            if (item.kind == StructureItem::marked || item.kind == StructureItem::reference) {
                if (item.mcid < 0 || item.mcid > max_mcid) {
                    continue;
                }
            }
            if (item.kind != StructureItem::element && item.page >= 0) {
                tree.on_page[item.page].push_back(ContentPlace{at.node, static_cast<int>(items.size())});
            }
            items.push_back(item);
        }
        tree.nodes[static_cast<size_t>(at.node)].items = std::move(items);
    }

    // The source page whose /Annots holds `annotation`; -1 when none.
    int page_holding(QPDFObjectHandle annotation)
    {
        if (!annotation_pages_built) {
            annotation_pages_built = true;
            for (size_t i = 0; i < source.pages.size(); ++i) {
                QPDFObjectHandle annots = source.pages[i].getKey("/Annots");
                if (!annots.isArray()) {
                    continue;
                }
                for (QPDFObjectHandle &annot : annots.getArrayAsVector()) {
                    if (annot.isIndirect()) {
                        annotation_page.emplace(annot.getObjGen(), static_cast<int>(i));
                    }
                }
            }
        }
        auto found = annotation_page.find(annotation.getObjGen());
        return found == annotation_page.end() ? -1 : found->second;
    }

    // A child's index is always larger than its parent's: one backward pass.
    void settle_contentless()
    {
        for (size_t i = tree.nodes.size(); i-- > 0;) {
            StructureNode &node = tree.nodes[i];
            for (StructureItem const &item : node.items) {
                if (item.kind != StructureItem::element) {
                    node.contentless = false;
                }
            }
            if (node.contentless) {
                if (node.parent >= 0) {
                    tree.nodes[static_cast<size_t>(node.parent)].empty_kids.push_back(node.position);
                } else {
                    tree.empty_top.push_back(node.position);
                }
            } else if (node.parent >= 0) {
                tree.nodes[static_cast<size_t>(node.parent)].contentless = false;
            }
        }
    }
};

} // namespace

int structure_readability(Source &source)
{
    if (!dict_key(source.pdf->getRoot(), "/StructTreeRoot").isDictionary()) {
        return 0;
    }
    try {
        return Reader(source).shape_readable() ? 1 : 2;
    } catch (std::exception const &) {
        return 2;
    }
}

SourceStructure read_structure(Source &source)
{
    try {
        return Reader(source).read();
    } catch (std::exception const &error) {
        SourceStructure broken;
        broken.error = error.what();
        return broken;
    }
}

} // namespace pe
