// True redaction of an output page (pe_export_options.redact): what the page
// draws inside each region is taken out of the file, not covered.
//
// The page's content is read with qpdf's QPDFTokenizer (as PageWork.cpp reads
// it, every stream inflated through the one bounded decoder) and written anew
// operator by operator by a small interpreter that keeps the graphics state
// (cm, q/Q) and the text state (BT/ET, Tm, Td, TD, T*, Tf, Tc, Tw, Tz, TL, Ts,
// Tr) and knows each font's glyph widths (simple fonts' /Widths and
// /FirstChar, CID fonts' /W and /DW with the 2-byte codes of Identity-H, Type3
// widths through /FontMatrix):
//
// - a glyph whose box meets a region leaves its Tj/TJ/'/" string; in its place
//   a TJ adjustment of exactly its advance, so every glyph left stays where it
//   was (a Tj that loses a glyph becomes a TJ);
// - a path whose box lies inside a region is not painted (its painting
//   operator becomes n, its clip kept); paths crossing a region's edge stay,
//   under the fill;
// - an image XObject drawn under a region gets the region's samples replaced
//   in its data (decoded by qpdf, DCT included; written back Flate-encoded),
//   its soft mask made opaque there; the image is a copy of the page's own;
// - form XObjects drawn by the page are interpreted the same way, each changed
//   one a copy for this page (other pages keep theirs);
// - the fill boxes are drawn last, over everything, in the page's user space.
//
// What the interpreter cannot judge is refused (RedactRefused, PE_E_UNSUPPORTED
// naming the page): a shading (sh) or an inline image reaching into a region,
// an image it cannot decode (JBIG2, CCITT, JPX) under a region, text in a font
// whose widths it does not know (a CID font with another encoding than
// Identity-H, a simple font without /Widths other than Courier) or in vertical
// writing, forms nested deeper than kMaxFormDepth. The caller then rasterises
// the page or refuses the export. Annotations meeting a region are removed by
// Finishing.cpp (redact_annotations), with their fields.
#include "Export.hh"
#include "Limits.hh"

#include <qpdf/BufferInputSource.hh>
#include <qpdf/Pl_Buffer.hh>
#include <qpdf/Pl_Flate.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pe {

RedactRefused::RedactRefused(std::string const &message) : std::runtime_error(message) {}

namespace {

constexpr int kMaxFormDepth = 16;
// Operators one page's redaction may run, forms counted each time drawn.
constexpr long long kMaxOperators = 20'000'000;
// Overlap below this many points is touching, not meeting.
constexpr double kTouch = 0.01;

struct Matrix {
    double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;

    // This matrix applied first, then `then`.
    Matrix times(Matrix const &then) const
    {
        return Matrix{
            a * then.a + b * then.c, a * then.b + b * then.d, c * then.a + d * then.c,
            c * then.b + d * then.d, e * then.a + f * then.c + then.e, e * then.b + f * then.d + then.f};
    }

    void apply(double x, double y, double &ox, double &oy) const
    {
        ox = a * x + c * y + e;
        oy = b * x + d * y + f;
    }

