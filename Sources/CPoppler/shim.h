/* poppler-glib, cairo and GLib as their own headers declare them (the include
 * folders come from pkg-config's poppler-glib, which requires cairo and GLib):
 * PDFEngine's rendering, text and hashing (GChecksum) use them. */
#include <poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <glib.h>
