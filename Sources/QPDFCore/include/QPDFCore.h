/* QPDFCore defines the functions QPDFBridge declares (QPDFBridge.h,
 * QPDFBridgeReader.h); it has no interface of its own. */
#ifndef PDFEDIT_QPDF_CORE_H
#define PDFEDIT_QPDF_CORE_H
#include "QPDFBridge.h"
#include "QPDFBridgeReader.h"
#endif
