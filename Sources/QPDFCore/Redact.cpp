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
#include "Redact.hh"

#include <qpdf/BufferInputSource.hh>
#include <qpdf/QPDFNumberTreeObjectHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <memory>
#include <set>

namespace pe {

RedactRefused::RedactRefused(std::string const &message) : std::runtime_error(message) {}

namespace {

using namespace redaction;

constexpr int kMaxFormDepth = 16;
// Operators one page's redaction may run, forms counted each time drawn.
constexpr long long kMaxOperators = 20'000'000;

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
    // The MCIDs of the marked-content spans that lost something: the structure
    // elements they belong to lose their replacement texts too (redact_pages).
    std::set<long long> cut_marks;
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

    // The XObjects (forms, images) the page drew that were replaced by redacted
    // copies, by the original's object: what still refers to an original (a
    // structure element's /Stm or /Obj) is pointed at the copy.
    std::map<QPDFObjGen, QPDFObjectHandle> replaced;

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
        redact_image(own, ctm, regions, stream_limit, "image " + name + " of " + what, false);
        if (xobject.isIndirect()) {
            replaced[xobject.getObjGen()] = own;
        }
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
    if (xobject.isIndirect()) {
        replaced[xobject.getObjGen()] = own;
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
    // The resources this content gets a copy of (its /XObject and
    // /Properties copied too, the entries that change).
    auto own_resources = [&]() {
        if (!result.own_resources) {
            result.resources = resources.isDictionary() ? resources.shallowCopy() : QPDFObjectHandle::newDictionary();
            for (char const *key : {"/XObject", "/Properties"}) {
                QPDFObjectHandle entries = dict_key(resources, key);
                result.resources.replaceKey(
                    key, entries.isDictionary() ? entries.shallowCopy() : QPDFObjectHandle::newDictionary());
            }
            result.own_resources = true;
        }
    };
    auto replace_xobject = [&](std::string const &name, QPDFObjectHandle replacement) {
        own_resources();
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
    bool in_text = false;
    // Marked-content spans open (BDC, BMC): where each was written, and how
    // many cuts (shows that lost glyphs, paths and inline images left out,
    // forms redacted) came before it.
    struct Span {
        size_t at;
        size_t length;
        long long cuts;
        std::vector<Operand> operands; // a BDC's tag and property list
    };
    std::vector<Span> spans;
    long long cuts = 0;
    // A span whose glyphs lost some keeps no /ActualText, /Alt or /E: a
    // replacement text cannot be cut to what is left, and it would read out
    // what was removed. The BDC written anew without them; "" when it holds
    // none (a named property list is replaced, for this content, by a copy).
    auto without_replacement_text = [&](std::vector<Operand> const &operands) -> std::string {
        static std::set<std::string> const keys{"/ActualText", "/Alt", "/E"};
        if (operands.size() != 2) {
            return "";
        }
        Operand const &list = operands[1];
        if (list.type == QPDFTokenizer::tt_dict_open) {
            std::string dict = "<<";
            bool dropped = false;
            for (size_t i = 0; i + 1 < list.items.size(); i += 2) {
                if (list.items[i].type == QPDFTokenizer::tt_name && keys.count(list.items[i].value) > 0) {
                    dropped = true;
                    continue;
                }
                dict += list.items[i].raw + " " + list.items[i + 1].raw + " ";
            }
            return dropped ? operands[0].raw + " " + dict + ">> BDC\n" : "";
        }
        if (list.type != QPDFTokenizer::tt_name) {
            return "";
        }
        QPDFObjectHandle named = dict_key(dict_key(result.resources, "/Properties"), list.value);
        bool holds = false;
        for (std::string const &key : keys) {
            holds = holds || (named.isDictionary() && named.hasKey(key));
        }
        if (!holds) {
            return "";
        }
        QPDFObjectHandle copy = named.shallowCopy();
        for (std::string const &key : keys) {
            copy.removeKey(key);
        }
        own_resources();
        result.resources.getKey("/Properties").replaceKey(list.value, copy);
        return "";
    };
    // The /MCID of a BDC's property list (inline, or named in /Properties); -1 for none.
    auto mcid_of = [&](std::vector<Operand> const &operands) -> long long {
        if (operands.size() != 2) {
            return -1;
        }
        Operand const &list = operands[1];
        if (list.type == QPDFTokenizer::tt_dict_open) {
            for (size_t i = 0; i + 1 < list.items.size(); i += 2) {
                if (list.items[i].type == QPDFTokenizer::tt_name && list.items[i].value == "/MCID" &&
                    list.items[i + 1].type == QPDFTokenizer::tt_integer) {
                    return static_cast<long long>(list.items[i + 1].number);
                }
            }
            return -1;
        }
        if (list.type != QPDFTokenizer::tt_name) {
            return -1;
        }
        QPDFObjectHandle mcid = dict_key(dict_key(dict_key(result.resources, "/Properties"), list.value), "/MCID");
        return mcid.isInteger() ? mcid.getIntValue() : -1;
    };

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
            } else {
                // A Q without its q would pop the state the fill is drawn in: left out.
                keep = false;
                result.changed = true;
            }
        } else if (op == "cm" && operands.size() == 6) {
            gs.ctm = Matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.times(gs.ctm);
        } else if (op == "BT") {
            tm = tlm = Matrix{};
            uncertain = 0;
            in_text = true;
        } else if (op == "ET") {
            in_text = false;
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
                ++cuts;
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
                ++cuts;
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
                ++cuts;
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
                ++cuts; // text drawn as outlines: its span's replacement text goes too
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
                ++cuts;
            }
        } else if (op == "BDC" || op == "BMC") {
            spans.push_back(Span{output.size(), original.size(), cuts, op == "BDC" ? operands : std::vector<Operand>{}});
        } else if (op == "EMC" && !spans.empty()) {
            Span span = std::move(spans.back());
            spans.pop_back();
            if (cuts > span.cuts) {
                if (long long mcid = mcid_of(span.operands); mcid >= 0) {
                    result.cut_marks.insert(mcid);
                }
                std::string rewritten = without_replacement_text(span.operands);
                if (!rewritten.empty()) {
                    output.replace(span.at, span.length, rewritten);
                }
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
                ++cuts;
            } else {
                output += "BI " + joined(operands) + "ID" + separator + image.getRawValue() + "EI\n";
            }
        }
        if (keep) {
            output += original;
        }
        operands.clear();
    }
    for (Span const &span : spans) { // left open at the end: cut all the same
        if (long long mcid = mcid_of(span.operands); cuts > span.cuts && mcid >= 0) {
            result.cut_marks.insert(mcid);
        }
    }
    // Balanced, so that what follows (the fill) is drawn outside any text
    // object in the state the content started with.
    if (in_text) {
        output += "ET\n";
    }
    for (size_t open_states = saved.size(); open_states > 0; --open_states) {
        output += "Q\n";
    }
    return result;
}

} // namespace

