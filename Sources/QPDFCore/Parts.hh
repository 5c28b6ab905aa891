// Internal to QPDFBridge: a split export, several outputs from one opening of
// the sources (Parts.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_PARTS_HH
#define PDFEDIT_QPDF_BRIDGE_PARTS_HH

#include "Inputs.hh"
#include "Writer.hh"

namespace pe {

// Writes each of `parts` (see pe_export_parts): checks every part and opens
// every source first, then writes the parts on up to options->threads threads,
// passes on warnings in part order and syncs each folder once. On failure
// `current_part` is the part whose output failed (else -1) and `written` holds
// the files to remove.
void export_parts(
    Request const &request,
    pe_part const *parts,
    int part_count,
    Where &where,
    int &current_part,
    Written &written);

} // namespace pe

#endif
