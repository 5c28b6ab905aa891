// Internal to QPDFBridge: what the reader entry points (Reader.cpp) share with
// the image-page writer (ImagePage.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_READER_HH
#define PDFEDIT_QPDF_BRIDGE_READER_HH

#include "Status.hh"

namespace pe {

// Call from a catch block only: records the exception being handled in `status`
// as the opening of a pe_document words it — a QPDFExc by its code with qpdf's
// detail alone (no file name, no offset, as qpdf's C API gave it), a system error
// with its text, a PlanError as PE_E_PLAN with its page count, anything else
// PE_E_INTERNAL — and returns the code. Never throws.
int record_reader_exception(pe_status *status, Where where) noexcept;

} // namespace pe

#endif
