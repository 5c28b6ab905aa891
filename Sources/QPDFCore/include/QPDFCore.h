/* The module's umbrella header: the extern "C" functions QPDFCore defines for
 * PDFEngine, declared in QPDFBridge.h and QPDFBridgeReader.h. */
#ifndef PDFEDIT_QPDF_CORE_H
#define PDFEDIT_QPDF_CORE_H
#include "QPDFBridge.h"
#include "QPDFBridgeReader.h"
#endif
