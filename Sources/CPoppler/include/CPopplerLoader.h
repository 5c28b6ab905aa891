#ifndef PDFEDIT_CPOPPLER_LOADER_PUBLIC_H
#define PDFEDIT_CPOPPLER_LOADER_PUBLIC_H
/* Nonzero when poppler-glib, cairo, gobject or GLib is mapped in this process
 * (loaded on first use, or by whatever else loaded it). */
int pe_render_libraries_loaded(void);
#endif
