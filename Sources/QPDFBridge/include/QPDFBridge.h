#ifndef PDFEDIT_QPDF_BRIDGE_H
#define PDFEDIT_QPDF_BRIDGE_H
/* Our thin extern "C" layer over qpdf's C++ API, for what qpdf-c.h lacks
 * (document helpers for annotations, forms, outlines, page labels, form XObjects).
 * Every function catches every C++ exception and reports it through pe_status. */
#ifdef __cplusplus
extern "C" {
#endif

/* The qpdf library version the bridge was linked against (QPDF::QPDFVersion). */
const char *pe_qpdf_version(void);

#ifdef __cplusplus
}
#endif
#endif
