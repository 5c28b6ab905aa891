// What `flatten` and `strip` do to an output assembled by copying, once its
// pages, annotations and form are in place (pe_export_options.finish, .strip).
//
// - Flattening draws an annotation's normal appearance into its page: qpdf's
//   QPDFAnnotationObjectHelper::getPageContentForAppearance gives the operators
//   (the matrix from the appearance's /BBox and /Matrix to the annotation's
//   /Rect, the page's /Rotate for NoRotate annotations, hidden and invisible
//   ones skipped), which go after the page's own content wrapped in q/Q, with
//   the appearance as a form XObject of the page. This is what
//   QPDFPageDocumentHelper::flattenAnnotations does for every page of a
//   document; it is done here page by page because only the selected items are
//   flattened. A widget without an appearance (or every widget when the form
//   says /NeedAppearances) gets one first from QPDFFormFieldObjectHelper::
//   generateAppearance, which QPDFAcroFormDocumentHelper::
//   generateAppearancesIfNeeded calls for all widgets of a document (text and
//   choice fields; qpdf writes no others). An annotation without an appearance
//   stays, unless it is a widget under `flatten forms` (its field goes).
// - Stripping removes annotations by subtype (a markup's pop-up goes with it),
//   thumbnails, and the page-level parts of the document-level strips:
//   JavaScript actions, file attachment annotations and /AF, page XMP,
//   /StructParents.
// - Widgets removed either way take their fields with them: the form is pruned
//   to the fields with a widget still on a page, and goes when none is left.
// Content streams, resources and annotation arrays shared between copies of a
// page are never changed in place: a changed page gets arrays and dictionaries
// of its own.
#include "Export.hh"

#include <qpdf/Constants.h>
#include <qpdf/QPDFAcroFormDocumentHelper.hh>
#include <qpdf/QPDFAnnotationObjectHelper.hh>
#include <qpdf/QPDFFormFieldObjectHelper.hh>

#include <memory>
#include <set>
#include <sstream>

namespace pe {
namespace {

constexpr int max_field_depth = 32; // as Forms.cpp cuts the trees it reads

std::string subtype_of(QPDFObjectHandle annotation)
{
    QPDFObjectHandle subtype = dict_key(annotation, "/Subtype");
    return subtype.isName() ? subtype.getName().substr(1) : std::string();
}

std::set<std::string> subtypes_in(char const *types)
{
    std::set<std::string> result;
    if (types == nullptr) {
        return result;
    }
    std::istringstream words{std::string(types)};
    std::string word;
    while (words >> word) {
        result.insert(word);
    }
    return result;
}

// The page's /Rotate as getPageContentForAppearance wants it: 0, 90, 180 or 270.
int page_rotate(QPDFObjectHandle page)
{
    QPDFObjectHandle rotate = page.getKey("/Rotate");
    long long value = rotate.isInteger() ? rotate.getIntValue() : 0;
    return static_cast<int>(((value % 360) + 360) % 360 / 90 * 90);
}

// Whether `action` (an action dictionary) or one of its /Next runs JavaScript.
bool is_script(QPDFObjectHandle action)
{
    return action.isDictionary() && runs_script(action);
}

class PageFinisher {
  public:
    PageFinisher(QPDF &output, int strip_bits) : out(output), strip(strip_bits) {}

    // Runs `steps` on `page` (an output page object, on the page list).
    void run(QPDFObjectHandle page, pe_item_finish const &finish)
    {
        for (int i = 0; i < finish.step_count; ++i) {
            pe_finish_step const &step = finish.steps[i];
            switch (step.kind) {
            case PE_FINISH_FLATTEN_ANNOTATIONS:
                flatten(page, false);
                break;
            case PE_FINISH_FLATTEN_FORMS:
                flatten(page, true);
                break;
            case PE_FINISH_STRIP_ANNOTATIONS: {
                std::set<std::string> types = subtypes_in(step.types);
                remove_annotations(page, [&types](QPDFObjectHandle a) {
                    return types.empty() || types.count(subtype_of(a)) != 0;
                });
                break;
            }
            case PE_FINISH_STRIP_THUMBNAILS:
                page.removeKey("/Thumb");
                break;
            default:
                throw PlanError("unknown finishing step " + std::to_string(step.kind));
            }
        }
    }

