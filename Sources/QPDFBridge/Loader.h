/* Internal to QPDFBridge: loading libpdfedit-qpdf.so (Loader.c) for the
 * forwarders (Forwarders.c). */
#ifndef PDFEDIT_QPDF_BRIDGE_LOADER_H
#define PDFEDIT_QPDF_BRIDGE_LOADER_H

/* The library's own function `name`, loading the library on the first call;
 * exits (69) with one line on standard error when it cannot be loaded. */
void *pe_core_symbol(const char *name);

/* The library's function `name` when the library is loaded, else NULL (never
 * loads it). */
void *pe_core_symbol_if_loaded(const char *name);

/* The library's pe_cancel when it is loaded, else nothing: async-signal-safe
 * (an atomic read of the function resolved at load). */
void pe_core_cancel(void);

/* Settings made before the library is loaded, given to it when it is. */
void pe_core_defer_depth_limit(int levels);
void pe_core_defer_keep_closed(int keep);

#endif
