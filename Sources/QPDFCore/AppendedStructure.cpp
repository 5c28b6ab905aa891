// The structure of the twins of an appended output whose tagged source has a
// page used more than once (Appended::clone_structure, see Appended.hh): the
// source's tree stays as it is for the first placements (the page objects
// themselves), and the k-th further placements get instance k of the elements
// with content on them, as copying's StructureTree.cpp makes it: an element
// with content on a page placed more than k times, and its ancestors, cloned in
// tree order after the root's kids (contentless elements, /ID and /Ref stay with
// the first instance), content items pointing at the twins and their
// annotations; a form XObject's marked content resolves to the first instance
// only. Numbers: each twin with marked content and each twin annotation an
// element refers to get new /StructParents (/StructParent) numbers above every
// number of the source's parent tree, in one new leaf of it.
#include "Appended.hh"
#include "StructureTree.hh"

#include <algorithm>
#include <unordered_map>

namespace pe {
namespace {

// The largest key of the number tree `node` (its /Nums and /Limits, through
// /Kids, each node once, at most page_tree_maximum_depth levels); -1 none.
long long largest_number(QPDFObjectHandle node)
{
    long long largest = -1;
    std::set<QPDFObjGen> seen;
    std::vector<std::pair<QPDFObjectHandle, int>> pending{{node, 0}};
    while (!pending.empty()) {
        auto [at, depth] = pending.back();
        pending.pop_back();
        if (!at.isDictionary() || depth > page_tree_maximum_depth() ||
            (at.isIndirect() && !seen.insert(at.getObjGen()).second)) {
            continue;
        }
        for (char const *key : {"/Nums", "/Limits"}) {
            QPDFObjectHandle numbers = at.getKey(key);
            if (!numbers.isArray()) {
                continue;
            }
            int n = numbers.getArrayNItems();
            for (int i = 0; i < n; i += key[1] == 'N' ? 2 : 1) {
                QPDFObjectHandle number = numbers.getArrayItem(i);
                if (number.isInteger()) {
                    largest = std::max(largest, number.getIntValue());
                }
            }
        }
        QPDFObjectHandle kids = at.getKey("/Kids");
        if (kids.isArray()) {
            for (QPDFObjectHandle const &kid : kids.getArrayAsVector()) {
                pending.emplace_back(kid, depth + 1);
            }
        }
    }
    return largest;
}

// The entries of element `from` a clone has: not its tree links (/P, /K, /Pg),
// nor what stays with the first instance (/ID, /Ref); values below the top level
// are shared with `from` (nothing changes them).
QPDFObjectHandle clone_of(QPDFObjectHandle from)
{
    QPDFObjectHandle clone = from.unsafeShallowCopy();
    for (char const *key : {"/P", "/K", "/Pg", "/ID", "/Ref"}) {
        clone.removeKey(key);
    }
    return clone;
}

} // namespace

long long Appended::free_structure_numbers(QPDFObjectHandle tree_root)
{
    long long next = std::max(largest_number(tree_root.getKey("/ParentTree")) + 1, 0LL);
    QPDFObjectHandle declared = tree_root.getKey("/ParentTreeNextKey");
    if (declared.isInteger()) {
        next = std::max(next, declared.getIntValue());
    }
    // Room for a number per twin and twin annotation within PDF's integers
    // (2^31 - 1, Annex C); a hostile /ParentTreeNextKey must not overflow.
    return next <= (1LL << 30) ? next : -1;
}

void Appended::clone_structure()
{
    SourceStructure const &tree = *structure;
    QPDF &pdf = *source.pdf;
    QPDFObjectHandle tree_root = pdf.getRoot().getKey("/StructTreeRoot");
    int instances = uses.empty() ? 1 : *std::max_element(uses.begin(), uses.end());
    // Marked content of each twin (MCID -> element) and the element of each twin
    // annotation an element refers to.
    std::map<std::pair<int, int>, std::map<long long, QPDFObjectHandle>> marks;
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> annotation_marks;
    std::vector<QPDFObjectHandle> top;
    for (int k = 1; k < instances; ++k) {
        // The items of each element with content on a page placed more than k
        // times, and of its ancestors (their element kids), as SourceBuild::mark.
        std::unordered_map<int, std::vector<int>> kept;
        std::vector<int> top_kept;
        for (auto const &[page, places] : tree.on_page) {
            if (page < 0 || static_cast<size_t>(page) >= uses.size() || uses[static_cast<size_t>(page)] <= k) {
                continue;
            }
            for (ContentPlace const &place : places) {
                bool known = kept.count(place.node) != 0;
                kept[place.node].push_back(place.item);
                for (int node = place.node; !known;) {
                    StructureNode const &element = tree.nodes[static_cast<size_t>(node)];
                    if (element.parent < 0) {
                        top_kept.push_back(element.position);
                        break;
                    }
                    known = kept.count(element.parent) != 0;
                    kept[element.parent].push_back(element.position);
                    node = element.parent;
                }
            }
        }
        std::sort(top_kept.begin(), top_kept.end());
        // Each kept subtree cloned without recursion (a tree may be
        // page_tree_maximum_depth levels deep).
        struct Frame {
            int node;
            QPDFObjectHandle element;
            std::vector<int> positions;
            size_t next = 0;
            Twin const *own = nullptr; // the twin of the element's own page
            std::vector<QPDFObjectHandle> kids;
        };
        auto twin_at = [this, k](int page) -> Twin const * {
            auto found = twins.find(std::make_pair(page, k));
            return found == twins.end() ? nullptr : &found->second;
        };
        auto start = [&](int node, QPDFObjectHandle parent) {
            StructureNode const &from = tree.nodes[static_cast<size_t>(node)];
            Frame frame{node, make_indirect(pdf, clone_of(from.dict)), kept[node], 0, nullptr, {}};
            // What it refers to: the source's objects, the tree root, twins
            // (changed) and other clones.
            settled.push_back(frame.element);
            std::sort(frame.positions.begin(), frame.positions.end());
            frame.positions.erase(std::unique(frame.positions.begin(), frame.positions.end()), frame.positions.end());
            frame.element.replaceKey("/P", parent);
            frame.own = from.page >= 0 ? twin_at(from.page) : nullptr;
            if (frame.own != nullptr) {
                frame.element.replaceKey("/Pg", frame.own->page);
            }
            return frame;
        };
        for (int position : top_kept) {
            std::vector<Frame> frames;
            frames.push_back(start(tree.top[static_cast<size_t>(position)], tree_root));
            while (!frames.empty()) {
                Frame &frame = frames.back();
                if (frame.next == frame.positions.size()) {
                    QPDFObjectHandle made;
                    if (!frame.kids.empty()) {
                        frame.element.replaceKey("/K", QPDFObjectHandle::newArray(frame.kids));
                        made = frame.element;
                    }
                    frames.pop_back();
                    if (made.isInitialized()) {
                        (frames.empty() ? top : frames.back().kids).push_back(made);
                    }
                    continue;
                }
                StructureNode const &node = tree.nodes[static_cast<size_t>(frame.node)];
                StructureItem const &item = node.items[static_cast<size_t>(frame.positions[frame.next++])];
                if (item.kind == StructureItem::element) {
                    if (kept.count(item.node) != 0) {
                        QPDFObjectHandle parent = frame.element;
                        frames.push_back(start(item.node, parent)); // `frame` is no longer valid
                    }
                    continue;
                }
                Twin const *at = twin_at(item.page);
                if (at == nullptr) {
                    continue;
                }
                QPDFObjectHandle kid = QPDFObjectHandle::newDictionary();
                if (item.kind == StructureItem::marked || item.kind == StructureItem::reference) {
                    if (item.kind == StructureItem::marked && frame.own == at) {
                        kid = QPDFObjectHandle::newInteger(item.mcid);
                    } else {
                        kid.replaceKey("/Type", QPDFObjectHandle::newName("/MCR"));
                        kid.replaceKey("/Pg", at->page);
                        kid.replaceKey("/MCID", QPDFObjectHandle::newInteger(item.mcid));
                    }
                    if (item.stream.isInitialized()) {
                        kid.replaceKey("/Stm", item.stream); // numbered for the first instance only
                    } else {
                        marks[std::make_pair(item.page, k)][item.mcid] = frame.element;
                    }
                } else {
                    QPDFObjectHandle target;
                    QPDFObjectHandle original = item.target;
                    auto annotation = at->annotations.find(original.getObjGen());
                    if (annotation != at->annotations.end()) {
                        target = annotation->second;
                        annotation_marks.emplace_back(target, frame.element);
                    } else if (original.isStream()) {
                        target = original; // an XObject: the first instance's
                    } else {
                        continue; // an annotation the twin does not have
                    }
                    kid.replaceKey("/Type", QPDFObjectHandle::newName("/OBJR"));
                    kid.replaceKey("/Pg", at->page);
                    kid.replaceKey("/Obj", target);
                }
                frame.kids.push_back(kid);
            }
        }
    }

    // Numbers above the source's, in one new leaf of the parent tree.
    QPDFObjectHandle parent_tree = tree_root.getKey("/ParentTree");
    long long next = first_structure_number;
    long long first = next;
    std::vector<QPDFObjectHandle> nums;
    for (auto &[key, made] : twins) {
        made.page.removeKey("/StructParents"); // the first placement's
        for (auto &annotation : made.annotations) {
            annotation.second.removeKey("/StructParent");
        }
        auto found = marks.find(key);
        if (found == marks.end()) {
            continue;
        }
        std::vector<QPDFObjectHandle> array(
            static_cast<size_t>(found->second.rbegin()->first + 1), QPDFObjectHandle::newNull());
        for (auto const &[mcid, element] : found->second) {
            array[static_cast<size_t>(mcid)] = element;
        }
        made.page.replaceKey("/StructParents", QPDFObjectHandle::newInteger(next));
        nums.push_back(QPDFObjectHandle::newInteger(next++));
        nums.push_back(QPDFObjectHandle::newArray(array));
    }
    for (auto &[annotation, element] : annotation_marks) {
        if (annotation.hasKey("/StructParent")) {
            continue; // two elements claim it: the first keeps it
        }
        annotation.replaceKey("/StructParent", QPDFObjectHandle::newInteger(next));
        nums.push_back(QPDFObjectHandle::newInteger(next++));
        nums.push_back(element);
    }
    if (!nums.empty()) {
        QPDFObjectHandle leaf = QPDFObjectHandle::newDictionary();
        leaf.replaceKey("/Nums", QPDFObjectHandle::newArray(nums));
        QPDFObjectHandle kids = parent_tree.isDictionary() ? parent_tree.getKey("/Kids") : QPDFObjectHandle();
        if (kids.isInitialized() && kids.isArray()) {
            leaf.replaceKey(
                "/Limits",
                QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{
                    QPDFObjectHandle::newInteger(first), QPDFObjectHandle::newInteger(next - 1)}));
            kids.appendItem(make_indirect(pdf, leaf));
            changed.push_back(kids);
        } else if (parent_tree.isDictionary() && parent_tree.getKey("/Nums").isArray()) {
            QPDFObjectHandle old = parent_tree.getKey("/Nums");
            for (QPDFObjectHandle const &entry : nums) {
                old.appendItem(entry);
            }
            changed.push_back(old);
        } else {
            parent_tree = make_indirect(pdf, leaf);
            tree_root.replaceKey("/ParentTree", parent_tree);
        }
        changed.push_back(parent_tree);
    }
    tree_root.replaceKey("/ParentTreeNextKey", QPDFObjectHandle::newInteger(next));
    QPDFObjectHandle k = tree_root.getKey("/K");
    std::vector<QPDFObjectHandle> roots =
        k.isArray() ? k.getArrayAsVector() : (k.isNull() ? std::vector<QPDFObjectHandle>{} : std::vector{k});
    roots.insert(roots.end(), top.begin(), top.end());
    tree_root.replaceKey("/K", QPDFObjectHandle::newArray(roots));
    changed.push_back(tree_root);
}

} // namespace pe