    // The annotations meeting a redacted region, with their fields.
    // An annotation meeting a region leaves the page, and the file: its
    // object becomes null (a structure element's /OBJR, a reply's /IRT would
    // still reach it and its text), and the element that referred to it loses
    // its replacement texts. A widget's object stays for the form's pruning
    // (a field with no widget left leaves the form).
    void redact_annotations(QPDFObjectHandle page, pe_item_redact const &redact)
    {
        std::vector<pe_redact_region> regions(redact.regions, redact.regions + redact.region_count);
        auto meets = [&regions](QPDFObjectHandle a) { return annotation_meets(a, regions); };
        std::vector<QPDFObjectHandle> doomed;
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (annots.isArray()) {
            for (QPDFObjectHandle annotation : annots.getArrayAsVector()) {
                if (annotation.isDictionary() && meets(annotation)) {
                    doomed.push_back(annotation);
                }
            }
        }
        remove_annotations(page, meets);
        for (QPDFObjectHandle annotation : doomed) {
            forget_object_replacement_texts(out, annotation);
            QPDFObjectHandle popup = annotation.getKey("/Popup");
            if (annotation.isIndirect() && subtype_of(annotation) != "Widget") {
                out.replaceObject(annotation.getObjGen(), QPDFObjectHandle::newNull());
            }
            if (popup.isIndirect() && popup.isDictionary() && subtype_of(popup) == "Popup") {
                out.replaceObject(popup.getObjGen(), QPDFObjectHandle::newNull());
            }
        }
    }

    // The page-level part of the document-level strips.
    void strip_page(QPDFObjectHandle page)
    {
        if ((strip & PE_STRIP_ATTACHMENTS) != 0) {
            remove_annotations(page, [](QPDFObjectHandle a) { return subtype_of(a) == "FileAttachment"; });
            page.removeKey("/AF");
        }
        if ((strip & PE_STRIP_METADATA) != 0) {
            page.removeKey("/Metadata");
        }
        if ((strip & PE_STRIP_STRUCTURE) != 0) {
            page.removeKey("/StructParents");
        }
        if ((strip & PE_STRIP_JAVASCRIPT) != 0) {
            page.removeKey("/AA");
        }
        if ((strip & (PE_STRIP_JAVASCRIPT | PE_STRIP_STRUCTURE | PE_STRIP_ATTACHMENTS)) == 0) {
            return;
        }
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) {
            return;
        }
        for (QPDFObjectHandle annotation : annots.getArrayAsVector()) {
            if (!annotation.isDictionary()) {
                continue;
            }
            if ((strip & PE_STRIP_STRUCTURE) != 0) {
                annotation.removeKey("/StructParent");
            }
            if ((strip & PE_STRIP_ATTACHMENTS) != 0) {
                annotation.removeKey("/AF");
            }
            if ((strip & PE_STRIP_JAVASCRIPT) != 0) {
                annotation.removeKey("/AA");
                if (is_script(annotation.getKey("/A"))) {
                    annotation.removeKey("/A");
                }
            }
        }
    }

    // The form pruned to the fields that still have a widget on a page (after
    // any widget went), and the fields' scripts gone with PE_STRIP_JAVASCRIPT.
    void settle_form()
    {
        QPDFObjectHandle root = out.getRoot();
        QPDFObjectHandle acroform = root.getKey("/AcroForm");
        if (!acroform.isDictionary()) {
            return;
        }
        if (removed_widget) {
            std::set<QPDFObjGen> on_pages;
            for (QPDFObjectHandle page : out.getAllPages()) {
                QPDFObjectHandle annots = page.getKey("/Annots");
                if (!annots.isArray()) {
                    continue;
                }
                for (QPDFObjectHandle annotation : annots.getArrayAsVector()) {
                    if (annotation.isIndirect()) {
                        on_pages.insert(annotation.getObjGen());
                    }
                }
            }
            std::set<QPDFObjGen> seen;
            std::set<QPDFObjGen> kept;
            std::vector<QPDFObjectHandle> roots;
            QPDFObjectHandle fields = acroform.getKey("/Fields");
            if (fields.isArray()) {
                for (QPDFObjectHandle field : fields.getArrayAsVector()) {
                    if (keep_field(field, on_pages, seen, kept, 0)) {
                        roots.push_back(field);
                    }
                }
            }
            if (roots.empty()) {
                root.removeKey("/AcroForm");
                return;
            }
            acroform.replaceKey("/Fields", QPDFObjectHandle::newArray(roots));
            QPDFObjectHandle order = acroform.getKey("/CO");
            if (order.isArray()) {
                std::vector<QPDFObjectHandle> still;
                for (QPDFObjectHandle field : order.getArrayAsVector()) {
                    if (field.isIndirect() && kept.count(field.getObjGen()) != 0) {
                        still.push_back(field);
                    }
                }
                acroform.replaceKey("/CO", QPDFObjectHandle::newArray(still));
            }
        }
        if ((strip & PE_STRIP_JAVASCRIPT) != 0) {
            std::set<QPDFObjGen> seen;
            QPDFObjectHandle fields = acroform.getKey("/Fields");
            if (fields.isArray()) {
                for (QPDFObjectHandle field : fields.getArrayAsVector()) {
                    drop_field_scripts(field, seen, 0);
                }
            }
        }
    }

