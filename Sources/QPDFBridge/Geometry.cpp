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
