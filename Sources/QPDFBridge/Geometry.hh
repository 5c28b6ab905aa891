// Internal to QPDFBridge: the one rule for reading a page's /Rotate (see
// pe_displayed_rotation in QPDFBridge.h), shared by exports, stamps and, through
// the C entry, the Swift side.
#ifndef PDFEDIT_QPDF_BRIDGE_GEOMETRY_HH
#define PDFEDIT_QPDF_BRIDGE_GEOMETRY_HH

#include <qpdf/QPDFObjectHandle.hh>

namespace pe {

// The clockwise turn a viewer gives a page whose /Rotate is `rotate` (may be
// uninitialised or null): 0, 90, 180 or 270.
int displayed_rotation(QPDFObjectHandle rotate);

// `degrees` (a displayed rotation) plus `quarter_turns` clockwise quarter turns,
// as 0, 90, 180 or 270.
int turned_rotation(int degrees, int quarter_turns);

} // namespace pe

// Inherited attributes and rotation of copied pages (export)

#include <qpdf/QPDFObjGen.hh>

#include <map>
#include <utility>
#include <vector>

namespace pe {

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

// Gives a new blank `page` the /MediaBox of `width` x `height` points: a side
// over the readers' limit is written with a /UserUnit, in units
// (pe_user_unit_for). True when a /UserUnit was set (PDF 1.6).
bool set_blank_page_box(QPDFObjectHandle page, double width, double height);

} // namespace pe

#endif