    // What flattening draws goes into `drawing` (names from `prefix`) instead
    // of into the pages: a sheet cell's page (finish_cell_page).
    void collect_into(FlattenedDrawing &drawing, std::string const &prefix)
    {
        collected = &drawing;
        name_prefix = prefix;
    }

  private:
    QPDF &out;
    int strip;
    bool removed_widget = false;
    FlattenedDrawing *collected = nullptr;
    std::string name_prefix = "/PdfeditFlat";
    int collected_names = 0;
    std::unique_ptr<QPDFAcroFormDocumentHelper> form; // made when a widget is first flattened

    // Draws what `flatten` takes of the page into it: every annotation with an
    // appearance (`forms_only`: every widget), then removes them.
    void flatten(QPDFObjectHandle page, bool forms_only)
    {
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) {
            return;
        }
        int rotate = page_rotate(page);
        QPDFObjectHandle resources = page.getKey("/Resources");
        QPDFObjectHandle xobjects = dict_key(resources, "/XObject");
        std::map<std::string, QPDFObjectHandle> added;
        std::string drawn;
        std::set<QPDFObjGen> gone;
        int next = 1;
        if (collected != nullptr) {
            xobjects = collected->xobjects;
            next = collected_names + 1;
        }
        for (QPDFObjectHandle annotation : annots.getArrayAsVector()) {
            if (!annotation.isDictionary()) {
                continue;
            }
            bool widget = subtype_of(annotation) == "Widget";
            if (forms_only && !widget) {
                continue;
            }
            QPDFAnnotationObjectHelper helper(annotation);
            if (widget) {
                give_appearance(helper);
            }
            QPDFObjectHandle appearance = helper.getAppearanceStream("/N");
            if (!appearance.isStream()) {
                if (widget && forms_only && annotation.isIndirect()) {
                    gone.insert(annotation.getObjGen()); // nothing to draw; its field goes
                }
                continue;
            }
            std::string name;
            do {
                name = name_prefix + std::to_string(next++);
            } while (xobjects.isDictionary() && xobjects.hasKey(name));
            std::string content =
                helper.getPageContentForAppearance(name, rotate, 0, an_invisible | an_hidden);
            if (!content.empty()) {
                added[name] = appearance;
                drawn += content;
            }
            if (annotation.isIndirect()) {
                gone.insert(annotation.getObjGen());
            }
        }
        if (gone.empty()) {
            return;
        }
        if (collected != nullptr) {
            collected_names = next - 1;
            for (auto const &[name, appearance] : added) {
                collected->xobjects.replaceKey(name, appearance);
            }
            collected->content += drawn;
        } else if (!drawn.empty()) {
            QPDFObjectHandle own_resources =
                resources.isDictionary() ? resources.shallowCopy() : QPDFObjectHandle::newDictionary();
            QPDFObjectHandle own_xobjects =
                xobjects.isDictionary() ? xobjects.shallowCopy() : QPDFObjectHandle::newDictionary();
            for (auto const &[name, appearance] : added) {
                own_xobjects.replaceKey(name, appearance);
            }
            own_resources.replaceKey("/XObject", own_xobjects);
            page.replaceKey("/Resources", own_resources);
            append_content(page, drawn);
        }
        remove_annotations(page, [&gone](QPDFObjectHandle a) {
            return a.isIndirect() && gone.count(a.getObjGen()) != 0;
        });
    }

    // A widget's appearance made from its field's value when it has none, or
    // when the form asks viewers to remake them all (/NeedAppearances).
    void give_appearance(QPDFAnnotationObjectHelper &widget)
    {
        if (!form) {
            form = std::make_unique<QPDFAcroFormDocumentHelper>(out);
        }
        if (!form->getNeedAppearances() && widget.getAppearanceStream("/N").isStream()) {
            return;
        }
        QPDFFormFieldObjectHelper field = form->getFieldForAnnotation(widget);
        if (field.getObjectHandle().isDictionary()) {
            field.generateAppearance(widget);
        }
    }

