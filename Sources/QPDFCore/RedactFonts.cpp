// Glyph widths for redaction (Redact.hh's Font): simple fonts' /Widths from
// /FirstChar, CID fonts' /W and /DW under Identity-H, Type3 widths through
// /FontMatrix, and the vertical extent of glyphs from the font descriptor (or
// a Type3 font's /FontBBox).
//
// A standard font named without /Widths (Helvetica, Times, Symbol… as
// pdfedit's own stamps and many old producers write them) is measured on the
// font fontconfig substitutes for it, as poppler draws it: the URW base-35
// fonts are metric-compatible with Adobe's. Its encoding (the font's built-in
// one, StandardEncoding, WinAnsiEncoding, MacRomanEncoding, /Differences)
// gives each code's glyph: StandardEncoding and the built-in one through
// FreeType's Adobe charmaps of the font, WinAnsi and MacRoman through iconv
// (CP1252, MACINTOSH) to Unicode and the font's Unicode charmap, /Differences
// by glyph name. Courier is 600 wide everywhere and needs no font. A
// substitute that is not one of the metric-compatible families is not used
// (the font is then refused, as before).
#include "Redact.hh"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>
#include <iconv.h>

#include <array>
#include <mutex>

namespace pe {
namespace redaction {
namespace {

bool is_courier(std::string const &base)
{
    return base.find("Courier") != std::string::npos;
}

// The families whose advance widths equal the standard fonts' (the URW
// base-35 fonts under their current and older names).
bool metric_compatible(std::string const &family)
{
    static char const *const families[] = {
        "Nimbus Sans", "Nimbus Sans L", "Nimbus Roman", "Nimbus Roman No9 L", "Standard Symbols PS",
        "Standard Symbols L", "D050000L", "Dingbats"};
    for (char const *known : families) {
        if (family == known) {
            return true;
        }
    }
    return false;
}

// Which standard font `base` (a /BaseFont name without its slash) names, as
// fontconfig's pattern ("Helvetica:bold:italic"); "" when none. Only the
// standard 14 names and the Arial and Times New Roman names producers write
// for them count, exactly: a prefix would take Helvetica-Narrow or Arial Black,
// which are narrower or wider, for Helvetica, and the glyphs the interpreter
// removes would not be the ones drawn.
std::string standard_pattern(std::string base, bool &symbolic)
{
    if (base.size() > 7 && base[6] == '+') {
        base = base.substr(7); // a subset tag
    }
    struct Name {
        char const *name;
        char const *pattern;
    };
    static Name const names[] = {
        {"Helvetica", "Helvetica"},
        {"Helvetica-Bold", "Helvetica:bold"},
        {"Helvetica-Oblique", "Helvetica:italic"},
        {"Helvetica-BoldOblique", "Helvetica:bold:italic"},
        {"Arial", "Helvetica"},
        {"Arial,Bold", "Helvetica:bold"},
        {"Arial,Italic", "Helvetica:italic"},
        {"Arial,BoldItalic", "Helvetica:bold:italic"},
        {"ArialMT", "Helvetica"},
        {"Arial-BoldMT", "Helvetica:bold"},
        {"Arial-ItalicMT", "Helvetica:italic"},
        {"Arial-BoldItalicMT", "Helvetica:bold:italic"},
        {"Times-Roman", "Times"},
        {"Times-Bold", "Times:bold"},
        {"Times-Italic", "Times:italic"},
        {"Times-BoldItalic", "Times:bold:italic"},
        {"TimesNewRoman", "Times"},
        {"TimesNewRoman,Bold", "Times:bold"},
        {"TimesNewRoman,Italic", "Times:italic"},
        {"TimesNewRoman,BoldItalic", "Times:bold:italic"},
        {"TimesNewRomanPSMT", "Times"},
        {"TimesNewRomanPS-BoldMT", "Times:bold"},
        {"TimesNewRomanPS-ItalicMT", "Times:italic"},
        {"TimesNewRomanPS-BoldItalicMT", "Times:bold:italic"},
        {"Symbol", "Symbol"},
        {"ZapfDingbats", "ZapfDingbats"},
    };
    symbolic = base == "Symbol" || base == "ZapfDingbats";
    for (Name const &known : names) {
        if (base == known.name) {
            return known.pattern;
        }
    }
    return "";
}

// The font file (and face index) fontconfig matches for `pattern`, "" when
// it is not metric-compatible or not of `format` (when one is asked for).
std::pair<std::string, int> match_file(std::string const &pattern, char const *format)
{
    std::pair<std::string, int> result{"", 0};
    std::string asked = format == nullptr ? pattern : pattern + ":fontformat=" + format;
    FcPattern *wanted = FcNameParse(reinterpret_cast<FcChar8 const *>(asked.c_str()));
    if (wanted != nullptr) {
        FcConfigSubstitute(nullptr, wanted, FcMatchPattern);
        FcDefaultSubstitute(wanted);
        FcResult outcome = FcResultNoMatch;
        FcPattern *match = FcFontMatch(nullptr, wanted, &outcome);
        if (match != nullptr) {
            FcChar8 *file = nullptr;
            FcChar8 *family = nullptr;
            int index = 0;
            FcChar8 *kind = nullptr;
            bool right_kind = format == nullptr ||
                (FcPatternGetString(match, FC_FONTFORMAT, 0, &kind) == FcResultMatch &&
                 std::string(reinterpret_cast<char const *>(kind)) == format);
            if (right_kind && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
                FcPatternGetString(match, FC_FAMILY, 0, &family) == FcResultMatch &&
                metric_compatible(reinterpret_cast<char const *>(family))) {
                FcPatternGetInteger(match, FC_INDEX, 0, &index);
                result = {reinterpret_cast<char const *>(file), index};
            }
            FcPatternDestroy(match);
        }
        FcPatternDestroy(wanted);
    }
    return result;
}

// The font file (and face index) fontconfig substitutes for `pattern`, ""
// when none is metric-compatible: a Type 1 font first (FreeType reads the
// built-in encoding of Symbol and ZapfDingbats from it; an OpenType CFF
// font's own encoding it does not give), else any. Matched once per pattern
// for the process.
std::pair<std::string, int> substitute_file(std::string const &pattern)
{
    static std::mutex lock;
    static std::map<std::string, std::pair<std::string, int>> found;
    std::lock_guard<std::mutex> guard(lock);
    auto known = found.find(pattern);
    if (known != found.end()) {
        return known->second;
    }
    std::pair<std::string, int> result = match_file(pattern, "Type 1");
    if (result.first.empty()) {
        result = match_file(pattern, nullptr);
    }
    found[pattern] = result;
    return result;
}

// The Unicode scalar of one byte in iconv's `charset`, 0 when it has none.
unsigned int unicode_of(iconv_t converter, unsigned char code)
{
    char in[1] = {static_cast<char>(code)};
    char32_t out[2] = {0, 0};
    char *from = in;
    char *to = reinterpret_cast<char *>(out);
    size_t left = 1;
    size_t room = sizeof out;
    iconv(converter, nullptr, nullptr, nullptr, nullptr);
    if (iconv(converter, &from, &left, &to, &room) == static_cast<size_t>(-1) || room != sizeof out - 4) {
        return 0;
    }
    return static_cast<unsigned int>(out[0]);
}

// Each code's glyph in `face` under the simple font's encoding `encoding` (a
// name, a dictionary with /BaseEncoding and /Differences, or null). False
// with `why` when the encoding is one this cannot read.
bool glyphs_of(FT_Face face, QPDFObjectHandle encoding, bool symbolic, std::array<FT_UInt, 256> &glyphs, std::string &why)
{
    glyphs.fill(0);
    QPDFObjectHandle base = encoding.isDictionary() ? encoding.getKey("/BaseEncoding") : encoding;
    std::string name = base.isName() && !symbolic ? base.getName() : "";
    if (name == "/WinAnsiEncoding" || name == "/MacRomanEncoding") {
        bool windows = name == "/WinAnsiEncoding";
        iconv_t converter = iconv_open("UTF-32LE", windows ? "CP1252" : "MACINTOSH");
        if (converter == reinterpret_cast<iconv_t>(-1) || FT_Select_Charmap(face, FT_ENCODING_UNICODE) != 0) {
            if (converter != reinterpret_cast<iconv_t>(-1)) {
                iconv_close(converter);
            }
            why = "its encoding cannot be read (no " + name.substr(1) + " converter or Unicode glyphs)";
            return false;
        }
        for (int code = 32; code < 256; ++code) {
            unsigned int scalar = unicode_of(converter, static_cast<unsigned char>(code));
            // WinAnsiEncoding's unused codes above 126 show a bullet (PDF 32000 D.2).
            if (windows && (code == 0x7F || code == 0x81 || code == 0x8D || code == 0x8F || code == 0x90 || code == 0x9D)) {
                scalar = 0x2022;
            }
            glyphs[code] = scalar == 0 ? 0 : FT_Get_Char_Index(face, scalar);
        }
        iconv_close(converter);
    } else if (name.empty() || name == "/StandardEncoding") {
        // The font's own encoding: StandardEncoding for the text fonts, the
        // built-in one of Symbol and ZapfDingbats.
        FT_Encoding own = symbolic ? FT_ENCODING_ADOBE_CUSTOM : FT_ENCODING_ADOBE_STANDARD;
        if (FT_Select_Charmap(face, own) != 0) {
            why = "its substitute font has no " + std::string(symbolic ? "built-in" : "standard") + " encoding";
            return false;
        }
        bool any = false;
        for (int code = 0; code < 256; ++code) {
            glyphs[code] = FT_Get_Char_Index(face, static_cast<FT_ULong>(code));
            any = any || glyphs[code] != 0;
        }
        if (!any) {
            why = "its substitute font does not give its " + std::string(symbolic ? "built-in" : "standard") + " encoding";
            return false;
        }
    } else {
        why = "its encoding " + name.substr(1) + " is not read";
        return false;
    }
    QPDFObjectHandle differences = encoding.isDictionary() ? encoding.getKey("/Differences") : QPDFObjectHandle::newNull();
    if (differences.isArray()) {
        int code = 0;
        for (QPDFObjectHandle item : differences.getArrayAsVector()) {
            if (item.isInteger()) {
                code = static_cast<int>(item.getIntValue());
            } else if (item.isName()) {
                if (code >= 0 && code < 256) {
                    std::string glyph = item.getName().substr(1);
                    glyphs[code] = FT_Get_Name_Index(face, glyph.c_str());
                }
                ++code;
            }
        }
    }
    return true;
}

// Fills `font`'s widths for the standard font `base` without /Widths from its
// substitute; false with `font.why` when it cannot.
bool read_standard_widths(Font &font, std::string const &base, QPDFObjectHandle encoding)
{
    bool symbolic = false;
    std::string pattern = standard_pattern(base, symbolic);
    if (pattern.empty()) {
        font.why = "its widths are not in the file (" + base + " without /Widths is not a standard font)";
        return false;
    }
    auto [file, index] = substitute_file(pattern);
    if (file.empty()) {
        font.why = "its widths are not in the file and no font metric-compatible with " + base +
            " is installed (fonts-urw-base35)";
        return false;
    }
    FT_Library library = nullptr;
    if (FT_Init_FreeType(&library) != 0) {
        font.why = "FreeType cannot start";
        return false;
    }
    FT_Face face = nullptr;
    bool done = false;
    if (FT_New_Face(library, file.c_str(), index, &face) != 0 || face->units_per_EM == 0) {
        font.why = "its substitute font " + file + " cannot be read";
    } else {
        std::array<FT_UInt, 256> glyphs{};
        if (glyphs_of(face, encoding, symbolic, glyphs, font.why)) {
            double unit = 1000.0 / face->units_per_EM;
            for (int code = 0; code < 256; ++code) {
                if (glyphs[code] != 0 && FT_Load_Glyph(face, glyphs[code], FT_LOAD_NO_SCALE) == 0) {
                    font.widths[code] = static_cast<double>(face->glyph->advance.x) * unit;
                }
            }
            done = true;
        }
    }
    if (face != nullptr) {
        FT_Done_Face(face);
    }
    FT_Done_FreeType(library);
    return done;
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
    // A font that embeds its program is drawn with that program's advances,
    // which the standard metrics need not match: refused, not guessed.
    QPDFObjectHandle program = dict.getKey("/FontDescriptor");
    bool embedded = program.isDictionary() &&
        (program.hasKey("/FontFile") || program.hasKey("/FontFile2") || program.hasKey("/FontFile3"));
    if (embedded && !type3 && base.isName()) {
        font.why = "its widths are not in the file and " + base.getName().substr(1) +
            " embeds its own font program, whose advances the standard metrics need not match";
    } else if (!type3 && base.isName() &&
               read_standard_widths(font, base.getName().substr(1), dict.getKey("/Encoding"))) {
        return font;
    }
    font.known = false;
    if (font.why.empty()) {
        font.why = "its widths are not in the file (a Type3 font without /Widths)";
    }
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
