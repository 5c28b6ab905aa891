// Internal to QPDFBridge: the lossless "smaller file" pass an output goes
// through before it is written with pe_export_options.compress.
#ifndef PDFEDIT_QPDF_BRIDGE_COMPRESS_HH
#define PDFEDIT_QPDF_BRIDGE_COMPRESS_HH

#include "Images.hh"
#include "QPDFBridge.h"

#include <qpdf/QPDF.hh>

#include <string>

namespace pe {

// Rewrites the streams of `pdf` that its trailer reaches, in two steps:
//  1. identical streams are shared: streams whose dictionaries (without
//     /Length, nor an image's or form's obsolete /Name; references compared
//     by what they lead to) and raw data are byte-identical are one object,
//     the first (lowest object number); every reference to another is
//     redirected to it. So are identical resource
//     objects that are not streams (fonts, descriptors, color space arrays,
//     resource dictionaries: Compress.cpp's `shareable`; never pages,
//     annotations, fields or anything else with an identity of its own).
//     Repeated until nothing more merges, so a font whose file merged merges
//     in turn.
//  2. each kept stream whose outer filter is /FlateDecode has that layer
//     inflated (at most `max_stream_bytes`, 0: no bound; a larger or damaged
//     stream is left as it is) and deflated again at zlib's best level, the
//     other filters and /DecodeParms untouched; a Flate stream with a
//     predictor is also tried without it (decoded, /DecodeParms dropped) and
//     the smaller kept; an unfiltered stream gets /FlateDecode. Kept only
//     when smaller. XMP packets stay unfiltered (QPDFWriter writes them so)
//     and lose their insignificant white space (padding, indentation).
// The writer must then write stream data as given (write_output sets decode
// level none), or qpdf would inflate and deflate it again at its own level.
// Objects nothing reaches stay in `pdf`: QPDFWriter writes only what the
// trailer reaches, so they are left out of the file by the writer.
// With images.dpi > 0, downsample_images runs between steps 1 and 2 (the
// images it writes are not recompressed again).
//
// Step 2 runs on run.threads threads, the calling one included (1: on it
// alone). Every qpdf call stays on the calling thread: it reads each stream's
// stored data (and, for a predicted one, qpdf's decoding of it) in object
// order, workers inflate and deflate plain strings, and the calling thread
// gives the results back to qpdf in that same order, so the output is the
// same bytes whatever the thread count. With more than one thread and no
// images to resample, the streams are handed to the workers before step 1,
// which the calling thread then runs while they deflate (the result of a
// stream step 1 merges away is dropped). At most 64 MB of gathered data waits
// for the workers at once (each thread then holds at most one stream
// inflated, within max_stream_bytes). The workers are joined before it
// returns or throws; an exception of a worker (std::bad_alloc) is thrown on
// the calling thread. Before each stream it stops with PlanError("cancelled")
// when run.cancel is raised or pe_cancel was called.
struct CompressRun {
    int threads = 1;
    pe_flag const *cancel = nullptr;
};
void compress_streams(
    QPDF &pdf, long long max_stream_bytes, ImageSettings const &images, pe_compress_report &report,
    CompressRun run = {});

// The threads an export uses for pe_export_options.threads `wanted` (step 2
// here; a split's parts, Parts.cpp, at most one per part): `wanted` when it is
// from 1 to 64, else the CPUs this process may run on (its affinity), at most 4.
int compress_threads(int wanted);

// zlib's deflate of `data` at its best level (9, the largest window and
// memory) appended to `into`; data of at most 4 KB is also deflated with the
// Z_FILTERED strategy and the smaller result kept. False if zlib fails.
bool deflate_best(std::string const &data, std::string &into);

// zlib's inflate of `data`, at most `limit` bytes (0: no bound); false when the
// data is not one whole zlib stream or inflates to more. Inflate.cpp: the one
// zlib inflate loop, shared with the PNG reader's pe_inflate.
bool inflate_bounded(std::string const &data, long long limit, std::string &into);

} // namespace pe

#endif
