// Internal to QPDFBridge: the one home of page geometry — the rule for reading a
// page's /Rotate (see pe_displayed_rotation in QPDFBridge.h), the boxes a reader
// shows, /UserUnit, and the inherited-attribute lookup of a page — shared by
// exports, stamps and the reader entry points (QPDFBridgeReader.h) that info,
// list and the kit use for sizes.
#ifndef PDFEDIT_QPDF_BRIDGE_GEOMETRY_HH
#define PDFEDIT_QPDF_BRIDGE_GEOMETRY_HH

#include "QPDFBridge.h"

#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <array>
#include <map>
#include <utility>
#include <vector>

namespace pe {

// The clockwise turn a viewer gives a page whose /Rotate is `rotate` (may be
// uninitialised or null): 0, 90, 180 or 270.
int displayed_rotation(QPDFObjectHandle rotate);

// `degrees` (a displayed rotation) plus `quarter_turns` clockwise quarter turns,
// as 0, 90, 180 or 270.
int turned_rotation(int degrees, int quarter_turns);

// ---- Boxes, /UserUnit and inherited attributes -------------------------------

// A rectangle in user space, normalised so that llx <= urx and lly <= ury. The
// default is US Letter, what readers use for a page without a usable MediaBox.
struct Rect {
    double llx = 0;
    double lly = 0;
    double urx = 612;
    double ury = 792;

