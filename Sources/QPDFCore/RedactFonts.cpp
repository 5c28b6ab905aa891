// Glyph widths for redaction (Redact.hh's Font): simple fonts' /Widths from
// /FirstChar (Courier's 600 when a standard font has none), CID fonts' /W and
// /DW under Identity-H, Type3 widths through /FontMatrix, and the vertical
// extent of glyphs from the font descriptor (or a Type3 font's /FontBBox).
#include "Redact.hh"

namespace pe {
namespace redaction {
namespace {

bool is_courier(std::string const &base)
{
    return base.find("Courier") != std::string::npos;
}

void read_descriptor(Font &font, QPDFObjectHandle descriptor)
{
    if (!descriptor.isDictionary()) {
        return;
    }
    double ascent = number_of(descriptor.getKey("/Ascent"), 0) / 1000;
    double descent = number_of(descriptor.getKey("/Descent"), 0) / 1000;
    // Some fonts say 0 or nonsense: keep the defaults then.
    if (ascent > 0.3 && ascent < 1.5) {
        font.ascent = ascent;
    }
    if (descent < 0 && descent > -0.8) {
        font.descent = descent;
    }
}

Font read_simple_font(QPDFObjectHandle dict, bool type3)
{
    Font font;
    QPDFObjectHandle widths = dict.getKey("/Widths");
    int first = static_cast<int>(number_of(dict.getKey("/FirstChar"), 0));
    if (type3) {
        QPDFObjectHandle matrix = dict.getKey("/FontMatrix");
        if (matrix.isArray() && matrix.getArrayNItems() == 6) {
            font.scale = number_of(matrix.getArrayItem(0), 0.001);
            double d = number_of(matrix.getArrayItem(3), 0.001);
            QPDFObjectHandle bbox = dict.getKey("/FontBBox");
            if (bbox.isArray() && bbox.getArrayNItems() == 4) {
                double low = number_of(bbox.getArrayItem(1), 0) * d;
                double high = number_of(bbox.getArrayItem(3), 0) * d;
                if (high > low) {
                    font.ascent = std::max(high, 0.3);
                    font.descent = std::min(low, 0.0);
                }
            }
        }
    } else {
        read_descriptor(font, dict.getKey("/FontDescriptor"));
    }
    QPDFObjectHandle descriptor = dict.getKey("/FontDescriptor");
    font.default_width = descriptor.isDictionary() ? number_of(descriptor.getKey("/MissingWidth"), 0) : 0;
    if (widths.isArray()) {
        int count = widths.getArrayNItems();
        for (int i = 0; i < count && i < 256; ++i) {
            font.widths[first + i] = number_of(widths.getArrayItem(i), 0);
        }
        return font;
    }
    QPDFObjectHandle base = dict.getKey("/BaseFont");
    if (!type3 && base.isName() && is_courier(base.getName())) {
        font.default_width = 600;
        return font;
    }
    font.known = false;
    font.why = "its widths are not in the file (a standard font without /Widths)";
    return font;
}

Font read_type0_font(QPDFObjectHandle dict)
{
    Font font;
    font.two_byte = true;
    QPDFObjectHandle encoding = dict.getKey("/Encoding");
    if (!encoding.isName() || encoding.getName() != "/Identity-H") {
        font.known = false;
        font.why = encoding.isName() && encoding.getName() == "/Identity-V"
            ? "it is written vertically (Identity-V)"
            : "its encoding is not Identity-H";
        return font;
    }
    QPDFObjectHandle descendants = dict.getKey("/DescendantFonts");
    QPDFObjectHandle cid = descendants.isArray() && descendants.getArrayNItems() > 0 ? descendants.getArrayItem(0)
                                                                                        : QPDFObjectHandle::newNull();
    if (!cid.isDictionary()) {
        font.known = false;
        font.why = "it has no descendant font";
        return font;
    }
    read_descriptor(font, cid.getKey("/FontDescriptor"));
    font.default_width = number_of(cid.getKey("/DW"), 1000);
    QPDFObjectHandle w = cid.getKey("/W");
    if (w.isArray()) {
        std::vector<QPDFObjectHandle> items = w.getArrayAsVector();
        size_t i = 0;
        while (i < items.size()) {
            if (!items[i].isNumber()) {
                break;
            }
            int first = static_cast<int>(items[i].getNumericValue());
            if (i + 1 < items.size() && items[i + 1].isArray()) {
                std::vector<QPDFObjectHandle> list = items[i + 1].getArrayAsVector();
                for (size_t k = 0; k < list.size() && k < 65536; ++k) {
                    font.widths[first + static_cast<int>(k)] = number_of(list[k], font.default_width);
                }
                i += 2;
            } else if (i + 2 < items.size() && items[i + 1].isNumber() && items[i + 2].isNumber()) {
                int last = static_cast<int>(items[i + 1].getNumericValue());
                double width = items[i + 2].getNumericValue();
                for (int c = first; c <= last && c - first < 65536; ++c) {
                    font.widths[c] = width;
                }
                i += 3;
            } else {
                break;
            }
        }
    }
    return font;
}

} // namespace

Font read_font(QPDFObjectHandle dict)
{
    if (!dict.isDictionary()) {
        Font font;
        font.known = false;
        font.why = "it is not a font dictionary";
        return font;
    }
    QPDFObjectHandle subtype = dict.getKey("/Subtype");
    std::string kind = subtype.isName() ? subtype.getName() : "";
    if (kind == "/Type0") {
        return read_type0_font(dict);
    }
    return read_simple_font(dict, kind == "/Type3");
}


} // namespace redaction
} // namespace pe
