// Internal to QPDFBridge: bounds on what decoding a stream may produce (the
// documented limits, given by the caller; the bridge reads no environment).
#ifndef PDFEDIT_QPDF_BRIDGE_LIMITS_HH
#define PDFEDIT_QPDF_BRIDGE_LIMITS_HH

#include <qpdf/QPDFObjectHandle.hh>

#include <stdexcept>
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
bool decode_bounded(QPDFObjectHandle stream, long long limit, std::string const &what, std::string *into = nullptr);

// Each content stream of `page` within `limit` inflated bytes.
void check_page_contents(QPDFObjectHandle page, long long limit);

// What a reader (poppler) decodes to show `page`: its content streams and the
// form XObjects of its resources within `limit` bytes each, its image XObjects
// within `pixels` samples (0: no limit).
// Returns the pixel count of the page's largest image XObject (0 for none).
long long check_page_for_reader(QPDFObjectHandle page, long long limit, long long pixels, std::set<QPDFObjGen> &checked);

} // namespace pe

#endif
