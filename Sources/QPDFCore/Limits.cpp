// A counting Pipeline that stops a decompression bomb: qpdf inflates a stream
// through it and it refuses to pass more than the limit.
#include "Limits.hh"

#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

#include <set>
#include <vector>

namespace pe {

namespace {

class BoundedSink : public Pipeline {
  public:
    BoundedSink(long long limit, std::string *into) : Pipeline("pdfedit bounded sink", nullptr), limit(limit), into(into)
    {
    }

    void write(unsigned char const *data, size_t len) override
    {
        count += static_cast<long long>(len);
        if (limit > 0 && count > limit) {
            exceeded = true;
            // qpdf turns this into a decoding warning and stops; decode_bounded
            // looks at `exceeded` afterwards.
            throw std::length_error("inflated stream over the limit");
        }
        if (into != nullptr) {
            into->append(reinterpret_cast<char const *>(data), len);
        }
    }

    void finish() override {}

    bool exceeded = false;

  private:
    long long limit;
    long long count = 0;
    std::string *into;
};

std::string byte_count(long long bytes)
{
    return std::to_string(bytes) + " bytes";
}

} // namespace

bool decode_bounded(
    QPDFObjectHandle stream, long long limit, std::string const &what, std::string *into,
    qpdf_stream_decode_level_e level)
{
    BoundedSink sink(limit, into);
    bool decoded = false;
    try {
        decoded = stream.pipeStreamData(&sink, 0, level, true, false);
    } catch (std::length_error const &) {
        decoded = false;
    }
    if (sink.exceeded) {
        throw OverLimit(what + " inflates to more than " + byte_count(limit) + " (PDFEDIT_MAX_STREAM_BYTES)");
    }
    return decoded;
}

void check_page_contents(QPDFObjectHandle page, long long limit)
{
    if (limit <= 0) {
        return;
    }
    for (QPDFObjectHandle &stream : QPDFPageObjectHelper(page).getPageContents()) {
        if (stream.isStream()) {
            decode_bounded(stream, limit, "a content stream (object " + stream.getObjGen().unparse(' ') + ")");
        }
    }
}

namespace {

// Decodes `stream` within the limit unless this document already did (fonts and
// forms are shared by many pages: each is inflated once per document).
void decode_once(QPDFObjectHandle stream, long long limit, std::string const &what, std::set<QPDFObjGen> &checked)
{
    if (!stream.isStream() || (stream.isIndirect() && !checked.insert(stream.getObjGen()).second)) {
        return;
    }
    decode_bounded(stream, limit, what);
}

// The streams poppler inflates for a font: its /ToUnicode map (text extraction)
// and its embedded font program (rendering), for a Type0 font those of its
// descendant too.
void check_font(QPDFObjectHandle font, std::string const &name, long long limit, std::set<QPDFObjGen> &checked)
{
    std::vector<QPDFObjectHandle> fonts{font};
    QPDFObjectHandle descendants = font.getKey("/DescendantFonts");
    if (descendants.isArray() && descendants.getArrayNItems() > 0 && descendants.getArrayItem(0).isDictionary()) {
        fonts.push_back(descendants.getArrayItem(0));
    }
    for (QPDFObjectHandle each : fonts) {
        QPDFObjectHandle to_unicode = each.getKey("/ToUnicode");
        decode_once(to_unicode, limit, "the /ToUnicode map of font " + name + " (object " +
            to_unicode.getObjGen().unparse(' ') + ")", checked);
        QPDFObjectHandle descriptor = each.getKey("/FontDescriptor");
        if (!descriptor.isDictionary()) {
            continue;
        }
        for (char const *key : {"/FontFile", "/FontFile2", "/FontFile3"}) {
            QPDFObjectHandle program = descriptor.getKey(key);
            decode_once(program, limit, "the embedded program of font " + name + " (object " +
                program.getObjGen().unparse(' ') + ")", checked);
        }
    }
}

} // namespace

PageWork check_page_for_reader(
    QPDFObjectHandle page, PageLimits const &limits, std::set<QPDFObjGen> &checked,
    std::map<QPDFObjGen, PageWork> &memo)
{
    PageWork work = measure_page(page, limits, memo);
    QPDFObjectHandle resources = page.getKey("/Resources");
    QPDFObjectHandle fonts = resources.isDictionary() ? resources.getKey("/Font") : QPDFObjectHandle::newNull();
    if (limits.stream_bytes > 0 && fonts.isDictionary()) {
        for (auto entry : fonts.ditems()) {
            if (entry.second.isDictionary()) {
                check_font(entry.second, entry.first, limits.stream_bytes, checked);
            }
        }
    }
    return work;
}

} // namespace pe
