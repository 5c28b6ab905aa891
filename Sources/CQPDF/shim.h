#ifndef PDFEDIT_CQPDF_SHIM_H
#define PDFEDIT_CQPDF_SHIM_H
#include <qpdf/qpdf-c.h>
#include <qpdf/qpdfjob-c.h>
#include <qpdf/qpdflogger-c.h>
#endif