    // The page's content followed by `drawn`, the old content in q/Q so that
    // what it leaves of the graphics state does not move the appearances.
    void append_content(QPDFObjectHandle page, std::string const &drawn)
    {
        std::vector<QPDFObjectHandle> streams;
        streams.push_back(QPDFObjectHandle::newStream(&out, "q\n"));
        QPDFObjectHandle contents = page.getKey("/Contents");
        if (contents.isArray()) {
            for (QPDFObjectHandle stream : contents.getArrayAsVector()) {
                streams.push_back(stream);
            }
        } else if (contents.isStream()) {
            streams.push_back(contents);
        }
        streams.push_back(QPDFObjectHandle::newStream(&out, "\nQ\n" + drawn));
        page.replaceKey("/Contents", QPDFObjectHandle::newArray(streams));
    }

    // The page's annotations without those `doomed` says, nor the pop-ups of
    // removed ones; the page gets an array of its own (none when it is empty).
    template <typename Doomed> void remove_annotations(QPDFObjectHandle page, Doomed doomed)
    {
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) {
            return;
        }
        std::vector<QPDFObjectHandle> all = annots.getArrayAsVector();
        std::set<QPDFObjGen> removed;
        for (QPDFObjectHandle annotation : all) {
            if (annotation.isDictionary() && doomed(annotation)) {
                if (annotation.isIndirect()) {
                    removed.insert(annotation.getObjGen());
                }
                removed_widget = removed_widget || subtype_of(annotation) == "Widget";
                QPDFObjectHandle popup = annotation.getKey("/Popup");
                if (popup.isIndirect()) {
                    removed.insert(popup.getObjGen());
                }
            }
        }
        std::vector<QPDFObjectHandle> kept;
        for (QPDFObjectHandle annotation : all) {
            bool gone = annotation.isDictionary() &&
                ((annotation.isIndirect() && removed.count(annotation.getObjGen()) != 0) || doomed(annotation));
            QPDFObjectHandle parent = dict_key(annotation, "/Parent");
            if (!gone && subtype_of(annotation) == "Popup" && parent.isIndirect() &&
                removed.count(parent.getObjGen()) != 0) {
                gone = true;
            }
            if (!gone) {
                kept.push_back(annotation);
            }
        }
        if (kept.size() == all.size()) {
            return;
        }
        if (kept.empty()) {
            page.removeKey("/Annots");
        } else {
            page.replaceKey("/Annots", QPDFObjectHandle::newArray(kept));
        }
    }

    // Whether field `node` keeps a widget on a page (its /Kids cut to those that
    // do); `kept` collects the fields kept.
    bool keep_field(
        QPDFObjectHandle node, std::set<QPDFObjGen> const &on_pages, std::set<QPDFObjGen> &seen,
        std::set<QPDFObjGen> &kept, int depth)
    {
        if (!node.isDictionary() || !node.isIndirect() || !seen.insert(node.getObjGen()).second) {
            return false;
        }
        if (depth > max_field_depth) {
            kept.insert(node.getObjGen()); // cut here, as Forms.cpp reads it: left as it is
            return true;
        }
        QPDFObjectHandle kids = node.getKey("/Kids");
        bool keep = false;
        if (!kids.isArray()) {
            keep = on_pages.count(node.getObjGen()) != 0;
        } else {
            std::vector<QPDFObjectHandle> still;
            std::vector<QPDFObjectHandle> all = kids.getArrayAsVector();
            for (QPDFObjectHandle kid : all) {
                if (keep_field(kid, on_pages, seen, kept, depth + 1)) {
                    still.push_back(kid);
                }
            }
            if (still.size() != all.size()) {
                node.replaceKey("/Kids", QPDFObjectHandle::newArray(still));
            }
            keep = !still.empty();
        }
        if (keep) {
            kept.insert(node.getObjGen());
        }
        return keep;
    }

    void drop_field_scripts(QPDFObjectHandle node, std::set<QPDFObjGen> &seen, int depth)
    {
        if (!node.isDictionary() || depth > max_field_depth ||
            (node.isIndirect() && !seen.insert(node.getObjGen()).second)) {
            return;
        }
        node.removeKey("/AA");
        if (is_script(node.getKey("/A"))) {
            node.removeKey("/A");
        }
        QPDFObjectHandle kids = node.getKey("/Kids");
        if (kids.isArray()) {
            for (QPDFObjectHandle kid : kids.getArrayAsVector()) {
                drop_field_scripts(kid, seen, depth + 1);
            }
        }
    }
};

} // namespace

