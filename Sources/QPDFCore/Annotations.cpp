// Copying annotations after all pages are placed, so that a link's target page
// already has its output copy and qpdf's foreign-object map resolves it.
//
// Handled: /Link annotations with /Dest or a /GoTo /A (explicit, named through
// /Dests or the /Names /Dests tree, or a page number) keep their target when it
// is in the output (the first copy of a repeated page) and are removed otherwise;
// named destinations become explicit. Every output page has its own annotation
// objects with /P set to it; popups, their parents and /IRT replies are linked
// within the copy. The first output copy of a source annotation is qpdf's copy of
// it (so that other references to it, from form fields or the structure tree,
// reach the annotation on the page); widgets are reported to Forms.cpp, which
// rebuilds the field tree. A link's structure destination (/A /SD) is left out
// of the copy; StructureTree.cpp gives it the output's element.
// Not handled: other references to a page that is not exported (a widget's GoTo
// action, /AA or /Next actions, beads) are turned into null by qpdf's copier
// rather than removed: never dangling, but dead.
#include "Export.hh"

#include <string>

namespace pe {

char const *const sibling_keys[3] = {"/Popup", "/Parent", "/IRT"};

bool is_field_like(QPDFObjectHandle annot)
{
    return dict_key(annot, "/Subtype").isNameAndEquals("/Widget") || annot.hasKey("/FT") || annot.hasKey("/Parent");
}

namespace {

// What to do with one annotation.
struct Fate {
    bool keep = true;
    // Non-null: the destination to store instead of the annotation's own (an
    // explicit one whose page is the source page, which copying maps).
    QPDFObjectHandle new_dest = QPDFObjectHandle::newNull();
    bool dest_in_action = false; // the destination is /A /D rather than /Dest
};

// Stores `dest` as the destination of `annot`: its /Dest, or (`in_action`) its
// /A's /D, in an action of its own (the action may be shared with other
// annotations).
void store_destination(QPDFObjectHandle annot, QPDFObjectHandle dest, bool in_action)
{
    if (in_action) {
        QPDFObjectHandle action = annot.getKey("/A").shallowCopy();
        action.replaceKey("/D", dest);
        annot.replaceKey("/A", action);
    } else {
        annot.replaceKey("/Dest", dest);
    }
}

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
    QPDFObjectHandle resolved = explicit_destination(source, dest);
    if (!resolved.isArray() || resolved.getArrayNItems() == 0) {
        fate.keep = false;
        return fate;
    }
    int page = destination_page(source, resolved.getArrayItem(0));
    QPDFObjectHandle target = page < 0 ? QPDFObjectHandle::newNull() : source.pages[static_cast<size_t>(page)];
    if (page < 0 || source.first_copy.count(target.getObjGen()) == 0) {
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
        store_destination(twin, fate.new_dest, fate.dest_in_action);
    }
    return twin;
}

// The annotations one output page gets, decided before anything is copied.
struct PageAnnotations {
    size_t placed;                      // index into the placed pages
    std::vector<QPDFObjectHandle> kept; // source annotations, in order
    std::vector<bool> twinned;          // copied from a prepared twin, not as itself
    std::vector<Fate> fates;            // of each kept annotation
    std::set<QPDFObjGen> siblings;      // the source page's indirect annotations
};

// Decides what `page` keeps and appends to `batch` what qpdf must copy for it:
// the source annotation itself (its first output copy, so that references to it
// from form fields, popups or the structure tree reach the annotation on the
// page; a rewritten destination is set on the copy afterwards), or a direct twin
// (a repeated page, an annotation a source shares between pages), which qpdf
// copies as a new object.
PageAnnotations plan_page(
    Source &source,
    PlacedPage page,
    size_t index,
    std::set<QPDFObjGen> &claimed,
    std::vector<QPDFObjectHandle> &batch)
{
    PageAnnotations plan{index, {}, {}, {}, {}};
    if (!page.from.hasKey("/Annots")) {
        return plan; // most pages: not asked with getKey, which makes a null object for it
    }
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
        if (!annot.isDictionary() || is_page_tree_object(annot)) {
            continue; // a page (its own, another) listed in /Annots is no annotation
        }
        Fate fate = fate_of(source, annot);
        if (!fate.keep) {
            continue;
        }
        bool identity =
            page.first && annot.isIndirect() && claimed.insert(annot.getObjGen()).second;
        plan.kept.push_back(annot);
        plan.twinned.push_back(!identity);
        plan.fates.push_back(fate);
        batch.push_back(identity ? annot : twin_of(annot, fate, plan.siblings));
    }
    return plan;
}

// Detaches the structure destinations (/A /SD, PDF 2.0) of what `batch` will copy,
// returning them to put back: one names an element of the source's structure
// tree, and copying it would copy that whole tree, with the pages its /Pg name
// (StructureTree.cpp points the copies' /SD at the output's elements).
std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> detach_structure_destinations(
    std::vector<QPDFObjectHandle> &batch)
{
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> detached;
    for (QPDFObjectHandle &annot : batch) {
        QPDFObjectHandle action = dict_key(annot, "/A");
        if (action.isDictionary() && action.hasKey("/SD")) {
            detached.emplace_back(action, action.getKey("/SD"));
            action.removeKey("/SD");
        }
    }
    return detached;
}

