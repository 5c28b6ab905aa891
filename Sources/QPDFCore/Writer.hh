// Internal to QPDFBridge: writing an output with the export's settings, and
// removing what a failed call wrote.
#ifndef PDFEDIT_QPDF_BRIDGE_WRITER_HH
#define PDFEDIT_QPDF_BRIDGE_WRITER_HH

#include "Status.hh"

#include <qpdf/PDFVersion.hh>
#include <qpdf/QPDF.hh>

#include <cstddef>
#include <cstdio>
#include <vector>

namespace pe {

// Writes `pdf` (an output of `pages` pages) to `out_path` with the export's
// settings (encryption or a deterministic /ID, object streams when a source has
// them and the output is not tiny, at least PDF `minimum`); `started` is set once
// the file may exist. `sync`: fsync the file (else the caller syncs its file
// system once, after writing many). `report`: tell options->progress the percent
// written. `kept_encryption_of`: the source whose encryption the output keeps
// (see kept_encryption), or nullptr.
void write_output(
    QPDF &pdf,
    char const *out_path,
    PDFVersion const &minimum,
    size_t pages,
    bool object_streams,
    pe_export_options const *options,
    bool &started,
    bool sync,
    bool report,
    QPDF *kept_encryption_of = nullptr);

// The files a failed call must not leave behind: removed when this goes out of
// scope, unless the call cleared `paths` once everything was written.
struct Written {
    std::vector<char const *> paths;
    Written() = default;
    Written(Written const &) = delete;
    Written &operator=(Written const &) = delete;
    ~Written()
    {
        for (char const *path : paths) {
            std::remove(path);
        }
    }
};

} // namespace pe

#endif
