// What the reader entry points (QPDFBridgeReader.h) read of an opened document:
// document facts and page geometry for info, list and the kit's page sizes, by
// the geometry rules of Geometry.hh.
#include "Reader.hh"

#include "Export.hh"
#include "Geometry.hh"

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
