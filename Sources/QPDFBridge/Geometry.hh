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

#endif