namespace {

// The top field of each widget on `page` (its /Parent chain climbed), once each.
std::vector<QPDFObjectHandle> top_fields(QPDFObjectHandle page)
{
    std::vector<QPDFObjectHandle> result;
    std::set<QPDFObjGen> seen;
    QPDFObjectHandle annots = page.getKey("/Annots");
    if (!annots.isArray()) {
        return result;
    }
    for (QPDFObjectHandle field : annots.getArrayAsVector()) {
        if (!field.isDictionary() || subtype_of(field) != "Widget") {
            continue;
        }
        for (int depth = 0; depth < max_field_depth && field.getKey("/Parent").isDictionary(); ++depth) {
            field = field.getKey("/Parent");
        }
        if (field.isIndirect() && seen.insert(field.getObjGen()).second) {
            result.push_back(field);
        }
    }
    return result;
}

} // namespace

FlattenedDrawing finish_cell_page(
    QPDF &out, QPDFObjectHandle page, pe_item_finish const &finish, std::string const &prefix,
    QPDFObjectHandle source_form)
{
    FlattenedDrawing drawing;
    QPDFObjectHandle root = out.getRoot();
    // A form of the cell's widgets for as long as the steps run (the output's
    // own is copied later, from the same copies of /DR's fonts).
    bool lent = false;
    if (!root.hasKey("/AcroForm") && source_form.isDictionary()) {
        QPDFObjectHandle form = QPDFObjectHandle::newDictionary();
        for (char const *key : {"/DA", "/DR", "/NeedAppearances", "/Q"}) {
            if (source_form.hasKey(key)) {
                form.replaceKey(key, import_value(out, source_form.getKey(key)));
            }
        }
        form.replaceKey("/Fields", QPDFObjectHandle::newArray(top_fields(page)));
        root.replaceKey("/AcroForm", form);
        lent = true;
    }
    PageFinisher finisher(out, 0);
    finisher.collect_into(drawing, prefix);
    try {
        finisher.run(page, finish);
    } catch (...) {
        if (lent) {
            root.removeKey("/AcroForm");
        }
        throw;
    }
    if (lent) {
        root.removeKey("/AcroForm");
    }
    return drawing;
}

RedactedPages redact_pages(
    QPDF &out, std::vector<PlacedPage> const &placed, pe_item_redact const *redact, long long stream_limit, Where &where)
{
    RedactedPages done;
    if (redact == nullptr) {
        return done;
    }
    for (size_t i = 0; i < placed.size(); ++i) {
        if (redact[i].region_count <= 0) {
            continue;
        }
        where = Where{placed[i].source, placed[i].page + 1};
        std::vector<pe_redact_region> regions(redact[i].regions, redact[i].regions + redact[i].region_count);
        RedactedPage page = redact_page(out, placed[i].to, regions, stream_limit);
        if (placed[i].to.isIndirect()) {
            QPDFObjGen id = placed[i].to.getObjGen();
            if (!page.cut_marks.empty()) {
                done.cut[id].insert(page.cut_marks.begin(), page.cut_marks.end());
            }
            if (!page.replaced.empty()) {
                done.replaced[id].insert(page.replaced.begin(), page.replaced.end());
            }
        }
    }
    where = Where{};
    return done;
}

void finish_pages(
    QPDF &out, std::vector<PlacedPage> const &placed, pe_item_finish const *finish, int strip, Where &where,
    pe_item_redact const *redact)
{
    if (finish == nullptr && strip == 0 && redact == nullptr) {
        return;
    }
    PageFinisher finisher(out, strip);
    for (size_t i = 0; i < placed.size(); ++i) {
        PlacedPage const &page = placed[i];
        where = Where{page.source, page.page + 1};
        if (redact != nullptr && redact[i].region_count > 0) {
            finisher.redact_annotations(page.to, redact[i]);
        }
        if (finish != nullptr && finish[i].step_count > 0) {
            finisher.run(page.to, finish[i]);
        }
        if (strip != 0) {
            finisher.strip_page(page.to);
        }
    }
    where = Where{};
    finisher.settle_form();
    if ((strip & PE_STRIP_JAVASCRIPT) != 0) {
        QPDFObjectHandle root = out.getRoot();
        root.removeKey("/AA");
        if (!root.getKey("/OpenAction").isArray()) {
            root.removeKey("/OpenAction"); // only a destination (kept as an array) shows no script
        }
        QPDFObjectHandle names = root.getKey("/Names");
        if (names.isDictionary()) {
            names.removeKey("/JavaScript");
        }
    }
}

} // namespace pe