RedactedPage redact_page(
    QPDF &out, QPDFObjectHandle page, std::vector<pe_redact_region> const &regions, long long stream_limit)
{
    if (regions.empty()) {
        return {};
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
    return RedactedPage{rewritten.cut_marks, redactor.replaced};
}

namespace {

// The parent tree's entry `key` of `out`'s structure tree; null when none.
QPDFObjectHandle parent_tree_entry(QPDF &out, QPDFObjectHandle key)
{
    QPDFObjectHandle tree = out.getRoot().getKey("/StructTreeRoot");
    QPDFObjectHandle parents = tree.isDictionary() ? tree.getKey("/ParentTree") : QPDFObjectHandle::newNull();
    QPDFObjectHandle entry = QPDFObjectHandle::newNull();
    if (key.isInteger() && parents.isDictionary()) {
        QPDFNumberTreeObjectHelper(parents, out).findObject(key.getIntValue(), entry);
    }
    return entry;
}

// `element` and every element above it lose /ActualText, /Alt and /E: a
// /Figure's alternate text covers the content of every element inside it.
void forget_upwards(QPDFObjectHandle element, std::set<QPDFObjGen> &seen)
{
    for (int depth = 0; element.isDictionary() && element.hasKey("/S") && depth < 10'000; ++depth) {
        if (element.isIndirect() && !seen.insert(element.getObjGen()).second) {
            break; // done already, with everything above it
        }
        for (char const *replacement : {"/ActualText", "/Alt", "/E"}) {
            element.removeKey(replacement);
        }
        element = element.getKey("/P");
    }
}

} // namespace

void forget_cut_replacement_texts(QPDF &out, CutMarks const &cut, ReplacedObjects const &replaced)
{
    std::set<QPDFObjGen> seen;
    if (!replaced.empty()) {
        // Marked-content references into a redacted form (/Stm) and object
        // references to a redacted image or form (/Obj) are pointed at the
        // copy the page draws now; their element loses its replacement texts.
        QPDFObjectHandle tree = out.getRoot().getKey("/StructTreeRoot");
        std::vector<QPDFObjectHandle> pending;
        if (tree.isDictionary()) {
            pending.push_back(tree);
        }
        std::set<QPDFObjGen> walked;
        for (size_t count = 0; !pending.empty() && count < 10'000'000; ++count) {
            QPDFObjectHandle element = pending.back();
            pending.pop_back();
            if (!element.isDictionary() || (element.isIndirect() && !walked.insert(element.getObjGen()).second)) {
                continue;
            }
            QPDFObjectHandle kids = element.getKey("/K");
            std::vector<QPDFObjectHandle> items = kids.isArray() ? kids.getArrayAsVector() : std::vector{kids};
            for (QPDFObjectHandle item : items) {
                if (!item.isDictionary()) {
                    continue;
                }
                if (!item.hasKey("/S")) { // a marked-content or object reference, not an element
                    QPDFObjectHandle page = item.hasKey("/Pg") ? item.getKey("/Pg") : element.getKey("/Pg");
                    auto on_page = page.isIndirect() ? replaced.find(page.getObjGen()) : replaced.end();
                    for (char const *key : {"/Stm", "/Obj"}) {
                        QPDFObjectHandle target = item.getKey(key);
                        if (on_page == replaced.end() || !target.isIndirect()) {
                            continue;
                        }
                        auto copy = on_page->second.find(target.getObjGen());
                        if (copy != on_page->second.end()) {
                            item.replaceKey(key, copy->second);
                            forget_upwards(element, seen);
                        }
                    }
                    continue;
                }
                pending.push_back(item); // a child element
            }
        }
    }
    for (auto const &[id, marks] : cut) {
        QPDFObjectHandle elements = parent_tree_entry(out, out.getObject(id).getKey("/StructParents"));
        if (!elements.isArray()) {
            continue;
        }
        for (long long mcid : marks) {
            if (mcid < elements.getArrayNItems()) {
                forget_upwards(elements.getArrayItem(static_cast<int>(mcid)), seen);
            }
        }
    }
}

void forget_object_replacement_texts(QPDF &out, QPDFObjectHandle object)
{
    std::set<QPDFObjGen> seen;
    forget_upwards(parent_tree_entry(out, object.getKey("/StructParent")), seen);
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