void reattach(std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> &detached)
{
    for (auto &entry : detached) {
        entry.first.replaceKey("/SD", entry.second);
    }
}

// A copy of `value` (direct content of an annotation) made of new direct
// values, or an uninitialized handle when it refers to an object (below the
// annotation itself, `depth` 0).
QPDFObjectHandle values_only(QPDFObjectHandle value, int depth)
{
    if ((depth > 0 && value.isIndirect()) || depth > 32) {
        return QPDFObjectHandle();
    }
    if (value.isArray()) {
        std::vector<QPDFObjectHandle> items = value.getArrayAsVector();
        for (QPDFObjectHandle &item : items) {
            item = values_only(item, depth + 1);
            if (!item.isInitialized()) {
                return item;
            }
        }
        return QPDFObjectHandle::newArray(items);
    }
    if (value.isDictionary()) {
        std::map<std::string, QPDFObjectHandle> entries = value.getDictAsMap();
        for (auto &entry : entries) {
            if (depth == 0 && entry.first == "/P") {
                entry.second = QPDFObjectHandle::newNull(); // set on the copy by attach
                continue;
            }
            entry.second = values_only(entry.second, depth + 1);
            if (!entry.second.isInitialized()) {
                return entry.second;
            }
        }
        return QPDFObjectHandle::newDictionary(entries);
    }
    return fresh_copy(value);
}

// A link whose entries, but its page (/P, set on the copy by attach), are
// direct values with no reference (a TeX link: /Rect, /Border, a /GoTo action
// naming its target) is copied as values, without qpdf's copier: a copy of the
// form fields or the structure tree reaches annotations through the copies
// recorded by attach, never through qpdf's map of copied objects, and nothing
// else refers to a link. Else an uninitialized handle.
QPDFObjectHandle link_as_values(QPDFObjectHandle annot)
{
    if (!dict_key(annot, "/Subtype").isNameAndEquals("/Link")) {
        return QPDFObjectHandle();
    }
    return values_only(annot, 0);
}

// The copies of `batch`'s annotations in `out`, in order: links made of values
// (link_as_values) as new direct values, the rest by qpdf's copier in one call
// through the source's batch object.
std::vector<QPDFObjectHandle> copy_batch(QPDF &out, Source &source, std::vector<QPDFObjectHandle> &batch)
{
    std::vector<QPDFObjectHandle> copies(batch.size());
    std::vector<QPDFObjectHandle> for_qpdf;
    for (size_t i = 0; i < batch.size(); ++i) {
        copies[i] = link_as_values(batch[i]);
        if (!copies[i].isInitialized()) {
            for_qpdf.push_back(batch[i]);
        }
    }
    if (for_qpdf.empty()) {
        return copies;
    }
    QPDF &pdf = *source.pdf;
    auto detached = detach_structure_destinations(for_qpdf);
    // A new object each time: the output's copier knows what it copied by
    // number, and a second batch for one output (its sheet cells after its
    // pages) must not be taken for the first.
    QPDFObjectHandle object = make_source_object(source, QPDFObjectHandle::newArray(for_qpdf));
    std::vector<QPDFObjectHandle> copied;
    try {
        copied = copy_foreign(out, object).getArrayAsVector();
    } catch (...) {
        reattach(detached);
        throw;
    }
    reattach(detached);
    // The batch is no object of the source's: free what it holds.
    pdf.replaceObject(object.getObjGen(), QPDFObjectHandle::newNull());
    size_t next = 0;
    for (QPDFObjectHandle &copy : copies) {
        if (!copy.isInitialized()) {
            copy = next < copied.size() ? copied[next] : QPDFObjectHandle::newNull();
            ++next;
        }
    }
    return copies;
}

// The output's version of a destination that fate_of made explicit: the first
// output copy of its page, then its view parameters.
QPDFObjectHandle output_destination(Source &source, QPDFObjectHandle dest)
{
    std::vector<QPDFObjectHandle> items = dest.getArrayAsVector();
    items[0] = source.first_copy.at(items[0].getObjGen());
    for (size_t i = 1; i < items.size(); ++i) {
        items[i] = fresh_copy(items[i]);
    }
    return QPDFObjectHandle::newArray(items);
}

// Stores the rewritten destination of an annotation copied as itself.
void set_destination(Source &source, QPDFObjectHandle copy, Fate fate)
{
    store_destination(copy, output_destination(source, fate.new_dest), fate.dest_in_action);
}

