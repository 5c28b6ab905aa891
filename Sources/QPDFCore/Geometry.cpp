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
#include <set>

extern "C" int pe_displayed_rotation(int is_integer, long long value)
{
    if (is_integer == 0 || value % 90 != 0) {
        return 0;
    }
    long long degrees = value % 360;
    return static_cast<int>(degrees < 0 ? degrees + 360 : degrees);
}

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

bool read_number(QPDFObjectHandle value, double lowest, double highest, double &out)
{
    if (!value.isInitialized() || !value.isNumber()) {
        return false;
    }
    double number = value.getNumericValue();
    if (!std::isfinite(number) || number < lowest || number > highest) {
        return false;
    }
    out = number;
    return true;
}

bool read_integer(QPDFObjectHandle value, long long lowest, long long highest, long long &out)
{
    if (!value.isInitialized() || !value.isInteger()) {
        return false;
    }
    long long number = value.getIntValue();
    if (number < lowest || number > highest) {
        return false;
    }
    out = number;
    return true;
}

bool read_rectangle(QPDFObjectHandle value, Rect &rect)
{
    if (!value.isInitialized() || !value.isArray() || value.getArrayNItems() != 4) {
        return false;
    }
    double numbers[4];
    for (int i = 0; i < 4; ++i) {
        if (!read_number(value.getArrayItem(i), -kMaxCoordinate, kMaxCoordinate, numbers[i])) {
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
    // US Letter unless the MediaBox is a rectangle with an area: a box of no
    // width ([0 0 -0.0 792]) cannot be shown, nor be the size of a new page
    // (`blank --size like:P` failed with exit 1 on one).
    Rect box;
    if (read_rectangle(media, box) && box.width() > 0 && box.height() > 0) {
        return box;
    }
    return Rect{};
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
    double value = 1;
    if (read_number(unit, 0, kMaxUserUnit, value) && value > 0) {
        return value;
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

namespace {

// The geometry of `page` with its /MediaBox, /CropBox and /Rotate as `value`
// finds them (/UserUnit is never inherited).
PageGeometry geometry_by(QPDFObjectHandle page, QPDFObjectHandle (*value)(QPDFObjectHandle, char const *))
{
    PageGeometry geometry;
    geometry.media = media_box(value(page, "/MediaBox"));
    geometry.visible = visible_box(geometry.media, value(page, "/CropBox"));
    geometry.rotation = displayed_rotation(value(page, "/Rotate"));
    geometry.unit = user_unit(present_value(page, "/UserUnit"));
    return geometry;
}

} // namespace

PageGeometry page_geometry(QPDFObjectHandle page)
{
    return geometry_by(page, inherited_value);
}

PageGeometry own_page_geometry(QPDFObjectHandle page)
{
    return geometry_by(page, present_value);
}

// ---- Inherited attributes and rotation of copied pages (export) --------------

char const *const inheritable_keys[inheritable_count] = {"/MediaBox", "/CropBox", "/Resources", "/Rotate"};

int node_frame(QPDFObjectHandle node, int parent_frame, std::vector<InheritedFrame> &frames)
{
    int mine = parent_frame;
    for (int k = 0; k < inheritable_count; ++k) {
        if (!node.hasKey(inheritable_keys[k])) {
            continue;
        }
        if (mine == parent_frame) {
            InheritedFrame copy = frames[static_cast<size_t>(parent_frame)];
            frames.push_back(copy);
            mine = static_cast<int>(frames.size()) - 1;
        }
        InheritedFrame &own = frames[static_cast<size_t>(mine)];
        own.values[k] = node.getKey(inheritable_keys[k]);
        own.holders[k] = node.getObjGen();
    }
    return mine;
}

namespace {

// One node of the page tree and what is below it, in the order of
// QPDF::getAllPagesInternal (a kid with /Kids is a node, any other a page). False
// when the tree is not as getAllPages left it.
bool walk_inherited(
    std::vector<QPDFObjectHandle> const &pages,
    std::vector<InheritedFrame> &frames,
    QPDFObjectHandle node,
    int frame,
    int depth,
    std::set<QPDFObjGen> &visited,
    std::vector<int> &leaves)
{
    if (!node.isDictionary() || depth > 1000 ||
        (node.isIndirect() && !visited.insert(node.getObjGen()).second)) {
        return false;
    }
    int mine = node_frame(node, frame, frames);
    QPDFObjectHandle kids = node.getKey("/Kids");
    if (!kids.isArray()) {
        return false;
    }
    int count = kids.getArrayNItems();
    for (int i = 0; i < count; ++i) {
        QPDFObjectHandle kid = kids.getArrayItem(i);
        if (kid.hasKey("/Kids")) {
            if (!walk_inherited(pages, frames, kid, mine, depth + 1, visited, leaves)) {
                return false;
            }
            continue;
        }
        size_t at = leaves.size();
        if (at >= pages.size() || !kid.isIndirect() || pages[at].getObjGen() != kid.getObjGen()) {
            return false;
        }
        leaves.push_back(mine);
    }
    return true;
}

QPDFObjectHandle number(double value)
{
    double whole;
    if (std::modf(value, &whole) == 0.0 && std::fabs(whole) < 1e9) {
        return QPDFObjectHandle::newInteger(static_cast<long long>(whole));
    }
    return QPDFObjectHandle::newReal(value, 4, true);
}

QPDFObjectHandle box_array(Rect const &box)
{
    return QPDFObjectHandle::newArray(
        std::vector<QPDFObjectHandle>{number(box.llx), number(box.lly), number(box.urx), number(box.ury)});
}

} // namespace

bool find_inherited_frames(
    QPDFObjectHandle root,
    std::vector<QPDFObjectHandle> const &pages,
    std::vector<InheritedFrame> &frames,
    std::vector<int> &page_frame)
{
    frames.assign(1, InheritedFrame{});
    page_frame.clear();
    std::set<QPDFObjGen> visited;
    page_frame.reserve(pages.size());
    return !pages.empty() && walk_inherited(pages, frames, root, 0, 0, visited, page_frame) &&
        page_frame.size() == pages.size();
}

void push_inherited_attributes(QPDFObjectHandle page, InheritedFrame const &frame)
{
    for (int k = 0; k < inheritable_count; ++k) {
        QPDFObjectHandle value = frame.values[k];
        if (!value.isInitialized() || page.hasKey(inheritable_keys[k])) {
            continue;
        }
        // A direct array or dictionary is not put into a second dictionary as is.
        page.replaceKey(
            inheritable_keys[k],
            value.isIndirect() || !(value.isArray() || value.isDictionary()) ? value : value.shallowCopy());
    }
}

int page_rotation(QPDFObjectHandle page, InheritedFrame const *inherited)
{
    // hasKey first: qpdf's getKey makes a new null object for a missing key.
    if (page.hasKey("/Rotate")) {
        return displayed_rotation(page.getKey("/Rotate"));
    }
    if (inherited != nullptr) {
        return displayed_rotation(inherited->values[inherited_rotate]);
    }
    return 0;
}

void set_rotation(QPDFObjectHandle page, int base, int quarter_turns)
{
    int degrees = turned_rotation(base, quarter_turns);
    if (degrees == 0) {
        page.removeKey("/Rotate");
    } else {
        page.replaceKey("/Rotate", QPDFObjectHandle::newInteger(degrees));
    }
}

bool set_page_box(QPDFObjectHandle page, double width, double height, double unit)
{
    page.replaceKey("/MediaBox", box_array(Rect{0, 0, width, height}));
    if (unit == 1) {
        return false;
    }
    page.replaceKey("/UserUnit", number(unit));
    return true;
}

namespace {
char const *const box_key_names[5] = {"/MediaBox", "/CropBox", "/TrimBox", "/BleedBox", "/ArtBox"};
}

BoxKeys own_box_keys(QPDFObjectHandle page)
{
    BoxKeys keys;
    for (size_t k = 0; k < keys.size(); ++k) {
        keys[k] = page.hasKey(box_key_names[k]) ? page.getKey(box_key_names[k]) : QPDFObjectHandle::newNull();
    }
    return keys;
}

void restore_box_keys(QPDFObjectHandle page, BoxKeys keys)
{
    for (size_t k = 0; k < keys.size(); ++k) {
        if (keys[k].isNull()) {
            page.removeKey(box_key_names[k]);
        } else {
            page.replaceKey(box_key_names[k], keys[k]);
        }
    }
}

pe_resize const *resize_of(pe_item const &item)
{
    return item.resize != nullptr && item.resize->width > 0 && item.resize->height > 0 ? item.resize : nullptr;
}

void set_item_boxes(QPDFObjectHandle page, pe_box const *boxes, double unit)
{
    if (boxes == nullptr) {
        return;
    }
    bool any = false;
    Rect media = media_box(page.getKey("/MediaBox"));
    Rect grown = media;
    for (size_t k = 0; k < 4; ++k) {
        pe_box const &box = boxes[k];
        if (box.set == 0) {
            continue;
        }
        any = true;
        Rect rect{box.x0 / unit, box.y0 / unit, box.x1 / unit, box.y1 / unit};
        page.replaceKey(box_key_names[k + 1], box_array(rect));
        grown = Rect{std::min(grown.llx, rect.llx), std::min(grown.lly, rect.lly), std::max(grown.urx, rect.urx),
                     std::max(grown.ury, rect.ury)};
    }
    if (any && (grown.llx < media.llx || grown.lly < media.lly || grown.urx > media.urx || grown.ury > media.ury)) {
        // A trim, bleed or art box outside the MediaBox (negative margins) grows
        // it; the visible page must not grow with it: unless the item sets its
        // own crop, the CropBox is pinned to what was shown before (a missing
        // CropBox is the MediaBox, and a CropBox reaching past the old MediaBox
        // was clipped to it).
        if (boxes[0].set == 0) {
            page.replaceKey("/CropBox", box_array(visible_box(media, page.getKey("/CropBox"))));
        }
        page.replaceKey("/MediaBox", box_array(grown));
    }
}

} // namespace pe
