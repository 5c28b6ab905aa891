#include "QPDFBridge.h"

#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4 // we use no PointerHolder
#endif
#include <qpdf/QPDF.hh>
#include <string>

extern "C" const char *pe_qpdf_version(void) {
    static const std::string version = QPDF::QPDFVersion();
    return version.c_str();
}
