/* libqpdf, found through pkg-config (libqpdf.pc): QPDFCore depends on this
 * module for qpdf's include folder and for linking libqpdf; QPDFCore's C++
 * includes qpdf's C++ headers itself. Only DLL.h (QPDF_VERSION, plain C) is
 * named here, so that the module can be read by C and Swift too. */
#include <qpdf/DLL.h>