    bool inverse(Matrix &out) const
    {
        double det = a * d - b * c;
        if (std::fabs(det) < 1e-12) {
            return false;
        }
        out = Matrix{d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det};
        return true;
    }
};

struct Box {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// The box around the corners of [x0 x1] x [y0 y1] under `m`.
Box transformed(Matrix const &m, double x0, double y0, double x1, double y1)
{
    double xs[4], ys[4];
    m.apply(x0, y0, xs[0], ys[0]);
    m.apply(x1, y0, xs[1], ys[1]);
    m.apply(x0, y1, xs[2], ys[2]);
    m.apply(x1, y1, xs[3], ys[3]);
    Box box{xs[0], ys[0], xs[0], ys[0]};
    for (int i = 1; i < 4; ++i) {
        box.x0 = std::min(box.x0, xs[i]);
        box.x1 = std::max(box.x1, xs[i]);
        box.y0 = std::min(box.y0, ys[i]);
        box.y1 = std::max(box.y1, ys[i]);
    }
    return box;
}

bool meets(Box const &a, pe_redact_region const &r)
{
    return std::min(a.x1, r.x1) - std::max(a.x0, r.x0) > kTouch && std::min(a.y1, r.y1) - std::max(a.y0, r.y0) > kTouch;
}

bool inside(Box const &a, pe_redact_region const &r)
{
    return a.x0 >= r.x0 - kTouch && a.x1 <= r.x1 + kTouch && a.y0 >= r.y0 - kTouch && a.y1 <= r.y1 + kTouch;
}

std::string number_text(double value)
{
    if (std::fabs(value) < 0.00005) {
        return "0";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
    std::string text(buffer);
    while (!text.empty() && text.back() == '0') {
        text.pop_back();
    }
    if (!text.empty() && text.back() == '.') {
        text.pop_back();
    }
    return text;
}

double number_of(QPDFObjectHandle value, double fallback)
{
    return value.isNumber() ? value.getNumericValue() : fallback;
}

// ---- Fonts -------------------------------------------------------------------

// What the interpreter knows of one font: how its strings split into codes,
// each code's advance in text space units per unit of font size, the vertical
// extent of its glyphs.
struct Font {
    bool two_byte = false;
    bool known = true;       // widths known (else `why`)
    std::string why;
    std::map<int, double> widths; // code (simple) or CID (Type0) -> advance
    double default_width = 0;
    double scale = 0.001;    // glyph space -> text space (Type3: FontMatrix a)
    double ascent = 0.9;
    double descent = -0.25;

    double width(int code) const
    {
        auto found = widths.find(code);
        return (found == widths.end() ? default_width : found->second) * scale;
    }
};

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

// ---- Operands ----------------------------------------------------------------

// One operand as read: its text as the file wrote it (written back unchanged),
// and for numbers, strings and arrays what the interpreter needs.
struct Operand {
    QPDFTokenizer::token_type_e type = QPDFTokenizer::tt_bad;
    std::string raw;
    std::string value;           // a string's bytes, a name
    double number = 0;
    std::vector<Operand> items;  // an array's elements (TJ)
};

// The state a q saves and a Q restores.
struct GraphicsState {
    Matrix ctm;
    double char_spacing = 0;
    double word_spacing = 0;
    double scale = 1;   // Tz / 100
    double leading = 0;
    double rise = 0;
    double font_size = 0;
    std::string font_name;
};

// A glyph run of a shown string after the cut: kept bytes, or the advance of
// removed glyphs as a TJ number.
struct Piece {
    bool kept;
    std::string bytes;
    double adjustment;
};

// What run() made of one content stream: its new text, whether anything was
// taken out, and the resources to draw it with (the ones given, or a copy
// naming the XObjects' redacted copies).
struct Rewritten {
    std::string content;
    bool changed = false;
    QPDFObjectHandle resources;
    bool own_resources = false;
};

// ---- The interpreter -----------------------------------------------------------

class Redactor {
  public:
    Redactor(QPDF &output, std::vector<pe_redact_region> const &regions, long long limit) :
        out(output), regions(regions), stream_limit(limit)
    {
    }

    // The content of `data` drawn with `resources` at `ctm`, rewritten.
    Rewritten run(
        std::string const &data, QPDFObjectHandle resources, Matrix const &ctm, int depth, std::string const &what);

  private:
    QPDF &out;
    std::vector<pe_redact_region> const &regions;
    long long stream_limit;
    long long operators = 0;
    std::map<QPDFObjGen, std::shared_ptr<Font>> fonts;

    bool meets_any(Box const &box) const
    {
        for (pe_redact_region const &r : regions) {
            if (meets(box, r)) {
                return true;
            }
        }
        return false;
    }

    bool inside_one(Box const &box) const
    {
        for (pe_redact_region const &r : regions) {
            if (inside(box, r)) {
                return true;
            }
        }
        return false;
    }

    std::shared_ptr<Font> font_named(QPDFObjectHandle resources, std::string const &name)
    {
        QPDFObjectHandle dict = dict_key(dict_key(resources, "/Font"), name);
        if (dict.isIndirect()) {
            auto found = fonts.find(dict.getObjGen());
            if (found != fonts.end()) {
                return found->second;
            }
        }
        auto font = std::make_shared<Font>(read_font(dict));
        if (!dict.isDictionary()) {
            font->why = "the font " + name + " is missing from the resources";
        }
        if (dict.isIndirect()) {
            fonts[dict.getObjGen()] = font;
        }
        return font;
    }

    // Cuts `bytes` shown at the text matrix `tm` (advanced past each glyph),
    // into pieces; true when a glyph was removed.
    bool cut(
        std::string const &bytes, Font const &font, GraphicsState const &gs, Matrix &tm, std::vector<Piece> &pieces,
        std::string const &what);

    // The copy of XObject `name` this page draws instead (null: the XObject
    // stays as it is).
    QPDFObjectHandle redact_xobject(
        QPDFObjectHandle resources, std::string const &name, Matrix const &ctm, int depth, std::string const &what);

    void redact_image(QPDFObjectHandle image, Matrix const &ctm, std::string const &what, bool is_mask_of_image);
};

// The advance of one glyph in unscaled text space (before Th), from its code.
double glyph_advance(Font const &font, int code, bool single_space, GraphicsState const &gs)
{
    return font.width(code) * gs.font_size + gs.char_spacing + (single_space ? gs.word_spacing : 0);
}

bool Redactor::cut(
    std::string const &bytes, Font const &font, GraphicsState const &gs, Matrix &tm, std::vector<Piece> &pieces,
    std::string const &what)
{
    bool removed = false;
    size_t step = font.two_byte ? 2 : 1;
    Matrix size_matrix{gs.font_size * gs.scale, 0, 0, gs.font_size, 0, gs.rise};
    for (size_t i = 0; i < bytes.size(); i += step) {
        int code = static_cast<unsigned char>(bytes[i]);
        if (font.two_byte) {
            code = i + 1 < bytes.size() ? (code << 8) | static_cast<unsigned char>(bytes[i + 1]) : code << 8;
        }
        std::string glyph = bytes.substr(i, step);
        double w0 = font.width(code);
        // The glyph's core: the middle of its advance, baseline to most of its
        // ascent, so that a neighbour's ascender or descender grazing a region
        // does not take it away (the fill covers that part).
        Matrix trm = size_matrix.times(tm).times(gs.ctm);
        double inset = std::fabs(w0) * 0.15;
        double x0 = std::min(0.0, w0) + inset;
        double x1 = std::max(0.0, w0) - inset;
        if (x1 <= x0) {
            x0 = x1 = w0 / 2;
            x0 -= 0.01;
            x1 += 0.01;
        }
        Box box = transformed(trm, x0, 0.0, x1, font.ascent * 0.75);
        bool hit = gs.font_size != 0 && meets_any(box);
        if (hit && !font.known) {
            throw RedactRefused("text in " + what + " reaches into a region, and its font cannot be measured: " + font.why);
        }
        double advance = glyph_advance(font, code, !font.two_byte && code == 32, gs) * gs.scale;
        if (hit) {
            removed = true;
            double adjustment = -advance * 1000 / (gs.font_size * gs.scale);
            if (!pieces.empty() && !pieces.back().kept) {
                pieces.back().adjustment += adjustment;
            } else {
                pieces.push_back(Piece{false, "", adjustment});
            }
        } else if (!pieces.empty() && pieces.back().kept) {
            pieces.back().bytes += glyph;
        } else {
            pieces.push_back(Piece{true, glyph, 0});
        }
        tm = Matrix{1, 0, 0, 1, advance, 0}.times(tm);
    }
    return removed;
}

// A PDF literal string of `bytes`.
std::string literal(std::string const &bytes)
{
    std::string text = "(";
    for (char ch : bytes) {
        unsigned char byte = static_cast<unsigned char>(ch);
        if (ch == '(' || ch == ')' || ch == '\\') {
            text += '\\';
            text += ch;
        } else if (byte < 32 || byte > 126) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\%03o", byte);
            text += buffer;
        } else {
            text += ch;
        }
    }
    return text + ")";
}

// ---- Images --------------------------------------------------------------------

int components_of(QPDFObjectHandle space, std::string &family)
{
    if (space.isArray() && space.getArrayNItems() > 0) {
        QPDFObjectHandle head = space.getArrayItem(0);
        family = head.isName() ? head.getName() : "";
        if (family == "/ICCBased" && space.getArrayNItems() > 1) {
            QPDFObjectHandle stream = space.getArrayItem(1);
            return stream.isStream() ? static_cast<int>(number_of(stream.getDict().getKey("/N"), 0)) : 0;
        }
        if (family == "/Indexed" || family == "/Separation" || family == "/CalGray") {
            return 1;
        }
        if (family == "/CalRGB" || family == "/Lab") {
            return 3;
        }
        if (family == "/DeviceN" && space.getArrayNItems() > 1 && space.getArrayItem(1).isArray()) {
            return space.getArrayItem(1).getArrayNItems();
        }
        return 0;
    }
    family = space.isName() ? space.getName() : "";
    if (family == "/DeviceGray" || family == "/G") {
        return 1;
    }
    if (family == "/DeviceRGB" || family == "/RGB") {
        return 3;
    }
    if (family == "/DeviceCMYK" || family == "/CMYK") {
        return 4;
    }
    return 0;
}

// The fill colour as the image's components (0..1 each).
std::vector<double> fill_components(int count, std::string const &family, pe_redact_region const &r)
{
    std::vector<double> values(static_cast<size_t>(count), 0.0);
    if (count == 1 && family != "/Indexed" && family != "/Separation") {
        values[0] = 0.299 * r.red + 0.587 * r.green + 0.114 * r.blue;
    } else if (count == 3 && family != "/Lab") {
        values = {r.red, r.green, r.blue};
    } else if (count == 4) {
        double k = 1 - std::max({r.red, r.green, r.blue});
        double rest = k < 1 ? 1 - k : 1;
        values = {(1 - r.red - k) / rest, (1 - r.green - k) / rest, (1 - r.blue - k) / rest, k};
    }
    return values;
}

void Redactor::redact_image(QPDFObjectHandle image, Matrix const &ctm, std::string const &what, bool soft_mask)
{
    QPDFObjectHandle dict = image.getDict();
    long long width = static_cast<long long>(number_of(dict.getKey("/Width"), 0));
    long long height = static_cast<long long>(number_of(dict.getKey("/Height"), 0));
    bool mask = dict.getKey("/ImageMask").isBool() && dict.getKey("/ImageMask").getBoolValue();
    int bpc = mask ? 1 : static_cast<int>(number_of(dict.getKey("/BitsPerComponent"), 8));
    std::string family;
    int components = mask ? 1 : components_of(dict.getKey("/ColorSpace"), family);
    if (width <= 0 || height <= 0 || components <= 0 || (bpc != 1 && bpc != 2 && bpc != 4 && bpc != 8 && bpc != 16)) {
        throw RedactRefused("an image in " + what + " reaches into a region, and its samples cannot be read");
    }
    std::string data;
    if (!decode_bounded(image, stream_limit, "an image in " + what, &data, qpdf_dl_all)) {
        QPDFObjectHandle filter = dict.getKey("/Filter");
        throw RedactRefused(
            "an image in " + what + " reaches into a region, and its data cannot be decoded" +
            (filter.isName() ? " (" + filter.getName().substr(1) + ")" : ""));
    }
    long long row_bytes = (width * components * bpc + 7) / 8;
    if (static_cast<long long>(data.size()) < row_bytes * height) {
        data.resize(static_cast<size_t>(row_bytes * height), '\0');
    }
    Matrix to_image;
    if (!ctm.inverse(to_image)) {
        return;
    }
    QPDFObjectHandle decode = dict.getKey("/Decode");
    long long top = (1LL << bpc) - 1;
    for (pe_redact_region const &r : regions) {
        Box unit = transformed(to_image, r.x0, r.y0, r.x1, r.y1);
        if (unit.x1 <= 0 || unit.x0 >= 1 || unit.y1 <= 0 || unit.y0 >= 1) {
            continue;
        }
        long long c0 = std::max(0LL, static_cast<long long>(std::floor(unit.x0 * width)));
        long long c1 = std::min(width, static_cast<long long>(std::ceil(unit.x1 * width)));
        long long r0 = std::max(0LL, static_cast<long long>(std::floor((1 - unit.y1) * height)));
        long long r1 = std::min(height, static_cast<long long>(std::ceil((1 - unit.y0) * height)));
        std::vector<double> values;
        if (mask) {
            values = {1.0}; // not painted: the fill shows
        } else if (soft_mask) {
            values = {1.0}; // opaque: the fill is what shows
        } else {
            values = fill_components(components, family, r);
        }
        std::vector<long long> samples;
        for (int k = 0; k < components; ++k) {
            double v = values[static_cast<size_t>(k)];
            if (decode.isArray() && decode.getArrayNItems() >= 2 * (k + 1)) {
                double low = number_of(decode.getArrayItem(2 * k), 0);
                double high = number_of(decode.getArrayItem(2 * k + 1), 1);
                v = high != low ? (v - low) / (high - low) : 0;
            }
            v = std::min(1.0, std::max(0.0, v));
            samples.push_back(static_cast<long long>(std::lround(v * static_cast<double>(top))));
        }
        for (long long row = r0; row < r1; ++row) {
            unsigned char *line = reinterpret_cast<unsigned char *>(&data[static_cast<size_t>(row * row_bytes)]);
            for (long long col = c0; col < c1; ++col) {
                for (int k = 0; k < components; ++k) {
                    long long sample = samples[static_cast<size_t>(k)];
                    long long index = col * components + k;
                    if (bpc == 8) {
                        line[index] = static_cast<unsigned char>(sample);
                    } else if (bpc == 16) {
                        line[index * 2] = static_cast<unsigned char>(sample >> 8);
                        line[index * 2 + 1] = static_cast<unsigned char>(sample & 255);
                    } else {
                        long long bit = index * bpc;
                        int shift = 8 - bpc - static_cast<int>(bit % 8);
                        unsigned char keep = static_cast<unsigned char>(~(top << shift));
                        line[bit / 8] = static_cast<unsigned char>((line[bit / 8] & keep) | (sample << shift));
                    }
                }
            }
        }
    }
    Pl_Buffer buffer("redacted image");
    Pl_Flate flate("redacted image flate", &buffer, Pl_Flate::a_deflate);
    flate.write(reinterpret_cast<unsigned char const *>(data.data()), data.size());
    flate.finish();
    std::unique_ptr<Buffer> packed(buffer.getBuffer());
    std::string encoded(reinterpret_cast<char const *>(packed->getBuffer()), packed->getSize());
    image.replaceStreamData(encoded, QPDFObjectHandle::newName("/FlateDecode"), QPDFObjectHandle::newNull());
    QPDFObjectHandle smask = dict.getKey("/SMask");
    if (!soft_mask && smask.isStream()) {
        QPDFObjectHandle own = smask.copyStream();
        redact_image(own, ctm, what, true);
        dict.replaceKey("/SMask", own);
    }
}

// ---- XObjects --------------------------------------------------------------------

Matrix matrix_of(QPDFObjectHandle array)
{
    if (!array.isArray() || array.getArrayNItems() != 6) {
        return Matrix{};
    }
    return Matrix{
        number_of(array.getArrayItem(0), 1), number_of(array.getArrayItem(1), 0), number_of(array.getArrayItem(2), 0),
        number_of(array.getArrayItem(3), 1), number_of(array.getArrayItem(4), 0), number_of(array.getArrayItem(5), 0)};
}

QPDFObjectHandle Redactor::redact_xobject(
    QPDFObjectHandle resources, std::string const &name, Matrix const &ctm, int depth, std::string const &what)
{
    QPDFObjectHandle none = QPDFObjectHandle::newNull();
    QPDFObjectHandle xobject = dict_key(dict_key(resources, "/XObject"), name);
    if (!xobject.isStream()) {
        return none;
    }
    QPDFObjectHandle dict = xobject.getDict();
    QPDFObjectHandle subtype = dict.getKey("/Subtype");
    std::string kind = subtype.isName() ? subtype.getName() : "";
    if (kind == "/Image") {
        if (!meets_any(transformed(ctm, 0, 0, 1, 1))) {
            return none;
        }
        QPDFObjectHandle own = xobject.copyStream();
        redact_image(own, ctm, "image " + name + " of " + what, false);
        return own;
    }
    if (kind != "/Form") {
        return none;
    }
    Matrix drawn = matrix_of(dict.getKey("/Matrix")).times(ctm);
    QPDFObjectHandle bbox = dict.getKey("/BBox");
    if (bbox.isArray() && bbox.getArrayNItems() == 4) {
        Box box = transformed(
            drawn, number_of(bbox.getArrayItem(0), 0), number_of(bbox.getArrayItem(1), 0),
            number_of(bbox.getArrayItem(2), 0), number_of(bbox.getArrayItem(3), 0));
        if (!meets_any(box)) {
            return none; // clipped to its box: nothing of it is in a region
        }
    }
    std::string form_what = "form " + name + " of " + what;
    if (depth >= kMaxFormDepth) {
        throw RedactRefused(form_what + ": forms nested more than " + std::to_string(kMaxFormDepth) + " deep");
    }
    std::string data;
    if (!decode_bounded(xobject, stream_limit, form_what, &data)) {
        throw RedactRefused(form_what + " cannot be decoded");
    }
    QPDFObjectHandle own_resources = dict.getKey("/Resources");
    Rewritten rewritten = run(data, own_resources.isDictionary() ? own_resources : resources, drawn, depth + 1, form_what);
    if (!rewritten.changed) {
        return none;
    }
    QPDFObjectHandle own = xobject.copyStream();
    own.replaceStreamData(rewritten.content, QPDFObjectHandle::newNull(), QPDFObjectHandle::newNull());
    if (rewritten.own_resources) {
        own.getDict().replaceKey("/Resources", rewritten.resources);
    }
    return own;
}

// ---- Reading a content stream ------------------------------------------------------

std::string joined(std::vector<Operand> const &operands)
{
    std::string text;
    for (Operand const &operand : operands) {
        text += operand.raw;
        text += ' ';
    }
    return text;
}

// The path operators that paint (and end) a path.
bool paints(std::string const &op)
{
    return op == "S" || op == "s" || op == "f" || op == "F" || op == "f*" || op == "B" || op == "B*" || op == "b" ||
        op == "b*";
}

Rewritten Redactor::run(
    std::string const &data, QPDFObjectHandle resources, Matrix const &start, int depth, std::string const &what)
{
    Rewritten result;
    result.resources = resources;
    auto replace_xobject = [&](std::string const &name, QPDFObjectHandle replacement) {
        if (!result.own_resources) {
            result.resources = resources.isDictionary() ? resources.shallowCopy() : QPDFObjectHandle::newDictionary();
            QPDFObjectHandle xobjects = dict_key(resources, "/XObject");
            result.resources.replaceKey(
                "/XObject", xobjects.isDictionary() ? xobjects.shallowCopy() : QPDFObjectHandle::newDictionary());
            result.own_resources = true;
        }
        result.resources.getKey("/XObject").replaceKey(name, replacement);
    };

    std::string &output = result.content;
    auto input = std::make_shared<BufferInputSource>(what, data);
    QPDFTokenizer tokenizer;
    tokenizer.allowEOF();
    std::vector<Operand> operands;
    std::vector<Operand> open; // arrays and dictionaries being read
    GraphicsState gs;
    gs.ctm = start;
    std::vector<GraphicsState> saved;
    Matrix tm, tlm;
    double uncertain = 0; // text space a show in an unmeasured font may have moved past tm
    bool have_path = false;
    Box path;
    Box clip{-1e12, -1e12, 1e12, 1e12};
    std::vector<Box> saved_clips;
    bool clip_pending = false;

    auto add_point = [&](double x, double y) {
        double ux, uy;
        gs.ctm.apply(x, y, ux, uy);
        if (!have_path) {
            path = Box{ux, uy, ux, uy};
            have_path = true;
        } else {
            path.x0 = std::min(path.x0, ux);
            path.x1 = std::max(path.x1, ux);
            path.y0 = std::min(path.y0, uy);
            path.y1 = std::max(path.y1, uy);
        }
    };
    auto num = [&](size_t i) { return i < operands.size() ? operands[i].number : 0.0; };
    auto move_line = [&](double tx, double ty) {
        tlm = Matrix{1, 0, 0, 1, tx, ty}.times(tlm);
        tm = tlm;
        uncertain = 0;
    };

    // Shows `bytes` (a Tj or one string of a TJ); appends to `pieces`.
    auto show = [&](std::string const &bytes, std::vector<Piece> &pieces) -> bool {
        std::shared_ptr<Font> font = font_named(resources, gs.font_name);
        if (!font->known) {
            size_t step = font->two_byte ? 2 : 1;
            double glyphs = static_cast<double>(bytes.size() / step);
            double extent =
                uncertain + glyphs * (std::fabs(gs.font_size) + std::fabs(gs.char_spacing) + std::fabs(gs.word_spacing)) *
                    std::fabs(gs.scale);
            Box box = transformed(
                tm.times(gs.ctm), -extent, gs.rise + gs.font_size * font->descent, extent,
                gs.rise + gs.font_size * font->ascent);
            if (gs.font_size != 0 && meets_any(box)) {
                throw RedactRefused(
                    "text in " + what + " in font " + gs.font_name + " may reach into a region, and the font cannot be "
                    "measured: " + font->why);
            }
            uncertain = extent;
            pieces.push_back(Piece{true, bytes, 0});
            return false;
        }
        return cut(bytes, *font, gs, tm, pieces, what);
    };
    auto write_pieces = [&](std::vector<Piece> const &pieces) {
        output += '[';
        for (Piece const &piece : pieces) {
            output += piece.kept ? literal(piece.bytes) : number_text(piece.adjustment);
            output += ' ';
        }
        output += "] TJ\n";
    };

    while (true) {
        QPDFTokenizer::Token token = tokenizer.readToken(input, what, true);
        QPDFTokenizer::token_type_e type = token.getType();
        if (type == QPDFTokenizer::tt_eof) {
            break;
        }
        if (type == QPDFTokenizer::tt_bad) {
            throw RedactRefused(what + " holds a token qpdf cannot read: " + token.getErrorMessage());
        }
        if (type == QPDFTokenizer::tt_array_open || type == QPDFTokenizer::tt_dict_open) {
            Operand container;
            container.type = type;
            open.push_back(container);
            continue;
        }
        if (type == QPDFTokenizer::tt_array_close || type == QPDFTokenizer::tt_dict_close) {
            if (open.empty()) {
                throw RedactRefused(what + " closes an array or dictionary it never opened");
            }
            Operand done = std::move(open.back());
            open.pop_back();
            bool array = done.type == QPDFTokenizer::tt_array_open;
            done.raw = array ? "[" : "<<";
            for (Operand const &item : done.items) {
                done.raw += item.raw;
                done.raw += ' ';
            }
            done.raw += array ? "]" : ">>";
            (open.empty() ? operands : open.back().items).push_back(std::move(done));
            continue;
        }
        if (type != QPDFTokenizer::tt_word || !open.empty()) {
            Operand operand;
            operand.type = type;
            operand.raw = token.getRawValue();
            operand.value = token.getValue();
            if (type == QPDFTokenizer::tt_integer || type == QPDFTokenizer::tt_real) {
                operand.number = std::strtod(operand.value.c_str(), nullptr);
            }
            (open.empty() ? operands : open.back().items).push_back(std::move(operand));
            continue;
        }
        if (++operators > kMaxOperators) {
            throw OverLimit(what + " runs more than " + std::to_string(kMaxOperators) + " operators to redact");
        }
        std::string op = token.getValue();
        std::string original = joined(operands) + op + "\n";
        bool keep = true;

        if (op == "q") {
            saved.push_back(gs);
            saved_clips.push_back(clip);
        } else if (op == "Q") {
            if (!saved.empty()) {
                gs = saved.back();
                saved.pop_back();
                clip = saved_clips.back();
                saved_clips.pop_back();
            }
        } else if (op == "cm" && operands.size() == 6) {
            gs.ctm = Matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.times(gs.ctm);
        } else if (op == "BT") {
            tm = tlm = Matrix{};
            uncertain = 0;
        } else if (op == "Tf" && operands.size() == 2) {
            gs.font_name = operands[0].value;
            gs.font_size = num(1);
        } else if (op == "Tc" && operands.size() == 1) {
            gs.char_spacing = num(0);
        } else if (op == "Tw" && operands.size() == 1) {
            gs.word_spacing = num(0);
        } else if (op == "Tz" && operands.size() == 1) {
            gs.scale = num(0) / 100;
        } else if (op == "TL" && operands.size() == 1) {
            gs.leading = num(0);
        } else if (op == "Ts" && operands.size() == 1) {
            gs.rise = num(0);
        } else if (op == "Td" && operands.size() == 2) {
            move_line(num(0), num(1));
        } else if (op == "TD" && operands.size() == 2) {
            gs.leading = -num(1);
            move_line(num(0), num(1));
        } else if (op == "Tm" && operands.size() == 6) {
            tlm = Matrix{num(0), num(1), num(2), num(3), num(4), num(5)};
            tm = tlm;
            uncertain = 0;
        } else if (op == "T*") {
            move_line(0, -gs.leading);
        } else if ((op == "Tj" || op == "'") && operands.size() == 1 && operands[0].type == QPDFTokenizer::tt_string) {
            if (op == "'") {
                move_line(0, -gs.leading);
            }
            std::vector<Piece> pieces;
            if (show(operands[0].value, pieces)) {
                keep = false;
                result.changed = true;
                if (op == "'") {
                    output += "T*\n";
                }
                write_pieces(pieces);
            }
        } else if (op == "\"" && operands.size() == 3 && operands[2].type == QPDFTokenizer::tt_string) {
            gs.word_spacing = num(0);
            gs.char_spacing = num(1);
            move_line(0, -gs.leading);
            std::vector<Piece> pieces;
            if (show(operands[2].value, pieces)) {
                keep = false;
                result.changed = true;
                output += operands[0].raw + " Tw " + operands[1].raw + " Tc T*\n";
                write_pieces(pieces);
            }
        } else if (op == "TJ" && operands.size() == 1 && operands[0].type == QPDFTokenizer::tt_array_open) {
            std::vector<Piece> pieces;
            bool removed = false;
            for (Operand const &item : operands[0].items) {
                if (item.type == QPDFTokenizer::tt_string) {
                    removed = show(item.value, pieces) || removed;
                } else if (item.type == QPDFTokenizer::tt_integer || item.type == QPDFTokenizer::tt_real) {
                    double shift = -item.number / 1000 * gs.font_size * gs.scale;
                    tm = Matrix{1, 0, 0, 1, shift, 0}.times(tm);
                    if (!pieces.empty() && !pieces.back().kept) {
                        pieces.back().adjustment += item.number;
                    } else {
                        pieces.push_back(Piece{false, "", item.number});
                    }
                }
            }
            if (removed) {
                keep = false;
                result.changed = true;
                write_pieces(pieces);
            }
        } else if (op == "m" || op == "l") {
            add_point(num(0), num(1));
        } else if (op == "c") {
            add_point(num(0), num(1));
            add_point(num(2), num(3));
            add_point(num(4), num(5));
        } else if (op == "v" || op == "y") {
            add_point(num(0), num(1));
            add_point(num(2), num(3));
        } else if (op == "re") {
            add_point(num(0), num(1));
            add_point(num(0) + num(2), num(1) + num(3));
        } else if (op == "W" || op == "W*") {
            clip_pending = true;
        } else if (paints(op) || op == "n") {
            if (clip_pending && have_path) {
                clip = Box{std::max(clip.x0, path.x0), std::max(clip.y0, path.y0), std::min(clip.x1, path.x1),
                           std::min(clip.y1, path.y1)};
            }
            if (paints(op) && have_path && inside_one(path)) {
                keep = false;
                result.changed = true;
                output += "n\n";
            }
            have_path = false;
            clip_pending = false;
        } else if (op == "sh") {
            Box area = clip;
            if (meets_any(area)) {
                throw RedactRefused(what + " paints a shading (sh) that reaches into a region");
            }
        } else if (op == "Do" && operands.size() == 1) {
            std::string name = operands[0].value;
            QPDFObjectHandle replacement = redact_xobject(result.resources, name, gs.ctm, depth, what);
            if (!replacement.isNull()) {
                replace_xobject(name, replacement);
                result.changed = true;
            }
        } else if (op == "BI") {
            keep = false; // written with its data at ID
        } else if (op == "ID") {
            keep = false;
            char separator = ' ';
            input->read(&separator, 1);
            tokenizer.expectInlineImage(input);
            QPDFTokenizer::Token image = tokenizer.readToken(input, what, true);
            QPDFTokenizer::Token end = tokenizer.readToken(input, what, true);
            if (image.getType() != QPDFTokenizer::tt_inline_image || end.getValue() != "EI") {
                throw RedactRefused(what + " holds an inline image qpdf cannot read");
            }
            Box placed = transformed(gs.ctm, 0, 0, 1, 1);
            if (meets_any(placed)) {
                if (!inside_one(placed)) {
                    throw RedactRefused(what + " draws an inline image across a region's edge");
                }
                result.changed = true; // wholly inside: left out
            } else {
                output += "BI " + joined(operands) + "ID" + separator + image.getRawValue() + "EI\n";
            }
        }
        if (keep) {
            output += original;
        }
        operands.clear();
    }
    return result;
}

} // namespace

void redact_page(QPDF &out, QPDFObjectHandle page, std::vector<pe_redact_region> const &regions, long long stream_limit)
{
    if (regions.empty()) {
        return;
    }
    std::string data;
    for (QPDFObjectHandle stream : QPDFPageObjectHelper(page).getPageContents()) {
        std::string part;
        if (!decode_bounded(stream, stream_limit, "a content stream of the page", &part)) {
            throw RedactRefused("a content stream of the page cannot be decoded");
        }
        data += part;
        data += '\n';
    }
    Redactor redactor(out, regions, stream_limit);
    Rewritten rewritten = redactor.run(data, page.getKey("/Resources"), Matrix{}, 0, "the page");
    std::string content = "q\n" + rewritten.content + "\nQ\n";
    for (pe_redact_region const &r : regions) {
        content += "q " + number_text(r.red) + " " + number_text(r.green) + " " + number_text(r.blue) + " rg " +
            number_text(r.x0) + " " + number_text(r.y0) + " " + number_text(r.x1 - r.x0) + " " +
            number_text(r.y1 - r.y0) + " re f Q\n";
    }
    page.replaceKey("/Contents", QPDFObjectHandle::newStream(&out, content));
    if (rewritten.own_resources) {
        page.replaceKey("/Resources", rewritten.resources);
    }
    page.removeKey("/Thumb"); // a picture of what was there
}

bool annotation_meets(QPDFObjectHandle annotation, std::vector<pe_redact_region> const &regions)
{
    QPDFObjectHandle rect = dict_key(annotation, "/Rect");
    if (!rect.isArray() || rect.getArrayNItems() != 4) {
        return false;
    }
    double a = number_of(rect.getArrayItem(0), 0), b = number_of(rect.getArrayItem(1), 0);
    double c = number_of(rect.getArrayItem(2), 0), d = number_of(rect.getArrayItem(3), 0);
    Box box{std::min(a, c), std::min(b, d), std::max(a, c), std::max(b, d)};
    for (pe_redact_region const &r : regions) {
        if (meets(box, r)) {
            return true;
        }
    }
    return false;
}

} // namespace pe
