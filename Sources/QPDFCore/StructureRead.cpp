// Reading a source's structure tree once (see StructureTree.hh): every element
// reachable from /StructTreeRoot /K through /K, each taken the first time it is
// met (a cycle or an element listed twice is ignored after that), with its
// content items and the source page of each: an integer's page is the element's
// /Pg or its nearest ancestor's; an MCR's and an OBJR's their own /Pg, else the
// element's; an OBJR whose /Obj is an annotation of a page belongs to that page.
// Walked without recursion, at most page_tree_maximum_depth levels deep: a deeper
// tree is unusable (the export drops it with a warning).
//
// The threads of a split read one tree together (StructureShare::take): the
// subtrees of the root's kids shared out, then put together again in each
// thread's own opening of the file.
#include "StructureTree.hh"

#include <cstdint>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace pe {

// One subtree of the root as one thread read it: node 0 the top-level element,
// then the elements below it (parents and element items numbered so), without
// their objects; and the elements it reached (object numbers, see key_of), for
// StructureShare to check that no other subtree reached them too.
struct StructureShare::Piece {
    bool failed = false; // too deep, or qpdf threw
    std::vector<StructureNode> nodes;
    std::vector<std::uint64_t> reached;
};

namespace {

// The largest MCID kept: the parent tree holds an array entry per MCID of a
// page, so a hostile 2^40 must not size one (write_tree also refuses arrays far
// sparser than their entries).
constexpr long long max_mcid = 1 << 20;

std::vector<QPDFObjectHandle> kids_of(QPDFObjectHandle k)
{
    if (k.isArray()) {
        return k.getArrayAsVector();
    }
    if (k.isInitialized() && !k.isNull()) {
        return {k};
    }
    return {};
}

// Which elements have no content in their subtree (contentless, empty_kids,
// empty_top). A child's index is always larger than its parent's: one backward
// pass.
void settle_contentless(SourceStructure &tree)
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

std::uint64_t key_of(QPDFObjGen og)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(og.getObj())) << 32) |
        static_cast<std::uint32_t>(og.getGen());
}

class Reader {
  public:
    explicit Reader(Source &from) : source(from) {}

    SourceStructure read()
    {
        if (!read_top() || !expand()) {
            return std::move(tree);
        }
        settle_contentless(tree);
        tree.usable = true;
        return std::move(tree);
    }

    // The root's kid elements alone (usable when there is a root): for each, its
    // object or its index in the root's /K.
    SourceStructure read_top_only()
    {
        tree.usable = read_top();
        return std::move(tree);
    }

    // Reads the subtree of top-level element `top` alone into `piece` (see
    // StructureShare::Piece), and the same with this opening's objects into
    // `objects`. Throws when the root's kids are not `top_count` elements.
    void read_piece(size_t top, size_t top_count, StructureShare::Piece &piece, std::vector<StructureNode> &objects)
    {
        if (!read_top() || tree.top.size() != top_count || top >= top_count) {
            throw std::runtime_error("the structure tree's root reads differently");
        }
        std::vector<Pending> mine;
        for (Pending const &next : pending) {
            if (next.node == static_cast<int>(top)) {
                mine.push_back(next);
            }
        }
        pending = std::move(mine);
        if (!expand()) {
            piece.failed = true;
            return;
        }
        int first = static_cast<int>(top_count);
        auto local = [first, top](int node) { return node == static_cast<int>(top) ? 0 : node - first + 1; };
        objects.reserve(tree.nodes.size() - top_count + 1);
        for (size_t i = 0; i < tree.nodes.size(); ++i) {
            if (i < top_count && i != top) {
                continue;
            }
            StructureNode node = std::move(tree.nodes[i]);
            node.parent = node.parent < 0 ? -1 : local(node.parent);
            for (StructureItem &item : node.items) {
                if (item.kind == StructureItem::element) {
                    item.node = local(item.node);
                }
            }
            objects.push_back(std::move(node));
        }
        piece.nodes.reserve(objects.size());
        for (StructureNode const &node : objects) {
            StructureNode bare = node;
            bare.dict = QPDFObjectHandle();
            for (StructureItem &item : bare.items) {
                item.stream = QPDFObjectHandle();
                item.target = QPDFObjectHandle();
            }
            piece.nodes.push_back(std::move(bare));
        }
        for (QPDFObjGen const &og : seen) {
            if (og != root_og && top_ogs.count(og) == 0) {
                piece.reached.push_back(key_of(og));
            }
        }
    }

