// The output's structure tree, built from the trees of every tagged source of its
// pages (read once each by StructureRead.cpp; numbered and written by
// StructureWrite.cpp):
//
// - An element is kept when it or a descendant has content (an MCID, a marked-
//   content reference, an object reference) on a page of the output; content on
//   other pages is left out, and so is an element left with nothing. An element
//   without any content in its source (an empty /Sect) is kept with its parent.
// - Every kept element is a new dictionary of the output (never qpdf's copy of the
//   source's element, whose /P, /K and /Pg reach pages that are not exported): its
//   /S, /T, /Lang, /Alt, /A, /C... are copied as values, /Pg and /MCR /Pg point at
//   the output's copy of the page, /OBJR /Obj at the output's copy of the
//   annotation, /P at the new parent, /Ref at kept elements; a link's structure
//   destination (/A /SD) at the kept element, or removed.
// - A page placed more than once: the structure of its content is cloned for each
//   further copy (instance k of a source's tree holds the content of the pages
//   placed more than k times, pointing at their (k+1)-th copies), after the first
//   instance, so that every copy's marked content resolves to an element of its
//   own. A form XObject is shared by the copies: its content resolves to the first
//   instance only.
// - Numbers: each output page with marked content, each annotation an element
//   refers to and each form XObject with referenced marked content get fresh
//   /StructParents (/StructParent) numbers, in output order, in one flat
//   /ParentTree; every stale number copied from a source is removed first.
// - Several tagged sources: one /StructTreeRoot whose /K holds each source's kept
//   top-level elements, sources in order of first appearance, each source's
//   logical order as it was (not re-sorted by the new page order). /RoleMap and
//   /ClassMap merged: a key with a different value in a later source is renamed
//   (/Heading -> /Heading_2) with its uses in that source; /IDTree rebuilt from
//   the kept elements' /ID, made unique (a clone has none); /Namespaces
//   concatenated; /MarkInfo of the first kept source that has one, with /Marked
//   true when a kept source says so (none when no kept source had one). A later
//   source whose /Lang differs from the output's gives it to its top-level
//   elements that have none.
// - A source whose tree cannot be read (too deep, damaged) or built is left out
//   with the "structure tree" warning; the others are kept.
#include "StructureTree.hh"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace pe {
namespace {

using AnnotationCopies = std::map<std::pair<size_t, QPDFObjGen>, QPDFObjectHandle>;

// One source's contribution, built on the side and merged only when complete.
class SourceBuild {
  public:
    SourceBuild(
        QPDF &output,
        Source &from,
        int index,
        SourceStructure const &structure,
        std::vector<PlacedPage> const &pages,
        AnnotationCopies const &annotation_copies,
        QPDFObjectHandle tree_root,
        Merged &so_far) :
        out(output),
        source(from),
        s(index),
        tree(structure),
        placed(pages),
        annotations(annotation_copies),
        root(tree_root),
        merged(so_far)
    {
    }

    void build()
    {
        for (size_t i = 0; i < placed.size(); ++i) {
            if (placed[i].source == s) {
                placements[placed[i].page].push_back(i);
            }
        }
        mark();
        QPDFObjectHandle own_tree = source.catalog("/StructTreeRoot");
        plan_names(dict_key(own_tree, "/RoleMap"), merged.roles, role_renames, roles);
        plan_names(dict_key(own_tree, "/ClassMap"), merged.classes, class_renames, classes);
        QPDFObjectHandle own_lang = source.catalog("/Lang");
        QPDFObjectHandle out_lang = out.getRoot().getKey("/Lang");
        if (own_lang.isString() && !(out_lang.isString() && out_lang.getStringValue() == own_lang.getStringValue())) {
            lang = own_lang;
        }
        int instances = 0;
        for (int position : top_used) {
            instances = std::max(instances, uses[tree.top[static_cast<size_t>(position)]].copies);
        }
        for (int k = 0; k < std::max(instances, 1); ++k) {
            std::vector<int> positions;
            for (int position : top_used) {
                if (uses[tree.top[static_cast<size_t>(position)]].copies > k) {
                    positions.push_back(position);
                }
            }
            if (k == 0) {
                positions.insert(positions.end(), tree.empty_top.begin(), tree.empty_top.end());
            }
            std::sort(positions.begin(), positions.end());
            for (int position : positions) {
                QPDFObjectHandle element = emit(tree.top[static_cast<size_t>(position)], k, root);
                if (element.isInitialized()) {
                    top.push_back(element);
                }
            }
        }
        settle_references();
        QPDFObjectHandle spaces = dict_key(own_tree, "/Namespaces");
        if (spaces.isArray()) {
            for (QPDFObjectHandle &space : spaces.getArrayAsVector()) {
                QPDFObjectHandle copy = value_copy(space, 0);
                if (copy.isDictionary()) {
                    namespaces.push_back(copy);
                }
            }
        }
    }

