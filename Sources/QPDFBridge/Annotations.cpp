// Copying annotations after all pages are placed, so that a link's target page
// already has its output copy and qpdf's foreign-object map resolves it.
//
// Handled: /Link annotations with /Dest or a /GoTo /A (explicit, named through
// /Dests or the /Names /Dests tree, or a page number) keep their target when it
// is in the output (the first copy of a repeated page) and are removed otherwise;
// named destinations become explicit. Every output page has its own annotation
// objects with /P set to it; popups, their parents and /IRT replies are linked
// within the copy.
// Not yet (TODO, next issue): /AcroForm is not rebuilt, so copied widgets and
// their fields are objects of a dead form (a repeated page's widgets are not
// renamed either); outlines, page labels, the named-destination tree, the
// structure tree and article threads are not copied. Other references to a page
// that is not exported (a widget's GoTo action, /AA or /Next actions, beads) are
// turned into null by qpdf's copier rather than removed: never dangling, but dead.
#include "Export.hh"

#include <qpdf/QPDFNameTreeObjectHelper.hh>

#include <string>

namespace pe {
namespace {

// Keys by which an annotation points at another annotation of the same page
// (a markup's popup, a popup's parent, a reply's original).
char const *const sibling_keys[] = {"/Popup", "/Parent", "/IRT"};

// The dictionary value of `key`, or null: getKey on a non-dictionary would make
// qpdf warn.
QPDFObjectHandle dict_key(QPDFObjectHandle object, std::string const &key)
{
    return object.isDictionary() ? object.getKey(key) : QPDFObjectHandle::newNull();
}

// A destination as an explicit array: arrays as they are, a name looked up in
// the catalog's /Dests, a string in the /Names /Dests name tree (their values
// may be arrays or dictionaries with /D). Null when it cannot be resolved.
QPDFObjectHandle explicit_destination(QPDF &pdf, QPDFObjectHandle dest)
{
    if (dest.isArray()) {
        return dest;
    }
    QPDFObjectHandle root = pdf.getRoot();
    QPDFObjectHandle found;
    if (dest.isName()) {
        found = dict_key(dict_key(root, "/Dests"), dest.getName());
    } else if (dest.isString()) {
        QPDFObjectHandle tree = dict_key(dict_key(root, "/Names"), "/Dests");
        if (tree.isDictionary()) {
            QPDFNameTreeObjectHelper names(tree, pdf, false);
            names.findObject(dest.getUTF8Value(), found);
        }
        if (!found.isInitialized() || found.isNull()) {
            // Some producers use strings for entries of the old /Dests dictionary.
            found = dict_key(dict_key(root, "/Dests"), "/" + dest.getUTF8Value());
        }
    }
    if (found.isInitialized() && found.isDictionary()) {
        found = found.getKey("/D");
    }
    return found.isInitialized() && found.isArray() ? found : QPDFObjectHandle::newNull();
}

// What to do with one annotation.
struct Fate {
    bool keep = true;
    // Non-null: the destination to store instead of the annotation's own (an
    // explicit one whose page is the source page, which copying maps).
    QPDFObjectHandle new_dest = QPDFObjectHandle::newNull();
    bool dest_in_action = false; // the destination is /A /D rather than /Dest
};

// Links inside the document keep their target when it is in the output and are
// left out when it is not (or cannot be found); all other annotations are kept.
Fate fate_of(Source &source, QPDFObjectHandle annot)
{
    Fate fate;
    if (!dict_key(annot, "/Subtype").isNameAndEquals("/Link")) {
        return fate;
    }
    QPDFObjectHandle dest;
    if (annot.hasKey("/Dest")) {
        dest = annot.getKey("/Dest");
    } else {
        QPDFObjectHandle action = annot.getKey("/A");
        if (!dict_key(action, "/S").isNameAndEquals("/GoTo")) {
            return fate; // URI, GoToR, Launch, named actions...: not a page of ours
        }
        dest = action.getKey("/D");
        fate.dest_in_action = true;
    }
    QPDFObjectHandle resolved = explicit_destination(*source.pdf, dest);
    if (!resolved.isArray() || resolved.getArrayNItems() == 0) {
        fate.keep = false;
        return fate;
    }
    QPDFObjectHandle target = resolved.getArrayItem(0);
    if (target.isInteger()) {
        // A page number where a page object belongs; seen in the wild.
        long long index = target.getIntValue();
        if (index < 0 || index >= static_cast<long long>(source.pages.size())) {
            fate.keep = false;
            return fate;
        }
        target = source.pages[static_cast<size_t>(index)];
    }
    if (!target.isIndirect() || source.first_copy.count(target.getObjGen()) == 0) {
        fate.keep = false;
        return fate;
    }
    bool already_explicit = dest.isArray() && dest.getArrayItem(0).isIndirect();
    if (!already_explicit) {
        fate.new_dest = resolved.shallowCopy();
        fate.new_dest.setArrayItem(0, target);
    }
    return fate;
}

// Keeps a prepared twin of `annot` free of what must point at the new page's
// objects: its page and its same-page siblings (both set once copied). Gives it
// its new destination if it has one.
QPDFObjectHandle twin_of(QPDFObjectHandle annot, Fate fate, std::set<QPDFObjGen> const &siblings)
{
    QPDFObjectHandle twin = annot.shallowCopy();
    twin.removeKey("/P");
    for (char const *key : sibling_keys) {
        QPDFObjectHandle target = twin.getKey(key);
        if (target.isIndirect() && siblings.count(target.getObjGen()) != 0) {
            twin.removeKey(key);
        }
    }
    if (!fate.new_dest.isNull()) {
        if (fate.dest_in_action) {
            QPDFObjectHandle action = twin.getKey("/A").shallowCopy();
            action.replaceKey("/D", fate.new_dest);
            twin.replaceKey("/A", action);
        } else {
            twin.replaceKey("/Dest", fate.new_dest);
        }
    }
    return twin;
}

// The annotations one output page gets, decided before anything is copied.
struct PageAnnotations {
    size_t placed;                      // index into the placed pages
    std::vector<QPDFObjectHandle> kept; // source annotations, in order
    std::vector<bool> twinned;          // copied from a prepared twin, not as itself
    std::set<QPDFObjGen> siblings;      // the source page's indirect annotations
};

// Decides what `page` keeps and appends to `batch` what qpdf must copy for it:
// the source annotation itself (the first output copy of a page, so references
// between objects such as form fields' /Kids or popups stay consistent), or a
// direct twin (a repeated page, an annotation a source shares between pages, or
// a link whose destination is rewritten), which qpdf copies as a new object.
PageAnnotations plan_page(
    Source &source,
    PlacedPage page,
    size_t index,
    std::set<QPDFObjGen> &claimed,
    std::vector<QPDFObjectHandle> &batch)
{
    PageAnnotations plan{index, {}, {}, {}};
    QPDFObjectHandle annots = page.from.getKey("/Annots");
    if (!annots.isArray()) {
        return plan;
    }
    std::vector<QPDFObjectHandle> originals = annots.getArrayAsVector();
    for (QPDFObjectHandle &annot : originals) {
        if (annot.isIndirect()) {
            plan.siblings.insert(annot.getObjGen());
        }
    }
    for (QPDFObjectHandle &annot : originals) {
        if (!annot.isDictionary()) {
            continue;
        }
        Fate fate = fate_of(source, annot);
        if (!fate.keep) {
            continue;
        }
        bool identity = page.first && annot.isIndirect() && fate.new_dest.isNull() &&
            claimed.insert(annot.getObjGen()).second;
        plan.kept.push_back(annot);
        plan.twinned.push_back(!identity);
        batch.push_back(identity ? annot : twin_of(annot, fate, plan.siblings));
    }
    return plan;
}

// Gives `page` the copies (in order) of what plan_page kept, each an indirect
// object whose /P is the page, twins linked to this page's siblings.
void attach(QPDF &out, PageAnnotations const &plan, PlacedPage page, std::vector<QPDFObjectHandle> copies)
{
    std::map<QPDFObjGen, QPDFObjectHandle> copy_of;
    for (size_t i = 0; i < copies.size(); ++i) {
        if (!copies[i].isIndirect()) {
            copies[i] = out.makeIndirectObject(copies[i]);
        }
        copies[i].replaceKey("/P", page.to);
        QPDFObjectHandle original = plan.kept[i];
        if (original.isIndirect()) {
            copy_of.emplace(original.getObjGen(), copies[i]);
        }
    }
    for (size_t i = 0; i < copies.size(); ++i) {
        if (!plan.twinned[i]) {
            continue;
        }
        QPDFObjectHandle original = plan.kept[i];
        for (char const *key : sibling_keys) {
            QPDFObjectHandle target = original.getKey(key);
            if (target.isIndirect() && plan.siblings.count(target.getObjGen()) != 0) {
                auto mapped = copy_of.find(target.getObjGen());
                if (mapped != copy_of.end()) {
                    copies[i].replaceKey(key, mapped->second);
                }
            }
        }
    }
    page.to.replaceKey("/Annots", QPDFObjectHandle::newArray(copies));
}

} // namespace

void copy_annotations(
    QPDF &out, std::vector<Source> &sources, std::vector<PlacedPage> const &placed, Where &where)
{
    // Decide for every page first, then copy everything from one source in one
    // copyForeignObject call: per-page calls cost a third more time and memory at
    // 20,000 pages.
    std::vector<std::set<QPDFObjGen>> claimed(sources.size());
    std::vector<std::vector<QPDFObjectHandle>> batches(sources.size());
    std::vector<PageAnnotations> plans;
    for (size_t i = 0; i < placed.size(); ++i) {
        PlacedPage const &page = placed[i];
        where = Where{page.source, page.page + 1};
        size_t s = static_cast<size_t>(page.source);
        PageAnnotations plan = plan_page(sources[s], page, i, claimed[s], batches[s]);
        if (!plan.kept.empty()) {
            plans.push_back(std::move(plan));
        }
    }
    std::vector<std::vector<QPDFObjectHandle>> copied(sources.size());
    for (size_t s = 0; s < sources.size(); ++s) {
        if (batches[s].empty()) {
            continue;
        }
        where = Where{static_cast<int>(s), 0};
        QPDFObjectHandle batch =
            sources[s].pdf->makeIndirectObject(QPDFObjectHandle::newArray(batches[s]));
        batches[s].clear();
        copied[s] = out.copyForeignObject(batch).getArrayAsVector();
    }
    std::vector<size_t> next(sources.size(), 0);
    for (PageAnnotations const &plan : plans) {
        PlacedPage const &page = placed[plan.placed];
        where = Where{page.source, page.page + 1};
        size_t s = static_cast<size_t>(page.source);
        auto first = copied[s].begin() + static_cast<std::ptrdiff_t>(next[s]);
        next[s] += plan.kept.size();
        attach(out, plan, page, std::vector<QPDFObjectHandle>(first, first + static_cast<std::ptrdiff_t>(plan.kept.size())));
    }
    where = Where{};
}

} // namespace pe
