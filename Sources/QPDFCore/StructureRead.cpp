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

    // Reads the root, its kid elements and, level by level, the elements below
    // them until `wanted` elements wait to be read (or `levels` levels are
    // read): the upper tree, the same in every opening of the file. The elements
    // left waiting are the frontier, whose subtrees the threads share out.
    // False when there is no root; throws when the upper tree is nested too
    // deep.
    bool read_upper(size_t wanted, int levels)
    {
        if (!read_top()) {
            return false;
        }
        for (int level = 1; level < levels && !pending.empty() && pending.size() < wanted; ++level) {
            std::vector<Pending> reading = std::move(pending);
            pending.clear();
            for (Pending const &next : reading) {
                if (next.depth > depth_limit) {
                    throw std::runtime_error("nested too deep");
                }
                read_kids(next);
            }
        }
        upper = tree.nodes.size();
        frontier = std::move(pending);
        pending.clear();
        return true;
    }

    size_t upper_count() const { return upper; }
    std::vector<int> frontier_nodes() const
    {
        std::vector<int> nodes;
        for (Pending const &next : frontier) {
            nodes.push_back(next.node);
        }
        return nodes;
    }
    std::vector<StructureNode> const &nodes() const { return tree.nodes; }
    // An element was reached twice (a lone reader keeps the first it meets,
    // which depends on the order it reads the subtrees in).
    bool reached_twice() const { return twice; }

    // Reads the subtree of frontier element `index` into `piece` (see
    // StructureShare::Piece) and the same with this opening's objects into
    // `objects`; piece.failed when it is nested too deep or an element is
    // reached twice.
    void read_piece(size_t index, StructureShare::Piece &piece, std::vector<StructureNode> &objects)
    {
        if (index >= frontier.size() || twice || broken) {
            piece.failed = true;
            return;
        }
        size_t begin = tree.nodes.size();
        int top = frontier[index].node;
        pending = {frontier[index]};
        met.clear();
        if (!expand() || twice) {
            broken = true; // expand emptied the nodes: no further piece
            piece.failed = true;
            return;
        }
        auto local = [begin, top](int node) { return node == top ? 0 : node - static_cast<int>(begin) + 1; };
        objects.reserve(tree.nodes.size() - begin + 1);
        objects.push_back(tree.nodes[static_cast<size_t>(top)]);
        for (size_t i = begin; i < tree.nodes.size(); ++i) {
            objects.push_back(std::move(tree.nodes[i]));
        }
        tree.nodes.resize(begin);
        for (StructureNode &node : objects) {
            node.parent = &node == &objects.front() ? -1 : local(node.parent);
            for (StructureItem &item : node.items) {
                if (item.kind == StructureItem::element) {
                    item.node = local(item.node);
                }
            }
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
        piece.reached = std::move(met);
        met.clear();
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
    QPDFObjGen root_og;
    bool twice = false;             // an element reached twice
    std::vector<std::uint64_t> met; // elements first reached since read_piece began
    size_t upper = 0;
    std::vector<Pending> frontier;
    bool broken = false;
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
        if (!element.isIndirect()) {
            return true;
        }
        QPDFObjGen og = element.getObjGen();
        if (!seen.insert(og).second) {
            twice = true;
            return false;
        }
        met.push_back(key_of(og));
        return true;
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

std::shared_ptr<SourceStructure const> StructureShare::take(Source &source)
{
    // Every thread reads the upper tree itself (a few levels, a few hundred
    // elements at most), then takes subtrees of the frontier.
    Reader reader(source);
    bool upper_read = false;
    try {
        upper_read = reader.read_upper(pieces_wanted, upper_levels) && !reader.reached_twice();
    } catch (...) {
        upper_read = false;
    }
    std::vector<int> frontier = upper_read ? reader.frontier_nodes() : std::vector<int>{};
    {
        std::lock_guard<std::mutex> hold(lock);
        if (!upper_read) {
            whole = true;
        } else if (!begun) {
            begun = true;
            upper = reader.upper_count();
            tops = frontier;
            pieces.resize(tops.size());
        } else if (upper != reader.upper_count() || tops != frontier) {
            whole = true; // cannot happen: the same file read the same way
        }
        if (whole) {
            finished.notify_all();
        }
    }
    // This thread's subtrees, with its own objects.
    std::map<size_t, std::vector<StructureNode>> own;
    for (;;) {
        auto piece = std::make_shared<Piece>(); // made before a subtree is taken
        size_t index = 0;
        {
            std::lock_guard<std::mutex> hold(lock);
            if (whole || next >= tops.size()) {
                break;
            }
            index = next++;
        }
        // A subtree taken is always handed back, read or failed: the other
        // threads wait for every one.
        try {
            std::vector<StructureNode> objects;
            reader.read_piece(index, *piece, objects);
            if (!piece->failed) {
                own.emplace(index, std::move(objects));
            }
        } catch (...) {
            piece->failed = true;
        }
        std::lock_guard<std::mutex> hold(lock);
        pieces[index] = std::move(piece);
        if (++done == tops.size()) {
            finished.notify_all();
        }
    }
    {
        std::unique_lock<std::mutex> hold(lock);
        finished.wait(hold, [this] { return whole || done == tops.size(); });
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
        tree->nodes.assign(reader.nodes().begin(), reader.nodes().begin() + static_cast<long>(upper));
        for (size_t i = 0; i < tree->nodes.size(); ++i) {
            if (tree->nodes[i].parent < 0) {
                tree->top.push_back(static_cast<int>(i));
            }
        }
        for (size_t index = 0; index < tops.size(); ++index) {
            Piece const &piece = *pieces[index];
            auto mine = own.find(index);
            std::vector<StructureNode> *objects = mine == own.end() ? nullptr : &mine->second;
            int top = tops[index];
            int base = static_cast<int>(tree->nodes.size());
            auto global = [base, top](int node) { return node == 0 ? top : base + node - 1; };
            for (size_t i = 0; i < piece.nodes.size(); ++i) {
                StructureNode node = objects != nullptr ? std::move((*objects)[i]) : piece.nodes[i];
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
                if (i == 0) {
                    // The frontier element itself: read as part of the upper
                    // tree; its items are the piece's.
                    tree->nodes[static_cast<size_t>(top)].items = std::move(node.items);
                    continue;
                }
                node.parent = global(node.parent);
                if (objects == nullptr) {
                    if (node.og.isIndirect()) {
                        node.dict = pdf.getObject(node.og);
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
                tree->nodes.push_back(std::move(node));
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
        tree = nullptr;
    }
    {
        // The last thread to take the tree frees the subtrees as read.
        std::lock_guard<std::mutex> hold(lock);
        if (takers > 0 && --takers == 0) {
            pieces.clear();
            pieces.shrink_to_fit();
        }
    }
    if (!tree) {
        return std::make_shared<SourceStructure const>(read_structure(source));
    }
    return tree;
}

} // namespace pe
