// Internal to QPDFBridge: what the redaction's files share (Redact.cpp: the
// content interpreter; RedactFonts.cpp: glyph widths; RedactImages.cpp: image
// samples). Geometry in PDF's conventions: [a b c d e f] matrices, boxes in
// user space.
#ifndef PDFEDIT_QPDF_BRIDGE_REDACT_HH
#define PDFEDIT_QPDF_BRIDGE_REDACT_HH

#include "QPDFBridge.h"

#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif

#include <qpdf/QPDFObjectHandle.hh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace pe {
namespace redaction {

// Overlap below this many points is touching, not meeting.
inline constexpr double kTouch = 0.01;

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
inline Box transformed(Matrix const &m, double x0, double y0, double x1, double y1)
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

inline bool meets(Box const &a, pe_redact_region const &r)
{
    return std::min(a.x1, r.x1) - std::max(a.x0, r.x0) > kTouch && std::min(a.y1, r.y1) - std::max(a.y0, r.y0) > kTouch;
}

inline bool inside(Box const &a, pe_redact_region const &r)
{
    return a.x0 >= r.x0 - kTouch && a.x1 <= r.x1 + kTouch && a.y0 >= r.y0 - kTouch && a.y1 <= r.y1 + kTouch;
}

inline std::string number_text(double value)
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

inline double number_of(QPDFObjectHandle value, double fallback)
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


// What the interpreter knows of font dictionary `dict` (RedactFonts.cpp).
Font read_font(QPDFObjectHandle dict);

// Replaces the samples of `image` (a stream the page owns) that lie inside
// `regions` when drawn at `ctm` by the regions' fill (its soft mask's by
// opaque, an image mask's by unpainted), written back Flate-encoded
// (RedactImages.cpp). `soft_mask`: `image` is a soft mask. RedactRefused when
// its samples cannot be read.
void redact_image(
    QPDFObjectHandle image, Matrix const &ctm, std::vector<pe_redact_region> const &regions, long long stream_limit,
    std::string const &what, bool soft_mask);

} // namespace redaction
} // namespace pe

#endif
