// Internal to QPDFBridge: `--images DPI[:QUALITY]`, the lossy pass an output
// goes through before compress_streams shares and recompresses the rest.
#ifndef PDFEDIT_QPDF_BRIDGE_IMAGES_HH
#define PDFEDIT_QPDF_BRIDGE_IMAGES_HH

#include "QPDFBridge.h"

#include <qpdf/QPDF.hh>

#include <set>

namespace pe {

struct ImageSettings {
    int dpi = 0;                   // images drawn finer than this are resampled to it
    int quality = 75;              // JPEG quality of what is written as JPEG (1-100)
    long long max_stream_bytes = 0; // what one stream may inflate to (0: no bound)
    long long max_pixels = 0;       // samples of one image (0: no bound)
};

// Resamples every raster image XObject the pages of `pdf` draw finer than
// settings.dpi (its largest drawn size, from the CTM at each `Do` through forms
// at any depth) to that resolution: 8-bit gray and RGB photographs (DCT, or
// Flate with many colours) written as JPEG, 1-bit images, stencil masks, CMYK
// and few-colour images as Flate, each image's /SMask resampled with it. Left
// alone: JBIG2, CCITT, JPX, images already at or below the resolution (or
// within a fifth of its pixels), Indexed, Separation, DeviceN, Lab, ICC
// profiles with other than 1, 3 or 4 components, other bit depths, colour-key
// masks, soft masks with /Matte, images also reached from patterns,
// soft-mask groups or Type 3 fonts (annotation appearances are followed,
// fitted to their /Rect as a reader draws them), data that does not decode within
// the limits, and any image whose new data is not smaller. `written` receives
// the streams replaced (already deflated at zlib's best level).
void downsample_images(
    QPDF &pdf, ImageSettings const &settings, pe_compress_report &report, std::set<QPDFObjGen> &written);

} // namespace pe

#endif