// Gives `page` the copies (in order) of what plan_page kept, each an indirect
// object whose /P is the page, twins linked to this page's siblings, copies of
// the annotations themselves given their rewritten destinations.
void attach(
    QPDF &out,
    Source &source,
    PageAnnotations const &plan,
    PlacedPage page,
    std::vector<QPDFObjectHandle> copies,
    std::vector<CopiedAnnotation> &widgets,
    std::vector<CopiedAnnotation> &all)
{
    std::map<QPDFObjGen, QPDFObjectHandle> copy_of;
    for (size_t i = 0; i < copies.size(); ++i) {
        if (!copies[i].isIndirect()) {
            copies[i] = make_indirect(out, copies[i]);
        }
        copies[i].replaceKey("/P", page.to);
        QPDFObjectHandle original = plan.kept[i];
        Fate fate = plan.fates[i];
        if (!plan.twinned[i] && !fate.new_dest.isNull()) {
            set_destination(source, copies[i], fate);
        }
        if (original.isIndirect()) {
            copy_of.emplace(original.getObjGen(), copies[i]);
            all.push_back(CopiedAnnotation{plan.placed, original.getObjGen(), copies[i]});
            if (is_field_like(original)) {
                widgets.push_back(CopiedAnnotation{plan.placed, original.getObjGen(), copies[i]});
            }
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
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    Where &where,
    std::vector<CopiedAnnotation> &widgets,
    std::vector<CopiedAnnotation> &all)
{
    // Decide for every page first, then copy everything from one source in one
    // copyForeignObject call: per-page calls cost a third more time and memory at
    // 20,000 pages.
    std::vector<std::set<QPDFObjGen>> claimed(sources.size());
    std::vector<std::vector<QPDFObjectHandle>> batches(sources.size());
    std::vector<PageAnnotations> plans;
    for (size_t i = 0; i < placed.size(); ++i) {
        PlacedPage const &page = placed[i];
        if (page.source < 0) {
            continue; // a blank page
        }
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
        copied[s] = copy_batch(out, sources[s], batches[s]);
        batches[s].clear();
    }
    std::vector<size_t> next(sources.size(), 0);
    for (PageAnnotations const &plan : plans) {
        PlacedPage const &page = placed[plan.placed];
        where = Where{page.source, page.page + 1};
        size_t s = static_cast<size_t>(page.source);
        auto first = copied[s].begin() + static_cast<std::ptrdiff_t>(next[s]);
        next[s] += plan.kept.size();
        attach(
            out,
            sources[s],
            plan,
            page,
            std::vector<QPDFObjectHandle>(
                first, first + static_cast<std::ptrdiff_t>(plan.kept.size())),
            widgets,
            all);
    }
    where = Where{};
}

void keep_annotations(
    QPDF &pdf,
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    Where &where)
{
    std::vector<std::set<QPDFObjGen>> claimed(sources.size());
    std::vector<CopiedAnnotation> widgets;
    std::vector<CopiedAnnotation> all;
    for (size_t i = 0; i < placed.size(); ++i) {
        PlacedPage page = placed[i]; // handles: a copy is cheap
        if (page.source < 0 || !page.from.hasKey("/Annots")) {
            continue;
        }
        QPDFObjectHandle listed_annots = page.from.getKey("/Annots");
        if (!listed_annots.isArray()) {
            page.to.removeKey("/Annots"); // as copying: no annotations (plan_page)
            continue;
        }
        where = Where{page.source, page.page + 1};
        size_t s = static_cast<size_t>(page.source);
        Source &source = sources[s];
        std::vector<QPDFObjectHandle> annots = listed_annots.getArrayAsVector();
        // The first placement of a page whose annotations are its own objects,
        // not on an earlier page (every page of a TeX book): each kept
        // annotation stays itself, given /P and its explicit destination, as
        // attach gives its copy; its destination names the page object itself,
        // which is the output's.
        bool own = page.first;
        std::set<QPDFObjGen> listed;
        for (size_t k = 0; own && k < annots.size(); ++k) {
            own = !annots[k].isDictionary() ||
                (annots[k].isIndirect() && claimed[s].count(annots[k].getObjGen()) == 0 &&
                 listed.insert(annots[k].getObjGen()).second);
        }
        if (own) {
            std::vector<QPDFObjectHandle> kept;
            kept.reserve(annots.size());
            for (QPDFObjectHandle &annot : annots) {
                if (!annot.isDictionary() || is_page_tree_object(annot)) {
                    continue; // no annotation, as plan_page
                }
                Fate fate = fate_of(source, annot);
                if (!fate.keep) {
                    continue;
                }
                claimed[s].insert(annot.getObjGen());
                annot.replaceKey("/P", page.to);
                if (!fate.new_dest.isNull()) {
                    store_destination(annot, fate.new_dest, fate.dest_in_action);
                }
                kept.push_back(annot);
            }
            if (kept.empty()) {
                page.to.removeKey("/Annots");
            } else {
                page.to.replaceKey("/Annots", QPDFObjectHandle::newArray(kept));
            }
            continue;
        }
        // A page placed again, or one sharing annotations with another: as
        // copy_annotations decides, the first placement of a source annotation
        // the annotation itself (its "copy" is `batch`'s entry), the others
        // twins made new objects.
        std::vector<QPDFObjectHandle> batch;
        PageAnnotations plan = plan_page(source, page, i, claimed[s], batch);
        if (plan.kept.empty()) {
            page.to.removeKey("/Annots");
            continue;
        }
        attach(pdf, source, plan, page, std::move(batch), widgets, all);
    }
    where = Where{};
}

} // namespace pe