    // Adds what build made to `merged`; nothing when the source keeps no element.
    void commit()
    {
        if (top.empty()) {
            return;
        }
        merged.top.insert(merged.top.end(), top.begin(), top.end());
        for (auto &entry : page_marks) {
            merged.page_marks[entry.first] = std::move(entry.second);
        }
        merged.annotations.insert(merged.annotations.end(), annotation_marks.begin(), annotation_marks.end());
        for (auto &form : forms) {
            merged.forms.push_back(std::move(form));
        }
        merged.objects.insert(merged.objects.end(), objects.begin(), objects.end());
        for (auto &entry : roles) {
            merged.roles.emplace(entry.first, entry.second);
        }
        for (auto &entry : classes) {
            merged.classes.emplace(entry.first, entry.second);
        }
        for (auto &entry : ids) {
            merged.ids.emplace(entry.first, entry.second);
        }
        merged.namespaces.insert(merged.namespaces.end(), namespaces.begin(), namespaces.end());
        for (auto const &entry : first_instance) {
            QPDFObjectHandle dict = tree.nodes[static_cast<size_t>(entry.first)].dict;
            if (dict.isIndirect()) {
                merged.elements.emplace(std::make_pair(s, dict.getObjGen()), entry.second);
            }
        }
        QPDFObjectHandle mark_info = source.catalog("/MarkInfo");
        if (!merged.mark_info.isInitialized() && mark_info.isDictionary()) {
            merged.mark_info = fresh_copy(mark_info);
        }
        QPDFObjectHandle marked = dict_key(mark_info, "/Marked");
        merged.marked = merged.marked || (marked.isBool() && marked.getBoolValue());
    }

  private:
    // How far an element is used in this output.
    struct Use {
        int copies = 0;         // the most copies of a page its subtree has content on
        bool linked = false;    // listed in its parent's items
        std::vector<int> items; // its items with content on the output's pages
    };

    QPDF &out;
    Source &source;
    int s;
    SourceStructure const &tree;
    std::vector<PlacedPage> const &placed;
    AnnotationCopies const &annotations;
    QPDFObjectHandle root;
    Merged &merged;

    std::map<int, std::vector<size_t>> placements; // source page -> placed indices
    std::unordered_map<int, Use> uses;
    std::vector<int> top_used; // positions in tree.top
    QPDFObjectHandle lang;     // given to top-level elements without /Lang; uninitialised none
    std::map<std::string, std::string> role_renames, class_renames;
    std::map<QPDFObjGen, QPDFObjectHandle> copied_values;
    std::map<int, QPDFObjectHandle> first_instance; // node -> its element in instance 0
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> pending_refs; // element, source /Ref
    std::set<QPDFObjGen> objects_marked;

    // What build makes.
    std::vector<QPDFObjectHandle> top;
    std::map<size_t, std::map<long long, QPDFObjectHandle>> page_marks;
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> annotation_marks;
    std::vector<std::pair<QPDFObjectHandle, std::map<long long, QPDFObjectHandle>>> forms;
    std::map<QPDFObjGen, size_t> form_index;
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> objects;
    std::map<std::string, MapEntry> roles, classes;
    std::map<std::string, QPDFObjectHandle> ids; // of kept elements
    std::set<std::string> ids_used;              // given to elements, kept or not
    std::vector<QPDFObjectHandle> namespaces;

    // The (k+1)-th placed copy of source page `page`; -1 when there is none.
    long long placed_at(int page, int k) const
    {
        auto found = placements.find(page);
        if (found == placements.end() || static_cast<size_t>(k) >= found->second.size()) {
            return -1;
        }
        return static_cast<long long>(found->second[static_cast<size_t>(k)]);
    }

