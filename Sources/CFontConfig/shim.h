/* fontconfig and FreeType, found through pkg-config (fontconfig.pc brings
 * freetype2's include folder): QPDFCore depends on this module for their
 * include folders and for linking them; its C++ includes the headers itself.
 * Redaction measures the standard fonts a file names without /Widths on the
 * metric-compatible fonts fontconfig substitutes for them, as poppler draws
 * them (QPDFCore/RedactFonts.cpp). */
#include <fontconfig/fontconfig.h>
