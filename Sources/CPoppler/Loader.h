/* Loading poppler-glib, cairo and GLib on first use (see Loader.c). */
#ifndef PDFEDIT_CPOPPLER_LOADER_H
#define PDFEDIT_CPOPPLER_LOADER_H

/* The address of `name` in library `library` (0 poppler-glib, 1 cairo, 2
 * gobject, 3 glib), loading the library on first use. A library or function
 * that cannot be found ends the process with exit 69 and one line naming it:
 * the caller has no way on without it. */
void *pe_render_symbol(int library, const char *name);

#endif