    // Marks each element with content on a placed page, and its ancestors: work in
    // proportion to the content of the output's pages, not to the whole tree.
    void mark()
    {
        for (auto const &entry : placements) {
            auto found = tree.on_page.find(entry.first);
            if (found == tree.on_page.end()) {
                continue;
            }
            int copies = static_cast<int>(entry.second.size());
            for (ContentPlace const &place : found->second) {
                uses[place.node].items.push_back(place.item);
                raise(place.node, copies);
            }
        }
    }

    void raise(int node, int copies)
    {
        while (node >= 0) {
            Use &use = uses[node];
            if (use.linked && use.copies >= copies) {
                return;
            }
            use.copies = std::max(use.copies, copies);
            StructureNode const &element = tree.nodes[static_cast<size_t>(node)];
            if (!use.linked) {
                use.linked = true;
                if (element.parent >= 0) {
                    uses[element.parent].items.push_back(element.position);
                } else {
                    top_used.push_back(element.position);
                }
            }
            node = element.parent;
        }
    }

    // Plans the entries of a source's /RoleMap or /ClassMap: keys new to the
    // output are added, keys with the same value shared, keys with another value
    // renamed (`renames`); `additions` holds the entries to add, values copied
    // (a role map's values renamed too).
    void plan_names(
        QPDFObjectHandle map,
        std::map<std::string, MapEntry> const &taken,
        std::map<std::string, std::string> &renames,
        std::map<std::string, MapEntry> &additions)
    {
        if (!map.isDictionary()) {
            return;
        }
        bool role = &renames == &role_renames;
        std::map<std::string, QPDFObjectHandle> wanted;
        for (std::string const &key : map.getKeys()) {
            QPDFObjectHandle value = map.getKey(key);
            if (role && !value.isName()) {
                continue;
            }
            auto existing = taken.find(key);
            if (existing != taken.end() && existing->second.signature == fresh_copy(value).unparse()) {
                continue;
            }
            std::string name = key;
            if (existing != taken.end()) {
                name = unique_name(key, false, [&](std::string const &candidate) {
                    return taken.count(candidate) != 0 || map.hasKey(candidate) || wanted.count(candidate) != 0;
                });
                renames[key] = name;
            }
            wanted[name] = value;
        }
        for (auto &entry : wanted) {
            QPDFObjectHandle value = entry.second;
            std::string signature = fresh_copy(value).unparse();
            value = role ? renamed(value, renames) : value_copy(value, 0);
            additions[entry.first] = MapEntry{signature, value};
        }
    }

    static QPDFObjectHandle renamed(QPDFObjectHandle name, std::map<std::string, std::string> const &renames)
    {
        std::string text = name.getName();
        auto found = renames.find(text);
        return QPDFObjectHandle::newName(found == renames.end() ? text : found->second);
    }

    // A source value as a value of the output: arrays and dictionaries rebuilt
    // (an indirect one once, as an indirect object), streams copied by qpdf,
    // references to pages pointing at their first copy (null when not exported),
    // references to structure elements and anything deeper than
    // max_value_depth null: nothing reaches a page that is not exported.
    QPDFObjectHandle value_copy(QPDFObjectHandle value, int depth)
    {
        if (!value.isInitialized() || value.isNull() || depth > max_value_depth) {
            return QPDFObjectHandle::newNull();
        }
        if (!value.isArray() && !value.isDictionary() && !value.isStream()) {
            return fresh_copy(value);
        }
        QPDFObjGen og = value.getObjGen();
        if (value.isIndirect()) {
            auto known = copied_values.find(og);
            if (known != copied_values.end()) {
                return known->second;
            }
            if (tree.index.count(og) != 0) {
                return QPDFObjectHandle::newNull();
            }
            int page = source.index_of_page(value);
            if (page >= 0) {
                long long at = placed_at(page, 0);
                return at < 0 ? QPDFObjectHandle::newNull() : placed[static_cast<size_t>(at)].to;
            }
        }
        if (value.isStream()) {
            return copy_foreign(out, value);
        }
        QPDFObjectHandle type = dict_key(value, "/Type");
        if (type.isNameAndEquals("/Page") || type.isNameAndEquals("/Pages") || type.isNameAndEquals("/StructElem")) {
            return QPDFObjectHandle::newNull();
        }
        if (!value.isIndirect() && value.isDictionary()) {
            std::map<std::string, QPDFObjectHandle> entries;
            for (auto const &entry : value.getDictAsMap()) {
                QPDFObjectHandle copy = value_copy(entry.second, depth + 1);
                if (!copy.isNull()) {
                    entries.emplace(entry.first, copy);
                }
            }
            return QPDFObjectHandle::newDictionary(entries);
        }
        QPDFObjectHandle copy = value.isArray() ? QPDFObjectHandle::newArray() : QPDFObjectHandle::newDictionary();
        if (value.isIndirect()) {
            copy = out.makeIndirectObject(copy);
            copied_values.emplace(og, copy);
        }
        if (value.isArray()) {
            for (QPDFObjectHandle &item : value.getArrayAsVector()) {
                copy.appendItem(value_copy(item, depth + 1));
            }
        } else {
            for (auto const &entry : value.getDictAsMap()) {
                copy.replaceKey(entry.first, value_copy(entry.second, depth + 1));
            }
        }
        return copy;
    }

