// What the reader entry points (QPDFBridgeReader.h) read of an opened document:
// document facts, bookmarks (the outline a new source brings into the session),
// page label ranges and page geometry for info, list and the kit's page sizes, by
// the geometry rules of Geometry.hh.
#include "Reader.hh"

#include "Export.hh"
#include "Geometry.hh"

#include <qpdf/QPDFNumberTreeObjectHelper.hh>

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

} // namespace

void read_facts(Source &source, pe_document_facts &facts, pe_text_fn text, void *context)
{
    QPDF &pdf = *source.pdf;
    QPDFObjectHandle root = pdf.getRoot();
    QPDFObjectHandle fields = present_value(present_value(root, "/AcroForm"), "/Fields");
    pe_document_facts made{};
    made.page_count = static_cast<int>(source.pages.size());
    made.encrypted = pdf.isEncrypted() ? 1 : 0;
    made.allows_assembly = pdf.allowModifyAssembly() ? 1 : 0;
    made.has_form = fields.isArray() && fields.getArrayNItems() > 0 ? 1 : 0;
    made.has_outlines = present_value(present_value(root, "/Outlines"), "/First").isNull() ? 0 : 1;
    made.has_page_labels = present_value(root, "/PageLabels").isNull() ? 0 : 1;
    made.tagged = present_value(root, "/StructTreeRoot").isNull() ? 0 : 1;
    std::string version = pdf.getPDFVersion();
    QPDFObjectHandle info = present_value(pdf.getTrailer(), "/Info");
    std::vector<std::pair<char const *, std::string>> texts;
    for (char const *key : {"Producer", "Creator", "Title", "Author", "Subject", "Keywords", "CreationDate", "ModDate"}) {
        QPDFObjectHandle value = present_value(info, ("/" + std::string(key)).c_str());
        if (value.isString()) {
            texts.emplace_back(key, value.getUTF8Value());
        }
    }
    facts = made;
    if (text != nullptr) {
        text(context, "Version", version.c_str());
        for (auto const &entry : texts) {
            text(context, entry.first, entry.second.c_str());
        }
    }
}

namespace {

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

} // namespace

void read_outline(Source &source, pe_outline_item_fn each, void *context)
{
    pass_entries(source.outline(), 0, each, context);
}

// The number tree as qpdf's helper reads it (its depth was checked when the
// document was opened); the labels themselves are worked out by the kit
// (OutputLabels), the prefixes decoded here by the one decoder of PDF text
// strings, getUTF8Value.
void read_page_labels(Source &source, int &has_labels, pe_label_range_fn each, void *context)
{
    QPDFObjectHandle tree = source.pdf->getRoot().getKey("/PageLabels");
    has_labels = tree.isDictionary() ? 1 : 0;
    if (!has_labels) {
        return;
    }
    QPDFNumberTreeObjectHelper labels(tree, *source.pdf);
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
}

void read_page_geometry(Source const &source, int page, pe_page_geometry &geometry)
{
    int count = static_cast<int>(source.pages.size());
    if (page < 0 || page >= count) {
        throw PlanError("no such page", count);
    }
    PageGeometry found = page_geometry(source.pages[static_cast<size_t>(page)]);
    set_box(geometry.media_box, found.media);
    set_box(geometry.crop_box, found.visible);
    geometry.rotation = found.rotation;
    geometry.user_unit = found.unit;
}

} // namespace pe
