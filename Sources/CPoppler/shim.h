#ifndef PDFEDIT_CPOPPLER_SHIM_H
#define PDFEDIT_CPOPPLER_SHIM_H
#include <poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <glib.h>
#include <glib-object.h>

/* GLib's function-like macros do not import into Swift; small inline helpers do. */
static inline void pdfedit_g_object_unref(void *object) { g_object_unref(object); }
#endif