    // The entries of source element `from` other than its tree links, into
    // `to` (read in one pass and made into one dictionary by start: made key by
    // key, the tagged linearized book's extract took about 4% more time).
    // `ref`: its /Ref, to be settled once every element is made.
    void copy_entries(
        QPDFObjectHandle from, std::map<std::string, QPDFObjectHandle> &to, QPDFObjectHandle &ref, int k, bool top_level)
    {
        auto put = [&to](std::string const &key, QPDFObjectHandle value) {
            if (!value.isNull()) {
                to.emplace(key, value);
            }
        };
        for (auto const &entry : from.getDictAsMap()) {
            std::string const &key = entry.first;
            QPDFObjectHandle value = entry.second;
            if (key == "/P" || key == "/K" || key == "/Pg" || value.isNull()) {
                continue;
            }
            if (key == "/S") {
                if (value.isName()) {
                    put(key, renamed(value, role_renames));
                }
            } else if (key == "/C") {
                put(key, renamed_classes(value));
            } else if (key == "/ID") {
                if (k == 0 && value.isString()) {
                    std::string id = value.getStringValue();
                    auto taken = [this](std::string const &candidate) {
                        return merged.ids.count(candidate) != 0 || ids_used.count(candidate) != 0;
                    };
                    id = unique_name(id, false, taken);
                    ids_used.insert(id);
                    put(key, QPDFObjectHandle::newString(id)); // in /IDTree once kept (emit)
                }
            } else if (key == "/Ref") {
                if (k == 0 && value.isArray()) {
                    ref = value;
                }
            } else {
                put(key, value_copy(value, 0));
            }
        }
        if (top_level && lang.isInitialized() && to.count("/Lang") == 0) {
            put("/Lang", fresh_copy(lang));
        }
    }

    QPDFObjectHandle renamed_classes(QPDFObjectHandle value)
    {
        if (value.isName()) {
            return renamed(value, class_renames);
        }
        if (!value.isArray()) {
            return QPDFObjectHandle::newNull();
        }
        std::vector<QPDFObjectHandle> items;
        for (QPDFObjectHandle &item : value.getArrayAsVector()) {
            items.push_back(item.isName() ? renamed(item, class_renames) : fresh_copy(item));
        }
        return QPDFObjectHandle::newArray(items);
    }

    // An element being made by emit: its node, its output object, the items it
    // keeps, the next one to look at and the kids made so far.
    struct Frame {
        int index;
        QPDFObjectHandle element;
        std::vector<int> positions;
        size_t next = 0;
        long long own = -1; // its own page's placed index; -1 none
        std::vector<QPDFObjectHandle> kids;
        bool named = false; // it has an /ID
    };

