// Page geometry rules shared by the bridge and (through QPDFBridge.h) the Swift
// side, so that the two cannot disagree.
//
// The /Rotate rule of the viewers: an integer multiple of 90, normalised into
// 0/90/180/270; anything else (45, 135, a non-number) counts as 0, as poppler
// (which renders and measures our pages) and pdf.js show it. A real number, even
// 90.0, counts as 0 too, as poppler reads only integers.
#include "Geometry.hh"

#include "QPDFBridge.h"

#include <algorithm>
#include <cmath>

namespace pe {

int displayed_rotation(QPDFObjectHandle rotate)
{
    if (!rotate.isInitialized() || !rotate.isInteger()) {
        return 0;
    }
    return pe_displayed_rotation(1, rotate.getIntValue());
}

int turned_rotation(int degrees, int quarter_turns)
{
    int turns = (degrees / 90 + quarter_turns % 4 + 4) % 4;
    return turns * 90;
}

} // namespace pe

extern "C" int pe_displayed_rotation(int is_integer, long long value)
{
    if (is_integer == 0 || value % 90 != 0) {
        return 0;
    }
    long long degrees = value % 360;
    return static_cast<int>(degrees < 0 ? degrees + 360 : degrees);
}

extern "C" double pe_user_unit_for(double width, double height)
{
    double largest = std::max(width, height);
    if (!std::isfinite(largest) || largest <= PE_MAX_PAGE_UNITS) {
        return 1;
    }
    return std::ceil(largest / PE_MAX_PAGE_UNITS);
}

namespace pe {

bool read_rectangle(QPDFObjectHandle value, Rect &rect)
{
    if (!value.isInitialized() || !value.isArray() || value.getArrayNItems() != 4) {
        return false;
    }
    double numbers[4];
    for (int i = 0; i < 4; ++i) {
        QPDFObjectHandle item = value.getArrayItem(i);
        if (!item.isNumber()) {
            return false;
        }
        numbers[i] = item.getNumericValue();
        if (!std::isfinite(numbers[i])) {
            return false;
        }
    }
    rect = Rect{
        std::min(numbers[0], numbers[2]), std::min(numbers[1], numbers[3]), std::max(numbers[0], numbers[2]),
        std::max(numbers[1], numbers[3])};
    return true;
}

Rect media_box(QPDFObjectHandle media)
{
    Rect box; // US Letter
    read_rectangle(media, box);
    return box;
}

Rect visible_box(Rect const &media, QPDFObjectHandle crop)
{
    Rect box;
    if (!read_rectangle(crop, box)) {
        return media;
    }
    Rect clipped{
        std::max(box.llx, media.llx), std::max(box.lly, media.lly), std::min(box.urx, media.urx),
        std::min(box.ury, media.ury)};
    return clipped.width() > 0 && clipped.height() > 0 ? clipped : media;
}

double user_unit(QPDFObjectHandle unit)
{
    if (unit.isInitialized() && unit.isNumber()) {
        double value = unit.getNumericValue();
        if (std::isfinite(value) && value > 0) {
            return value;
        }
    }
    return 1;
}

QPDFObjectHandle present_value(QPDFObjectHandle object, char const *key)
{
    if (object.isInitialized() && object.isDictionary()) {
        QPDFObjectHandle value = object.getKey(key);
        if (!value.isNull()) {
            return value;
        }
    }
    return QPDFObjectHandle::newNull();
}

QPDFObjectHandle inherited_value(QPDFObjectHandle page, char const *key)
{
    QPDFObjectHandle node = page;
    for (int level = 0; level < 64; ++level) {
        QPDFObjectHandle value = present_value(node, key);
        if (!value.isNull()) {
            return value;
        }
        QPDFObjectHandle parent = present_value(node, "/Parent");
        if (!parent.isDictionary()) {
            break;
        }
        node = parent;
    }
    return QPDFObjectHandle::newNull();
}

PageGeometry page_geometry(QPDFObjectHandle page)
{
    PageGeometry geometry;
    geometry.media = media_box(inherited_value(page, "/MediaBox"));
    geometry.visible = visible_box(geometry.media, inherited_value(page, "/CropBox"));
    geometry.rotation = displayed_rotation(inherited_value(page, "/Rotate"));
    geometry.unit = user_unit(present_value(page, "/UserUnit"));
    return geometry;
}

PageGeometry own_page_geometry(QPDFObjectHandle page)
{
    PageGeometry geometry;
    geometry.media = media_box(present_value(page, "/MediaBox"));
    geometry.visible = visible_box(geometry.media, present_value(page, "/CropBox"));
    geometry.rotation = displayed_rotation(present_value(page, "/Rotate"));
    geometry.unit = user_unit(present_value(page, "/UserUnit"));
    return geometry;
}

} // namespace pe
