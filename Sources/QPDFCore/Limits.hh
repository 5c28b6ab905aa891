// Internal to QPDFBridge: bounds on what decoding a stream may produce (the
// documented limits, given by the caller; the bridge reads no environment).
#ifndef PDFEDIT_QPDF_BRIDGE_LIMITS_HH
#define PDFEDIT_QPDF_BRIDGE_LIMITS_HH

#include <qpdf/QPDFObjectHandle.hh>

#include <stdexcept>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace pe {

// An input over a documented limit (PE_E_LIMIT); the message says which. `file`,
// when given, is the path of the source it concerns (as its QPDF names it), for
// steps that run while no source is current.
class OverLimit : public std::runtime_error {
  public:
    explicit OverLimit(std::string const &message, std::string source_file = "") :
        std::runtime_error(message), file(std::move(source_file))
    {
    }
    std::string file;
};

// Decodes `stream` (qpdf_dl_generalized, as a writer or reader would) into
// `into` (may be nullptr: only counted), refusing with OverLimit once it passes
// `limit` bytes (0: no limit); `what` names the stream in the message. qpdf
// 11.3's decoders have no bound of their own. Returns false when qpdf could not
// decode it (an unknown filter, damaged data).
// `level`: qpdf_dl_all also decodes images (DCT), for redaction.
bool decode_bounded(
    QPDFObjectHandle stream, long long limit, std::string const &what, std::string *into = nullptr,
    qpdf_stream_decode_level_e level = qpdf_dl_generalized);

// Each content stream of `page` within `limit` inflated bytes.
void check_page_contents(QPDFObjectHandle page, long long limit);

// The limits a page is measured against before a reader draws it (0: none).
struct PageLimits {
    long long stream_bytes = 0; // what one stream may inflate to
    long long pixels = 0;       // samples of one image
    long long operators = 0;    // content operators drawing the page runs
};

// What drawing a page costs a reader (PageWork.cpp).
struct PageWork {
    long long operators = 0;     // content operators, each form counted as often as it is drawn
    long long largest_image = 0; // samples of its largest image, at any depth
    bool skipped = false;        // holds what a renderer skips silently (see PageWork.cpp)
};

// Measures `page` (PageWork.cpp): every stream it draws inflated within
// limits.stream_bytes, every image within limits.pixels, the operators within
// limits.operators; OverLimit past any of them. `memo` keeps the forms measured
// for this document.
PageWork measure_page(QPDFObjectHandle page, PageLimits const &limits, std::map<QPDFObjGen, PageWork> &memo);

// What a reader (poppler) decodes to show `page`: measure_page, and its fonts'
// streams within limits.stream_bytes (`checked`: those this document already
// inflated).
PageWork check_page_for_reader(
    QPDFObjectHandle page, PageLimits const &limits, std::set<QPDFObjGen> &checked,
    std::map<QPDFObjGen, PageWork> &memo);

} // namespace pe

#endif
