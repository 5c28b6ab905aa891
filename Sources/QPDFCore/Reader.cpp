// The reader entry points (QPDFBridgeReader.h) on an opened document: document
// facts, bookmarks (the outline a new source brings into the session), page
// label ranges and page geometry for info, list and the kit's page sizes, by
// the geometry rules of Geometry.hh.
#include "Geometry.hh"
#include "Inputs.hh"
#include "StructureTree.hh"

#include <qpdf/QPDFNumberTreeObjectHelper.hh>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pe {
namespace {

void set_box(double (&to)[4], Rect const &box)
{
    to[0] = box.llx;
    to[1] = box.lly;
    to[2] = box.urx;
    to[3] = box.ury;
}

void pass_entries(std::vector<OutlineEntry> const &entries, int level, pe_outline_item_fn each, void *context)
{
    for (OutlineEntry const &entry : entries) {
        pe_outline_item item{};
        item.level = level;
        std::string title = entry.title_utf8.substr(0, entry.title_utf8.find('\0'));
        item.title = title.c_str();
        item.page = entry.page;
        item.open = entry.open ? 1 : 0;
        std::string view;
        for (QPDFObjectHandle value : entry.view) { // handles: copies are cheap
            view += (view.empty() ? "" : "\n") + value.unparse();
        }
        item.view = entry.view.empty() ? nullptr : view.c_str();
        QPDFObjectHandle color = entry.color;
        QPDFObjectHandle flags = entry.flags;
        if (color.isInitialized() && color.isArray() && color.getArrayNItems() == 3) {
            item.has_color = 1;
            for (int i = 0; i < 3; ++i) {
                QPDFObjectHandle part = color.getArrayItem(i);
                item.color[i] = part.isNumber() ? part.getNumericValue() : 0;
            }
        }
        item.flags = flags.isInitialized() && flags.isInteger() && flags.getIntValue() >= 0
                && flags.getIntValue() <= 0x7fffffff
            ? static_cast<int>(flags.getIntValue())
            : -1;
        std::string uri = entry.uri.substr(0, entry.uri.find('\0'));
        item.uri = uri.empty() ? nullptr : uri.c_str();
        std::string action = uri.empty() && entry.action.isInitialized() ? portable_action(entry.action) : "";
        item.action = action.empty() ? nullptr : action.c_str();
        each(context, &item);
        pass_entries(entry.kids, level + 1, each, context);
    }
}

// A name as PDF syntax (qpdf's unparse: a space, a tab or a delimiter in it
// written as #xx), so that a shape's words never hold a separator.
std::string name_text(std::string const &name)
{
    return QPDFObjectHandle::newName(name).unparse();
}

// Keys are listed as written, their values not resolved (getDictAsMap, not
// getKeys, which resolves every value to leave out nulls: parsing a page's
// content streams, an annotation's appearances, or a damaged catalog entry no
// export uses and warning about it). A key whose value is null is listed.
//
// See pe_document_read_contents: a dictionary (or a stream's dictionary) as
// "dict", its `kind_key` entry when it is a name ("-" when not) and its keys;
// "array", "name", "string" or "other" for any other value.
std::string shape(QPDFObjectHandle value, char const *kind_key)
{
    if (value.isStream()) {
        value = value.getDict();
    }
    if (value.isDictionary()) {
        QPDFObjectHandle kind = value.getKey(kind_key);
        std::string text = "dict " + (kind.isName() ? name_text(kind.getName()) : std::string("-"));
        for (auto const &entry : value.getDictAsMap()) {
            text += " " + name_text(entry.first);
        }
        return text;
    }
    return value.isArray() ? "array" : value.isName() ? "name" : value.isString() ? "string" : "other";
}

void outline_action_shapes(std::vector<OutlineEntry> const &entries, std::set<std::string> &shapes)
{
    for (OutlineEntry const &entry : entries) {
        if (entry.action.isInitialized()) {
            shapes.insert(shape(entry.action, "/S"));
        }
        outline_action_shapes(entry.kids, shapes);
    }
}

bool outline_scripts(std::vector<OutlineEntry> const &entries)
{
    for (OutlineEntry const &entry : entries) {
        if ((entry.action.isInitialized() && runs_script(entry.action)) || outline_scripts(entry.kids)) {
            return true;
        }
    }
    return false;
}

} // namespace
} // namespace pe

