// Internal to QPDFBridge: a font's /ToUnicode map (PDF 32000-1 9.10.3), read
// within bounds, so that text drawn in any font — a CID font's two-byte codes
// too — can be read as Unicode (ToUnicode.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_TO_UNICODE_HH
#define PDFEDIT_QPDF_BRIDGE_TO_UNICODE_HH

#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif

#include <qpdf/QPDFObjectHandle.hh>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pe {

class ToUnicode {
  public:
    // The map `stream` holds (inflated through the bounded decoder, at most
    // `limit` bytes); empty when it is not a stream, cannot be decoded or
    // maps nothing. The file's bytes are never trusted: entries, ranges and
    // codes are bounded, and what is malformed is skipped.
    static ToUnicode read(QPDFObjectHandle stream, long long limit);

    bool empty() const { return entries.empty() && singles.empty(); }

    // `codes` (a shown string's bytes) as UTF-8: each code becomes its mapped
    // text. A `simple` font's codes are one byte whatever the map's code space
    // says, and a code the map lacks is read as PDFDocEncoding (as without a
    // map); a composite font's codes are as long as the code space says, and
    // one the map lacks is left out.
    std::string text(std::string const &codes, bool simple) const;

  private:
    // A code space range: codes of `bytes` bytes, each byte within its bounds.
    struct Space {
        std::string low, high;
    };
    // Codes low...high (of `bytes` bytes) to UTF-16BE: `first` with its last
    // unit counted up from `low`, or each its own text in `each`.
    struct Entry {
        uint32_t high = 0;
        int bytes = 0;
        std::string first;
        std::vector<std::string> each;
    };

    std::vector<Space> spaces;
    std::map<std::pair<int, uint32_t>, std::string> singles; // bfchar, by (bytes, code): first over ranges
    std::map<std::pair<int, uint32_t>, Entry> entries;       // bfrange, by (bytes, low)
    size_t stored = 0;                                       // strings kept, bounded

    int code_length(std::string const &codes, size_t at) const;
    std::string const *mapped(int bytes, uint32_t code, std::string &counted) const;
    void add(std::string const &low, std::string const &high, std::string const &first, std::vector<std::string> each);
};

} // namespace pe

#endif