    // Starts the element for instance k of node `index` under `parent` (an
    // output object).
    Frame start(int index, int k, QPDFObjectHandle parent)
    {
        StructureNode const &node = tree.nodes[static_cast<size_t>(index)];
        std::map<std::string, QPDFObjectHandle> entries;
        QPDFObjectHandle ref;
        copy_entries(node.dict, entries, ref, k, parent.getObjGen() == root.getObjGen());
        entries["/P"] = parent;
        long long own = node.page >= 0 ? placed_at(node.page, k) : -1;
        if (own >= 0) {
            entries["/Pg"] = placed[static_cast<size_t>(own)].to;
        }
        bool named = entries.count("/ID") != 0;
        Frame frame{index, out.makeIndirectObject(QPDFObjectHandle::newDictionary(entries)), {}, 0, own, {}, named};
        if (ref.isInitialized()) {
            pending_refs.emplace_back(frame.element, ref);
        }
        auto use = uses.find(index);
        if (use != uses.end()) {
            frame.positions = use->second.items;
        }
        if (k == 0) {
            frame.positions.insert(frame.positions.end(), node.empty_kids.begin(), node.empty_kids.end());
        }
        std::sort(frame.positions.begin(), frame.positions.end());
        frame.positions.erase(std::unique(frame.positions.begin(), frame.positions.end()), frame.positions.end());
        return frame;
    }

    // The finished element of `frame`; uninitialised when nothing of it is kept.
    QPDFObjectHandle finish(Frame &frame, int k)
    {
        if (frame.kids.empty() && !tree.nodes[static_cast<size_t>(frame.index)].contentless) {
            return QPDFObjectHandle(); // made, but referenced by nothing: not written
        }
        frame.element.replaceKey("/K", QPDFObjectHandle::newArray(frame.kids));
        if (k == 0) {
            first_instance.emplace(frame.index, frame.element);
            if (frame.named) {
                ids[frame.element.getKey("/ID").getStringValue()] = frame.element; // a string (copy_entries)
            }
        }
        return frame.element;
    }

    // Instance k of node `index` under `parent` (an output object); uninitialised
    // when nothing of it is kept. Walks the subtree with a stack of its own: a tree
    // may be page_tree_maximum_depth levels deep, and a thread's stack small.
    QPDFObjectHandle emit(int index, int k, QPDFObjectHandle parent)
    {
        std::vector<Frame> frames;
        frames.push_back(start(index, k, parent));
        QPDFObjectHandle made;
        while (!frames.empty()) {
            Frame &frame = frames.back();
            if (frame.next == frame.positions.size()) {
                made = finish(frame, k);
                frames.pop_back();
                if (!frames.empty() && made.isInitialized()) {
                    frames.back().kids.push_back(made);
                }
                continue;
            }
            StructureNode const &node = tree.nodes[static_cast<size_t>(frame.index)];
            StructureItem const &item = node.items[static_cast<size_t>(frame.positions[frame.next++])];
            if (item.kind == StructureItem::element) {
                auto child_use = uses.find(item.node);
                bool wanted = (k == 0 && tree.nodes[static_cast<size_t>(item.node)].contentless) ||
                    (child_use != uses.end() && child_use->second.copies > k);
                if (wanted) {
                    QPDFObjectHandle element = frame.element;
                    frames.push_back(start(item.node, k, element)); // `frame` is no longer valid
                }
                continue;
            }
            long long at = placed_at(item.page, k);
            if (at < 0) {
                continue;
            }
            QPDFObjectHandle kid = content_kid(item, static_cast<size_t>(at), k, frame.own, frame.element);
            if (kid.isInitialized()) {
                frame.kids.push_back(kid);
            }
        }
        return made;
    }