extern "C" int pe_document_read_facts(
    pe_document *document, pe_document_facts *facts, pe_text_fn text, void *context, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && document->source.pdf && facts != nullptr,
                    "pe_document_read_facts: no document or no result");
        QPDF &pdf = *document->source.pdf;
        QPDFObjectHandle root = pdf.getRoot();
        QPDFObjectHandle fields = pe::present_value(pe::present_value(root, "/AcroForm"), "/Fields");
        pe_document_facts made{};
        made.page_count = static_cast<int>(document->source.pages.size());
        made.encrypted = pdf.isEncrypted() ? 1 : 0;
        made.allows_assembly = pdf.allowModifyAssembly() ? 1 : 0;
        made.has_form = fields.isArray() && fields.getArrayNItems() > 0 ? 1 : 0;
        made.has_outlines = pe::present_value(pe::present_value(root, "/Outlines"), "/First").isNull() ? 0 : 1;
        made.has_page_labels = pe::present_value(root, "/PageLabels").isNull() ? 0 : 1;
        made.tagged = pe::present_value(root, "/StructTreeRoot").isNull() ? 0 : 1;
        std::string version = pdf.getPDFVersion();
        QPDFObjectHandle info = pe::present_value(pdf.getTrailer(), "/Info");
        std::vector<std::pair<char const *, std::string>> texts;
        for (char const *key :
             {"Producer", "Creator", "Title", "Author", "Subject", "Keywords", "CreationDate", "ModDate"}) {
            QPDFObjectHandle value = pe::present_value(info, ("/" + std::string(key)).c_str());
            if (value.isString()) {
                texts.emplace_back(key, value.getUTF8Value());
            }
        }
        *facts = made;
        if (text != nullptr) {
            text(context, "Version", version.c_str());
            for (auto const &entry : texts) {
                text(context, entry.first, entry.second.c_str());
            }
        }
    });
}

extern "C" int pe_document_read_outline(
    pe_document *document, pe_outline_item_fn each, void *context, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && document->source.pdf && each != nullptr,
                    "pe_document_read_outline: no document or no receiver");
        pe::pass_entries(document->source.outline(), 0, each, context);
    });
}

// The number tree as qpdf's helper reads it (its depth was checked when the
// document was opened); the labels themselves are worked out by the kit
// (OutputLabels), the prefixes decoded here by the one decoder of PDF text
// strings, getUTF8Value.
extern "C" int pe_document_read_page_labels(
    pe_document *document, int *has_labels, pe_label_range_fn each, void *context, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && document->source.pdf && has_labels != nullptr && each != nullptr,
                    "pe_document_read_page_labels: no document or no receiver");
        QPDFObjectHandle tree = document->source.pdf->getRoot().getKey("/PageLabels");
        *has_labels = tree.isDictionary() ? 1 : 0;
        if (!*has_labels) {
            return;
        }
        QPDFNumberTreeObjectHelper labels(tree, *document->source.pdf);
        for (auto const &entry : labels) {
            QPDFObjectHandle value = entry.second;
            pe_label_range range{};
            range.first = entry.first;
            range.usable = value.isDictionary() ? 1 : 0;
            range.start = 1;
            std::string prefix;
            if (range.usable) {
                QPDFObjectHandle style = value.getKey("/S");
                std::string name = style.isName() ? style.getName() : "";
                range.style = name.size() == 2 && std::string("DrRaA").find(name[1]) != std::string::npos ? name[1] : 0;
                QPDFObjectHandle start = value.getKey("/St");
                if (start.isInteger() && start.getIntValue() >= 1) {
                    range.start = start.getIntValue();
                }
                QPDFObjectHandle given = value.getKey("/P");
                if (given.isString()) {
                    prefix = given.getUTF8Value();
                    prefix = prefix.substr(0, prefix.find('\0'));
                    range.prefix = prefix.c_str();
                }
            }
            each(context, &range);
        }
    });
}

extern "C" int pe_document_page_geometry(
    pe_document *document, int page, pe_page_geometry *geometry, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && geometry != nullptr, "pe_document_page_geometry: no document or no result");
        int count = static_cast<int>(document->source.pages.size());
        if (page < 0 || page >= count) {
            throw pe::PlanError("no such page", count);
        }
        pe::PageGeometry found = pe::page_geometry(document->source.pages[static_cast<size_t>(page)]);
        pe::set_box(geometry->media_box, found.media);
        pe::set_box(geometry->crop_box, found.visible);
        geometry->rotation = found.rotation;
        geometry->user_unit = found.unit;
    });
}

