// Internal to QPDFBridge: an output's encryption (Encryption.cpp): the source
// whose encryption it keeps, the writer set up for it, and the note about
// encrypted sources written unencrypted.
#ifndef PDFEDIT_QPDF_BRIDGE_ENCRYPTION_HH
#define PDFEDIT_QPDF_BRIDGE_ENCRYPTION_HH

#include "Inputs.hh"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFWriter.hh>

namespace pe {

// The opened source whose encryption the output keeps (options->keep_encryption),
// or nullptr: none asked for, passwords given instead, or that source is not
// encrypted (or not opened).
QPDF *kept_encryption(Inputs &inputs);

// Sets up `writer` for the output's encryption: AES-256 with the options'
// passwords and permissions; else the encryption of `kept` (see kept_encryption);
// else none, even when the document written is an encrypted source rearranged
// in place. Returns whether the output is encrypted.
bool set_encryption(QPDFWriter &writer, pe_export_options const *options, QPDF *kept);

// When the output is not encrypted: warns (PE_WARNING_DECRYPTED) once about
// each encrypted source that items [first, first + count) take pages from.
void note_decrypted(Inputs &inputs, int first, int count);

} // namespace pe

#endif