    // The output's version of a content item on placed page `at`, noting what
    // the parent tree must say about it; uninitialised when it is left out.
    QPDFObjectHandle content_kid(StructureItem const &item, size_t at, int k, long long own, QPDFObjectHandle element)
    {
        QPDFObjectHandle page = placed[at].to;
        auto reference = [&page](char const *type, char const *key, QPDFObjectHandle value) {
            return QPDFObjectHandle::newDictionary(
                {{"/Type", QPDFObjectHandle::newName(type)}, {"/Pg", page}, {key, value}});
        };
        switch (item.kind) {
        case StructureItem::marked:
            page_marks[at][item.mcid] = element;
            if (own == static_cast<long long>(at)) {
                return QPDFObjectHandle::newInteger(item.mcid);
            }
            return reference("/MCR", "/MCID", QPDFObjectHandle::newInteger(item.mcid));
        case StructureItem::reference: {
            QPDFObjectHandle kid = reference("/MCR", "/MCID", QPDFObjectHandle::newInteger(item.mcid));
            if (item.stream.isInitialized()) {
                QPDFObjectHandle form = copy_foreign(out, item.stream);
                if (!form.isStream()) {
                    return QPDFObjectHandle();
                }
                kid.replaceKey("/Stm", form);
                if (k == 0) {
                    auto known = form_index.emplace(form.getObjGen(), forms.size());
                    if (known.second) {
                        forms.emplace_back(form, std::map<long long, QPDFObjectHandle>{});
                    }
                    forms[known.first->second].second[item.mcid] = element;
                }
            } else {
                page_marks[at][item.mcid] = element;
            }
            return kid;
        }
        case StructureItem::object: {
            QPDFObjectHandle target;
            QPDFObjectHandle original = item.target;
            auto copy = annotations.find({at, original.getObjGen()});
            if (copy != annotations.end()) {
                target = copy->second;
                annotation_marks.emplace_back(target, element);
            } else if (original.isStream()) {
                target = copy_foreign(out, original);
                if (k == 0 && target.isStream() && objects_marked.insert(target.getObjGen()).second) {
                    objects.emplace_back(target, element);
                }
            }
            if (!target.isInitialized() || target.isNull()) {
                return QPDFObjectHandle(); // an annotation that is not exported
            }
            return reference("/OBJR", "/Obj", target);
        }
        case StructureItem::element:
            break;
        }
        return QPDFObjectHandle();
    }

    // /Ref of the first instances: the kept elements they name.
    void settle_references()
    {
        for (auto &pending : pending_refs) {
            std::vector<QPDFObjectHandle> kept;
            for (QPDFObjectHandle &ref : pending.second.getArrayAsVector()) {
                auto node = ref.isIndirect() ? tree.index.find(ref.getObjGen()) : tree.index.end();
                if (node == tree.index.end()) {
                    continue;
                }
                auto element = first_instance.find(node->second);
                if (element != first_instance.end()) {
                    kept.push_back(element->second);
                }
            }
            if (!kept.empty()) {
                pending.first.replaceKey("/Ref", QPDFObjectHandle::newArray(kept));
            }
        }
    }
};

} // namespace

void build_structure_tree(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<int> const &order,
    std::vector<PlacedPage> const &placed,
    std::vector<CopiedAnnotation> const &copied,
    Dropped &dropped,
    Where &where)
{
    // Untagged sources only (the common case): nothing to build, nothing to strip.
    bool any_tagged = std::any_of(order.begin(), order.end(), [&](int s) {
        return sources[static_cast<size_t>(s)].catalog("/StructTreeRoot").isDictionary();
    });
    if (!any_tagged) {
        return;
    }
    // No number copied from a source survives: each is given anew below.
    strip_structure_numbers(placed);
    AnnotationCopies annotations;
    for (CopiedAnnotation const &annotation : copied) {
        annotations.emplace(std::make_pair(annotation.placed, annotation.original), annotation.copy);
    }
    Merged merged;
    QPDFObjectHandle root = out.makeIndirectObject(QPDFObjectHandle::newDictionary());
    for (int s : order) {
        where = Where{s, 0};
        Source &source = sources[static_cast<size_t>(s)];
        if (!source.catalog("/StructTreeRoot").isDictionary()) {
            continue;
        }
        if (!source.structure) {
            source.structure = source.structure_share ? source.structure_share->take(source)
                                                      : std::make_shared<SourceStructure const>(read_structure(source));
        }
        SourceStructure const &tree = *source.structure;
        bool built = false;
        if (tree.usable) {
            try {
                SourceBuild build(out, source, s, tree, placed, annotations, root, merged);
                build.build();
                build.commit();
                built = true;
            } catch (std::exception const &) {
                built = false; // the objects it made stay unreferenced: not written
            }
        }
        if (!built) {
            dropped.add("structure tree", s, source.label);
        }
    }
    where = Where{};
    retarget_structure_destinations(sources, placed, copied, merged);
    if (!merged.top.empty()) {
        write_tree(out, root, merged, placed);
    }
}

} // namespace pe