extern "C" int pe_document_read_contents(
    pe_document *document, int pages, pe_document_contents *contents, pe_text_fn each, void *context,
    pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && document->source.pdf && contents != nullptr,
                    "pe_document_read_contents: no document or no result");
        pe::Source &source = document->source;
        QPDFObjectHandle root = source.pdf->getRoot();
        pe_document_contents made{};
        // Each distinct shape once (per page for annotations): a book's
        // thousands of links have a handful.
        std::set<std::string> page_keys, annotations, outline_actions;
        if (pages != 0) {
            for (size_t index = 0; index < source.pages.size(); ++index) {
                QPDFObjectHandle page = source.pages[index];
                for (auto const &entry : page.getDictAsMap()) {
                    page_keys.insert(entry.first);
                }
                QPDFObjectHandle annots = page.getKey("/Annots");
                if (!annots.isArray()) {
                    if (!annots.isNull()) { // damaged: what it holds is not known
                        ++made.annotations;
                        annotations.insert(std::to_string(index) + "\tother\tnone");
                    }
                    continue;
                }
                for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
                    if (annot.isDictionary()) {
                        ++made.annotations;
                        QPDFObjectHandle action = annot.getKey("/A");
                        std::string acting = action.isNull() ? std::string("none") : pe::shape(action, "/S");
                        annotations.insert(
                            std::to_string(index) + "\t" + pe::shape(annot, "/Subtype") + "\t" + acting);
                    }
                }
            }
            pe::outline_action_shapes(source.outline(), outline_actions);
        }
        QPDFObjectHandle form = pe::present_value(root, "/AcroForm");
        QPDFObjectHandle fields = pe::present_value(form, "/Fields");
        made.form_fields = fields.isArray() && fields.getArrayNItems() > 0 ? 1 : 0;
        made.xfa = pe::present_value(form, "/XFA").isNull() ? 0 : 1;
        *contents = made;
        if (each == nullptr) {
            return;
        }
        if (root.isDictionary()) {
            for (auto const &entry : root.getDictAsMap()) {
                each(context, "catalog", entry.first.c_str());
            }
            QPDFObjectHandle names = pe::present_value(root, "/Names");
            if (names.isDictionary()) {
                for (auto const &entry : names.getDictAsMap()) {
                    each(context, "names", entry.first.c_str());
                }
            }
        }
        for (std::string const &key : page_keys) {
            each(context, "page", key.c_str());
        }
        for (std::string const &annotation : annotations) {
            each(context, "annotation", annotation.c_str());
        }
        QPDFObjectHandle open = pe::present_value(root, "/OpenAction");
        if (!open.isNull()) {
            each(context, "open", pe::shape(open, "/S").c_str());
        }
        for (std::string const &action : outline_actions) {
            each(context, "outline action", action.c_str());
        }
    });
}

extern "C" int pe_document_read_whole_file_facts(pe_document *document, pe_whole_file_facts *facts, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && document->source.pdf && document->for_export && facts != nullptr,
                    "pe_document_read_whole_file_facts: no document opened for export or no result");
        pe::Source &source = document->source;
        QPDFObjectHandle root = source.pdf->getRoot();
        pe_whole_file_facts made{};
        made.repaired = source.opened_clean ? 0 : 1;
        QPDFObjectHandle count = pe::present_value(pe::present_value(root, "/Pages"), "/Count");
        made.page_tree_count = count.isInteger() && count.getIntValue() >= 0 && count.getIntValue() <= INT_MAX
            ? static_cast<int>(count.getIntValue())
            : -1;
        made.structure = pe::structure_readability(source);
        // As Document.cpp's note_dropped and write_outline name them.
        QPDFObjectHandle open = pe::present_value(root, "/OpenAction");
        bool open_action = !open.isNull() && !open.isArray() && !pe::dict_key(open, "/S").isNameAndEquals("/GoTo");
        made.scripts = pe::dict_key(pe::present_value(root, "/Names"), "/JavaScript").isDictionary() ||
                open_action || !pe::present_value(root, "/AA").isNull() || pe::outline_scripts(source.outline())
            ? 1
            : 0;
        made.xfa = pe::present_value(pe::present_value(root, "/AcroForm"), "/XFA").isNull() ? 0 : 1;
        made.optional_content = pe::present_value(root, "/OCProperties").isNull() ? 0 : 1;
        std::set<QPDFObjGen> listed;
        for (size_t i = 0; i < source.pages.size() && made.shared_annotations == 0; ++i) {
            QPDFObjectHandle annots = source.pages[i].getKey("/Annots");
            if (!annots.isArray()) {
                continue;
            }
            for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
                if (annot.isDictionary() && (!annot.isIndirect() || !listed.insert(annot.getObjGen()).second)) {
                    made.shared_annotations = 1;
                    break;
                }
            }
        }
        *facts = made;
    });
}
