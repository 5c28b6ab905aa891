// Writing the output's structure tree once every source's part is built
// (StructureTree.cpp): the numbers copied from the sources removed, links'
// structure destinations pointed at the new elements, fresh /StructParents and
// /StructParent numbers in one flat /ParentTree, and the root's entries.
#include "StructureTree.hh"

namespace pe {
namespace {

// Removes /StructParents and /StructParent from the form XObjects of
// `resources` and those they use, each once (`seen`), `depth` levels at most.
void strip_forms(QPDFObjectHandle resources, std::set<QPDFObjGen> &seen, int depth)
{
    QPDFObjectHandle xobjects = dict_key(resources, "/XObject");
    if (!xobjects.isDictionary() || depth > max_value_depth) {
        return;
    }
    for (std::string const &key : xobjects.getKeys()) {
        QPDFObjectHandle xobject = xobjects.getKey(key);
        if (!xobject.isStream() || !seen.insert(xobject.getObjGen()).second) {
            continue;
        }
        QPDFObjectHandle dict = xobject.getDict();
        dict.removeKey("/StructParents");
        dict.removeKey("/StructParent");
        strip_forms(dict.getKey("/Resources"), seen, depth + 1);
    }
}

} // namespace

void strip_structure_numbers(std::vector<PlacedPage> const &placed)
{
    std::set<QPDFObjGen> forms_seen;
    for (PlacedPage const &page : placed) {
        QPDFObjectHandle to = page.to;
        to.removeKey("/StructParents");
        QPDFObjectHandle annots = to.getKey("/Annots");
        if (annots.isArray()) {
            for (QPDFObjectHandle &annot : annots.getArrayAsVector()) {
                if (annot.isDictionary()) {
                    annot.removeKey("/StructParent");
                }
            }
        }
        strip_forms(to.getKey("/Resources"), forms_seen, 0);
    }
}

// A link's structure destination (PDF 2.0: /A /SD, [element view...]) names a
// source element; copy_annotations leaves it out of the copy (copying it would
// copy the whole tree, its /P, /K and /Pg reaching pages that are not exported).
// The copy's /SD names the output's element instead, or stays out when that was
// not kept (/D, the page destination, still says where the link goes).
void retarget_structure_destinations(
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    std::vector<CopiedAnnotation> const &copied,
    Merged const &merged)
{
    for (CopiedAnnotation const &annotation : copied) {
        int s = placed[annotation.placed].source;
        QPDFObjectHandle original = sources[static_cast<size_t>(s)].pdf->getObjectByObjGen(annotation.original);
        QPDFObjectHandle sd = dict_key(dict_key(original, "/A"), "/SD");
        QPDFObjectHandle copy = annotation.copy;
        QPDFObjectHandle action = copy.getKey("/A");
        if (sd.isNull() || !action.isDictionary()) {
            continue;
        }
        action = action.shallowCopy(); // an action may be shared by other annotations
        QPDFObjectHandle target = sd.isArray() && sd.getArrayNItems() > 0 ? sd.getArrayItem(0) : QPDFObjectHandle::newNull();
        auto element = target.isIndirect() ? merged.elements.find({s, target.getObjGen()}) : merged.elements.end();
        if (element == merged.elements.end()) {
            action.removeKey("/SD");
        } else {
            std::vector<QPDFObjectHandle> items = sd.getArrayAsVector();
            items[0] = element->second;
            for (size_t i = 1; i < items.size(); ++i) {
                items[i] = fresh_copy(items[i]);
            }
            action.replaceKey("/SD", QPDFObjectHandle::newArray(items));
        }
        copy.replaceKey("/A", action);
    }
}

void write_tree(QPDF &out, QPDFObjectHandle root, Merged &merged, std::vector<PlacedPage> const &placed)
{
    long long key = 0;
    std::vector<QPDFObjectHandle> nums;
    auto number = [&](QPDFObjectHandle value) {
        nums.push_back(QPDFObjectHandle::newInteger(key));
        nums.push_back(value);
        return key++;
    };
    auto marks_array = [&out](std::map<long long, QPDFObjectHandle> const &marks) {
        std::vector<QPDFObjectHandle> items(static_cast<size_t>(marks.rbegin()->first + 1), QPDFObjectHandle::newNull());
        for (auto const &mark : marks) {
            items[static_cast<size_t>(mark.first)] = mark.second;
        }
        return out.makeIndirectObject(QPDFObjectHandle::newArray(items));
    };
    for (auto const &entry : merged.page_marks) {
        // A page whose MCIDs are far sparser than any producer writes them (a hostile
        // MCID 1,000,000 would make an array of a million nulls) gets no number.
        long long largest = entry.second.empty() ? 0 : entry.second.rbegin()->first;
        if (!entry.second.empty() && largest < 4 * static_cast<long long>(entry.second.size()) + 1024) {
            QPDFObjectHandle page = placed[entry.first].to;
            page.replaceKey("/StructParents", QPDFObjectHandle::newInteger(number(marks_array(entry.second))));
        }
    }
    std::set<QPDFObjGen> numbered;
    for (auto &entry : merged.annotations) {
        if (numbered.insert(entry.first.getObjGen()).second) {
            entry.first.replaceKey("/StructParent", QPDFObjectHandle::newInteger(number(entry.second)));
        }
    }
    for (auto &form : merged.forms) {
        form.first.getDict().replaceKey("/StructParents", QPDFObjectHandle::newInteger(number(marks_array(form.second))));
    }
    for (auto &object : merged.objects) {
        object.first.getDict().replaceKey("/StructParent", QPDFObjectHandle::newInteger(number(object.second)));
    }
    root.replaceKey("/Type", QPDFObjectHandle::newName("/StructTreeRoot"));
    root.replaceKey("/K", QPDFObjectHandle::newArray(merged.top));
    QPDFObjectHandle parent_tree = QPDFObjectHandle::newDictionary();
    parent_tree.replaceKey("/Nums", QPDFObjectHandle::newArray(nums));
    root.replaceKey("/ParentTree", out.makeIndirectObject(parent_tree));
    root.replaceKey("/ParentTreeNextKey", QPDFObjectHandle::newInteger(key));
    auto name_map = [](std::map<std::string, MapEntry> const &entries) {
        QPDFObjectHandle map = QPDFObjectHandle::newDictionary();
        for (auto const &entry : entries) {
            map.replaceKey(entry.first, entry.second.value);
        }
        return map;
    };
    if (!merged.roles.empty()) {
        root.replaceKey("/RoleMap", name_map(merged.roles));
    }
    if (!merged.classes.empty()) {
        root.replaceKey("/ClassMap", name_map(merged.classes));
    }
    if (!merged.ids.empty()) {
        std::vector<QPDFObjectHandle> names;
        for (auto const &entry : merged.ids) {
            names.push_back(QPDFObjectHandle::newString(entry.first));
            names.push_back(entry.second);
        }
        QPDFObjectHandle tree = QPDFObjectHandle::newDictionary();
        tree.replaceKey("/Names", QPDFObjectHandle::newArray(names));
        root.replaceKey("/IDTree", out.makeIndirectObject(tree));
    }
    if (!merged.namespaces.empty()) {
        root.replaceKey("/Namespaces", QPDFObjectHandle::newArray(merged.namespaces));
    }
    if (merged.mark_info.isInitialized()) {
        QPDFObjectHandle mark_info = merged.mark_info;
        if (merged.marked) {
            mark_info.replaceKey("/Marked", QPDFObjectHandle::newBool(true));
        }
        out.getRoot().replaceKey("/MarkInfo", mark_info);
    }
    out.getRoot().replaceKey("/StructTreeRoot", root);
}

} // namespace pe