    // The root and its kid elements, nodes 0 to top - 1, each waiting in
    // `pending` to be read; false when there is no root (tree.error says why).
    bool read_top()
    {
        QPDFObjectHandle root = dict_key(source.pdf->getRoot(), "/StructTreeRoot");
        if (!root.isDictionary()) {
            tree.error = "no /StructTreeRoot";
            return false;
        }
        if (root.isIndirect()) {
            root_og = root.getObjGen();
            seen.insert(root_og);
        }
        depth_limit = page_tree_maximum_depth();
        std::vector<QPDFObjectHandle> kids = kids_of(root.getKey("/K"));
        for (size_t raw = 0; raw < kids.size(); ++raw) {
            QPDFObjectHandle kid = kids[raw];
            if (kind_of(kid) != StructureItem::element || !first_time(kid)) {
                continue;
            }
            int node = add_node(kid, -1, static_cast<int>(tree.top.size()), -1, 1, static_cast<int>(raw));
            tree.top.push_back(node);
            if (kid.isIndirect()) {
                top_ogs.insert(kid.getObjGen());
            }
        }
        return true;
    }

    // Reads every element waiting in `pending`; false when the tree is nested
    // too deep (tree.error says so, and tree.nodes is emptied).
    bool expand()
    {
        while (!pending.empty()) {
            Pending next = pending.back();
            pending.pop_back();
            if (next.depth > depth_limit) {
                tree.error = "it is nested more than " + std::to_string(depth_limit) + " levels deep";
                tree.nodes.clear();
                return false;
            }
            read_kids(next);
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
    QPDFObjGen root_og;
    std::set<QPDFObjGen> top_ogs;
    std::vector<Pending> pending;
    int depth_limit = 0;
    bool annotation_pages_built = false;
    std::map<QPDFObjGen, int> annotation_page; // annotation -> 0-based page

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

    int add_node(QPDFObjectHandle dict, int parent, int position, int inherited_page, int depth, int raw)
    {
        StructureNode node;
        node.dict = dict;
        node.raw = raw;
        if (dict.isIndirect()) {
            node.og = dict.getObjGen();
        }
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
        std::vector<QPDFObjectHandle> kids = kids_of(dict.getKey("/K"));
        for (size_t raw = 0; raw < kids.size(); ++raw) {
            QPDFObjectHandle kid = kids[raw];
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
                    item.stream_og = item.stream.getObjGen();
                }
                break;
            case StructureItem::object: {
                item.target = kid.getKey("/Obj");
                if (!item.target.isIndirect() || !(item.target.isDictionary() || item.target.isStream())) {
                    continue;
                }
                item.target_og = item.target.getObjGen();
                int holder = page_holding(item.target);
                item.page = holder >= 0 ? holder : page_of(kid.getKey("/Pg"));
                item.page = item.page >= 0 ? item.page : at.inherited_page;
                break;
            }
            case StructureItem::element:
                if (!first_time(kid)) {
                    continue;
                }
                item.node = add_node(
                    kid, at.node, static_cast<int>(items.size()), at.inherited_page, at.depth + 1, static_cast<int>(raw));
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

};

} // namespace

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

std::shared_ptr<SourceStructure const> StructureShare::take(Source &source)
{
    {
        std::lock_guard<std::mutex> hold(lock);
        if (!begun) {
            begun = true;
            try {
                SourceStructure top = Reader(source).read_top_only();
                if (!top.usable) {
                    whole = true;
                } else {
                    top_count = top.top.size();
                    pieces.resize(top_count);
                }
            } catch (...) {
                whole = true;
                top_count = 0;
            }
        }
    }
    // This thread's subtrees, with its own objects.
    std::map<size_t, std::vector<StructureNode>> own;
    for (;;) {
        auto piece = std::make_shared<Piece>(); // made before a subtree is taken
        size_t top = 0;
        {
            std::lock_guard<std::mutex> hold(lock);
            if (whole || next >= top_count) {
                break;
            }
            top = next++;
        }
        // A subtree taken is always handed back, read or failed: the other
        // threads wait for every one.
        try {
            std::vector<StructureNode> objects;
            Reader(source).read_piece(top, top_count, *piece, objects);
            if (!piece->failed) {
                own.emplace(top, std::move(objects));
            }
        } catch (...) {
            piece->failed = true;
        }
        std::lock_guard<std::mutex> hold(lock);
        pieces[top] = std::move(piece);
        if (++done == top_count) {
            finished.notify_all();
        }
    }
    {
        std::unique_lock<std::mutex> hold(lock);
        finished.wait(hold, [this] { return whole || done == top_count; });
        if (!checked && !whole) {
            checked = true;
            // An element reached from two subtrees, or a subtree that could not
            // be read: the whole tree is read as one, by each thread.
            std::unordered_set<std::uint64_t> reached;
            for (auto const &piece : pieces) {
                if (piece->failed) {
                    whole = true;
                    break;
                }
                for (std::uint64_t key : piece->reached) {
                    if (!reached.insert(key).second) {
                        whole = true;
                        break;
                    }
                }
            }
            for (auto &piece : pieces) {
                piece->reached = {};
            }
        }
    }
    if (whole) {
        return std::make_shared<SourceStructure const>(read_structure(source));
    }
    // The pieces no longer change: read without the lock.
    source.structure_pages.assign(source.pages.size(), false);
    for (auto const &entry : own) {
        for (StructureNode const &node : entry.second) {
            for (StructureItem const &item : node.items) {
                if (item.kind != StructureItem::element && item.page >= 0 &&
                    static_cast<size_t>(item.page) < source.structure_pages.size()) {
                    source.structure_pages[static_cast<size_t>(item.page)] = true;
                }
            }
        }
    }
    auto tree = std::make_shared<SourceStructure>();
    try {
        QPDF &pdf = *source.pdf;
        QPDFObjectHandle root_kids;
        auto root_kid = [&](int raw) {
            if (!root_kids.isInitialized()) {
                root_kids = dict_key(dict_key(pdf.getRoot(), "/StructTreeRoot"), "/K");
            }
            std::vector<QPDFObjectHandle> kids = kids_of(root_kids);
            if (raw < 0 || static_cast<size_t>(raw) >= kids.size()) {
                throw std::runtime_error("the structure tree reads differently");
            }
            return kids[static_cast<size_t>(raw)];
        };
        tree->nodes.resize(top_count);
        for (size_t t = 0; t < top_count; ++t) {
            tree->top.push_back(static_cast<int>(t));
        }
        for (size_t t = 0; t < top_count; ++t) {
            Piece const &piece = *pieces[t];
            auto mine = own.find(t);
            std::vector<StructureNode> const *objects = mine == own.end() ? nullptr : &mine->second;
            int base = static_cast<int>(tree->nodes.size());
            auto global = [base, t](int node) { return node == 0 ? static_cast<int>(t) : base + node - 1; };
            for (size_t i = 0; i < piece.nodes.size(); ++i) {
                StructureNode node = objects != nullptr ? (*objects)[i] : piece.nodes[i];
                node.parent = node.parent < 0 ? -1 : global(node.parent);
                node.position = i == 0 ? static_cast<int>(t) : node.position;
                for (StructureItem &item : node.items) {
                    if (item.kind == StructureItem::element) {
                        item.node = global(item.node);
                    } else if (objects == nullptr) {
                        if (item.stream_og.isIndirect()) {
                            item.stream = pdf.getObject(item.stream_og);
                        }
                        if (item.target_og.isIndirect()) {
                            item.target = pdf.getObject(item.target_og);
                        }
                    }
                }
                if (objects == nullptr) {
                    if (node.og.isIndirect()) {
                        node.dict = pdf.getObject(node.og);
                    } else if (node.parent < 0) {
                        node.dict = root_kid(node.raw);
                    } else {
                        // A direct element: in its parent's /K (made before it).
                        QPDFObjectHandle parent = tree->nodes[static_cast<size_t>(node.parent)].dict;
                        std::vector<QPDFObjectHandle> kids = kids_of(parent.getKey("/K"));
                        if (node.raw < 0 || static_cast<size_t>(node.raw) >= kids.size()) {
                            throw std::runtime_error("the structure tree reads differently");
                        }
                        node.dict = kids[static_cast<size_t>(node.raw)];
                    }
                }
                if (i == 0) {
                    tree->nodes[t] = std::move(node);
                } else {
                    tree->nodes.push_back(std::move(node));
                }
            }
        }
        for (size_t i = 0; i < tree->nodes.size(); ++i) {
            StructureNode const &node = tree->nodes[i];
            if (node.og.isIndirect()) {
                tree->index.emplace(node.og, static_cast<int>(i));
            }
            for (size_t k = 0; k < node.items.size(); ++k) {
                StructureItem const &item = node.items[k];
                if (item.kind != StructureItem::element && item.page >= 0) {
                    tree->on_page[item.page].push_back(ContentPlace{static_cast<int>(i), static_cast<int>(k)});
                }
            }
        }
        settle_contentless(*tree);
        tree->usable = true;
    } catch (std::exception const &) {
        return std::make_shared<SourceStructure const>(read_structure(source));
    }
    return tree;
}

} // namespace pe
