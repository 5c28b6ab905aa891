// An output's encryption: passwords of its own (AES-256 with the permissions the
// caller grants), or kept from its source (direct mode: the same method,
// permissions and passwords), or none, with a note about encrypted sources.
#include "Encryption.hh"

namespace pe {
namespace {

// Whether the output is encrypted with passwords of its own (options->user_password).
bool encrypts_with_passwords(pe_export_options const *options)
{
    return options != nullptr && options->user_password != nullptr && options->owner_password != nullptr;
}

} // namespace

QPDF *kept_encryption(Inputs &inputs)
{
    pe_export_options const *options = inputs.request.options;
    if (options == nullptr || options->keep_encryption <= 0 || encrypts_with_passwords(options) ||
        options->keep_encryption > static_cast<int>(inputs.sources.size())) {
        return nullptr;
    }
    Source &source = inputs.sources[static_cast<size_t>(options->keep_encryption - 1)];
    if (!source.pdf || !source.pdf->isEncrypted()) {
        return nullptr;
    }
    return source.pdf.get();
}

bool set_encryption(QPDFWriter &writer, pe_export_options const *options, QPDF *kept)
{
    if (encrypts_with_passwords(options)) {
        auto granted = [options](int bit) { return (options->denied & bit) == 0; };
        writer.setR6EncryptionParameters(
            options->user_password,
            options->owner_password,
            true, // accessibility: PDF 2.0 always grants it
            granted(PE_ALLOW_COPY),
            granted(PE_ALLOW_ASSEMBLE),
            granted(PE_ALLOW_ANNOTATE),
            granted(PE_ALLOW_FORM),
            granted(PE_ALLOW_MODIFY),
            granted(PE_ALLOW_PRINT) ? qpdf_r3p_full : qpdf_r3p_none,
            true);
        return true;
    }
    if (kept != nullptr) {
        // The same /O, /U (and /OE, /UE, /Perms), key and first /ID: whichever of
        // its passwords opened the source, both open the output.
        writer.copyEncryptionParameters(*kept);
        return true;
    }
    // An encrypted source rearranged in place is written decrypted.
    writer.setPreserveEncryption(false);
    return false;
}

void note_decrypted(Inputs &inputs, int first, int count)
{
    pe_export_options const *options = inputs.request.options;
    if (encrypts_with_passwords(options) || kept_encryption(inputs) != nullptr) {
        return;
    }
    for (int s : page_sources(inputs.request.items + first, count)) {
        if (s >= 0 && s < static_cast<int>(inputs.sources.size())) {
            Source const &source = inputs.sources[static_cast<size_t>(s)];
            if (source.pdf && source.pdf->isEncrypted()) {
                inputs.warn(s, PE_WARNING_DECRYPTED);
            }
        }
    }
}

} // namespace pe