    double width() const { return urx - llx; }
    double height() const { return ury - lly; }
};

// ---- Numbers read from a file -----------------------------------------------

// The largest magnitude a coordinate read from a file may have: PDF's integer
// limit (ISO 32000-2 Annex C, ±2^31). A box beyond it is not a box a reader can
// show; larger values (1e20, -2^63, 2^128) are damage, and converting them to
// sizes or pixels overflowed (SIGILL in info, list and remove empty).
constexpr double kMaxCoordinate = 2147483648.0;

// The largest /UserUnit read from a file: Acrobat's limit (75,000 points per
// unit). A larger one is treated as absent (1).
constexpr double kMaxUserUnit = 75000.0;

// The one conversion of a number read from a file: true, with the value in
// `out`, when `value` is a number (integer or real) that is finite and within
// [lowest, highest]; false, leaving `out` alone, for anything else.
bool read_number(QPDFObjectHandle value, double lowest, double highest, double &out);

// The same for an integer: true when `value` is an integer within [lowest,
// highest] (a real is not an integer).
bool read_integer(QPDFObjectHandle value, long long lowest, long long highest, long long &out);

// `value` as a rectangle: an array of exactly four numbers within
// ±kMaxCoordinate, normalised (any area, even none). False, leaving `rect` alone, for anything else.
bool read_rectangle(QPDFObjectHandle value, Rect &rect);

// The MediaBox a reader uses for `media` (may be uninitialised or null): the
// rectangle, or US Letter when it is not one or has no area.
Rect media_box(QPDFObjectHandle media);

// What a reader shows: the CropBox `crop` (may be uninitialised or null) clipped
// to `media`; `media` when there is no usable CropBox or they do not overlap.
Rect visible_box(Rect const &media, QPDFObjectHandle crop);

// The value of `key` in `object` when it is a dictionary holding a non-null
// one, else a null handle (never a type warning for a non-dictionary).
QPDFObjectHandle present_value(QPDFObjectHandle object, char const *key);

// Points per user space unit for a page's /UserUnit `unit` (may be uninitialised
// or null): the number when it is positive and at most kMaxUserUnit, else 1.
double user_unit(QPDFObjectHandle unit);

// The value of `key` (e.g. "/MediaBox") that `page` has or inherits from the
// /Pages nodes above it (PDF 32000-1 §7.7.3.4), following /Parent at most 64
// nodes up (a /Parent loop cannot hang it); a null handle when none has a
// non-null value.
QPDFObjectHandle inherited_value(QPDFObjectHandle page, char const *key);

// What decides how a page looks.
struct PageGeometry {
    Rect media;        // media_box
    Rect visible;      // visible_box: the crop box clipped to the media box
    int rotation = 0;  // displayed_rotation of /Rotate
    double unit = 1;   // user_unit of /UserUnit (never inherited)
};

// The geometry of `page` in its file: /MediaBox, /CropBox and /Rotate with the
// inherited values resolved by inherited_value.
PageGeometry page_geometry(QPDFObjectHandle page);

// The geometry from `page`'s own keys alone, for a page whose inherited values
// were already pushed onto it (stamps) or that has none (a page being built).
PageGeometry own_page_geometry(QPDFObjectHandle page);

// ---- Boxes an item sets (`crop`) ---------------------------------------------

// A page's own /MediaBox, /CropBox, /TrimBox, /BleedBox and /ArtBox (null
// handles where absent), as they were before an item changed them.
using BoxKeys = std::array<QPDFObjectHandle, 5>;
BoxKeys own_box_keys(QPDFObjectHandle page);

// Puts `keys` back on `page` (a copy sharing another copy's changed keys).
void restore_box_keys(QPDFObjectHandle page, BoxKeys keys);

// Writes `boxes` (an item's pe_item.boxes: NULL or four, PE_BOX_* order) on
// `page` (their coordinates divided by `unit`, the page's /UserUnit for a blank
// page of points), growing its own /MediaBox to hold them. Nothing when none is
// set.
void set_item_boxes(QPDFObjectHandle page, pe_box const *boxes, double unit);

// The item's resize (pe_item.resize) when it has one with a size, else nullptr.
pe_resize const *resize_of(pe_item const &item);

// ---- Inherited attributes and rotation of copied pages (export) --------------

// The inheritable page attributes a page gets from its /Pages ancestors: for each
// of inheritable_keys, the nearest ancestor's value (uninitialised when none) and
// the node that holds it.
constexpr int inheritable_count = 4;
extern char const *const inheritable_keys[inheritable_count]; // /MediaBox /CropBox /Resources /Rotate
constexpr int inherited_rotate = 3;
struct InheritedFrame {
    QPDFObjectHandle values[inheritable_count];
    QPDFObjGen holders[inheritable_count];
};

// The frame of /Pages node `node` whose parent's is `parent_frame`: that one,
// or when the node holds an inheritable attribute, a new one in `frames` (the
// parent's values, the node's over them), whose index is returned.
int node_frame(QPDFObjectHandle node, int parent_frame, std::vector<InheritedFrame> &frames);

// What each of `pages` (the page list getAllPages gave) inherits, found by one
// walk of the page tree below `root` (the catalog's /Pages) in qpdf's page order,
// without changing anything: `frames` holds the distinct sets of inherited values
// (frames[0] none), `page_frame[i]` the frame of pages[i]. False when the tree is
// not as getAllPages left it (then frames and page_frame mean nothing).
bool find_inherited_frames(
    QPDFObjectHandle root,
    std::vector<QPDFObjectHandle> const &pages,
    std::vector<InheritedFrame> &frames,
    std::vector<int> &page_frame);

// Gives `page` the attributes of `frame` it lacks, as qpdf's
// pushInheritedAttributesToPage would (a direct array or dictionary as a copy).
void push_inherited_attributes(QPDFObjectHandle page, InheritedFrame const &frame);

// The object made for each inherited value (by the /Pages node that holds it and
// which attribute it is), so that the pages inheriting it share one.
using SharedInherited = std::map<std::pair<QPDFObjGen, int>, QPDFObjectHandle>;

// Sets on `page` the inherited /MediaBox, /CropBox and /Resources that `own` (the
// page as its source has it) does not override; /Rotate is set by set_rotation.
// Like qpdf's pushInheritedAttributesToPage, but a value is made by `make(value)`
// once, the first time a page needs it, and then shared through `shared`.
template <typename Make>
void inherit_attributes(
    QPDFObjectHandle page, QPDFObjectHandle own, InheritedFrame const *inherited, SharedInherited &shared, Make make)
{
    if (inherited == nullptr) {
        return;
    }
    for (int k = 0; k < inheritable_count; ++k) {
        QPDFObjectHandle value = inherited->values[k];
        if (k == inherited_rotate || !value.isInitialized() || own.hasKey(inheritable_keys[k])) {
            continue;
        }
        auto key = std::make_pair(inherited->holders[k], k);
        auto known = shared.find(key);
        if (known == shared.end()) {
            known = shared.emplace(key, make(value)).first;
        }
        page.replaceKey(inheritable_keys[k], known->second);
    }
}

// The page's displayed rotation: from its own /Rotate, else the one it inherits
// (`inherited`, may be nullptr).
int page_rotation(QPDFObjectHandle page, InheritedFrame const *inherited);

// Gives `page` the /Rotate of `base` (a displayed rotation) turned by
// `quarter_turns` clockwise quarter turns; none when that is 0.
void set_rotation(QPDFObjectHandle page, int base, int quarter_turns);

// Gives a new `page` the /MediaBox [0 0 width height] (its own units) and,
// when `unit` is not 1, that /UserUnit. True when a /UserUnit was set.
bool set_page_box(QPDFObjectHandle page, double width, double height, double unit);

} // namespace pe

#endif
