// Where a stamp goes: the one home, for export, of the rule that puts a stamp's
// box (a page's visible box or a text's box), turned upright for the reader and
// by its angle, at one of nine anchors of the page as displayed. PageModel's
// StampPlacement.frame states the same rule for `show`; a property test holds
// the two together through pe_stamp_matrix.
#include "Stamps.hh"

#include <algorithm>
#include <cmath>

namespace pe {

namespace {

// sin and cos of `degrees`, exact at multiples of 90.
void sine_cosine(double degrees, double &sine, double &cosine)
{
    double turned = std::fmod(degrees, 360.0);
    if (turned < 0) {
        turned += 360;
    }
    if (turned == 0 || turned == 90 || turned == 180 || turned == 270) {
        int quarter = static_cast<int>(turned) / 90;
        static double const sines[] = {0, 1, 0, -1};
        static double const cosines[] = {1, 0, -1, 0};
        sine = sines[quarter];
        cosine = cosines[quarter];
        return;
    }
    double radians = degrees * M_PI / 180;
    sine = std::sin(radians);
    cosine = std::cos(radians);
}

} // namespace

StampMatrix placement_matrix(
    Rect const &page, int page_rotation, double page_unit, StampShape const &stamp, bool fit, pe_stamp_place place)
{
    int turns = ((page_rotation / 90) % 4 + 4) % 4;
    // Everything below is in the page's user space units.
    double width = turns % 2 != 0 ? page.height() : page.width();
    double height = turns % 2 != 0 ? page.width() : page.height();
    bool stamp_turned = ((stamp.rotation / 90) % 2) != 0;
    double stamp_width = stamp_turned ? stamp.box.height() : stamp.box.width();
    double stamp_height = stamp_turned ? stamp.box.width() : stamp.box.height();
    double sine = 0;
    double cosine = 1;
    sine_cosine(stamp.angle, sine, cosine);
    double bound_width = std::fabs(stamp_width * cosine) + std::fabs(stamp_height * sine);
    double bound_height = std::fabs(stamp_width * sine) + std::fabs(stamp_height * cosine);

    double margin = place.margin / page_unit;
    double inset = margin > 0 && width > 2 * margin && height > 2 * margin ? margin : 0;
    double scale = stamp.unit / page_unit;
    if (bound_width > 0 && bound_height > 0) {
        double fitting = std::min((width - 2 * inset) / bound_width, (height - 2 * inset) / bound_height);
        scale = fit ? fitting : std::min(scale, fitting);
    }
    // The stamp's centre on the page as displayed, from its bottom-left corner.
    double x = place.horizontal < 0 ? inset + bound_width * scale / 2
        : place.horizontal > 0      ? width - inset - bound_width * scale / 2
                                    : width / 2;
    double y = place.vertical < 0 ? inset + bound_height * scale / 2
        : place.vertical > 0      ? height - inset - bound_height * scale / 2
                                  : height / 2;
    x += place.offset_x / page_unit;
    y += place.offset_y / page_unit;
    // The same point in default user space: a reader turns the page clockwise by
    // its /Rotate, so the displayed bottom-left corner is the box's bottom-left
    // (0), bottom-right (90), top-right (180) or top-left (270).
    double u = 0;
    double v = 0;
    switch (turns) {
    case 1:
        u = page.urx - y;
        v = page.lly + x;
        break;
    case 2:
        u = page.urx - x;
        v = page.ury - y;
        break;
    case 3:
        u = page.llx + y;
        v = page.ury - x;
        break;
    default:
        u = page.llx + x;
        v = page.lly + y;
        break;
    }
    // p -> scale * R(p - stamp centre) + (u, v), R turning counter-clockwise by the
    // page's /Rotate (which the reader's clockwise turn undoes), less the stamp
    // page's own (which its reader would apply), plus the stamp's angle.
    sine_cosine(turns * 90 - stamp.rotation + stamp.angle, sine, cosine);
    StampMatrix m;
    m.a = scale * cosine;
    m.b = scale * sine;
    m.c = -scale * sine;
    m.d = scale * cosine;
    double cx = stamp.box.centre_x();
    double cy = stamp.box.centre_y();
    m.e = u - (m.a * cx + m.c * cy);
    m.f = v - (m.b * cx + m.d * cy);
    return m;
}

} // namespace pe

extern "C" void pe_stamp_matrix(pe_stamp_geometry const *geometry, double matrix[6])
{
    pe::Rect page{geometry->page_box[0], geometry->page_box[1], geometry->page_box[2], geometry->page_box[3]};
    pe::StampShape stamp{
        pe::Rect{geometry->stamp_box[0], geometry->stamp_box[1], geometry->stamp_box[2], geometry->stamp_box[3]},
        geometry->stamp_rotation, geometry->stamp_unit, geometry->angle};
    pe::StampMatrix m = pe::placement_matrix(
        page, geometry->page_rotation, geometry->page_unit, stamp, geometry->fit != 0, geometry->place);
    matrix[0] = m.a;
    matrix[1] = m.b;
    matrix[2] = m.c;
    matrix[3] = m.d;
    matrix[4] = m.e;
    matrix[5] = m.f;
}
