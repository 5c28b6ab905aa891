// A counting Pipeline that stops a decompression bomb: qpdf inflates a stream
// through it and it refuses to pass more than the limit.
#include "Limits.hh"

#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

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

bool decode_bounded(QPDFObjectHandle stream, long long limit, std::string const &what, std::string *into)
{
    BoundedSink sink(limit, into);
    bool decoded = false;
    try {
        decoded = stream.pipeStreamData(&sink, 0, qpdf_dl_generalized, true, false);
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

void check_page_for_reader(QPDFObjectHandle page, long long limit, long long pixels)
{
    check_page_contents(page, limit);
    QPDFObjectHandle resources = page.getKey("/Resources");
    QPDFObjectHandle xobjects = resources.isDictionary() ? resources.getKey("/XObject") : QPDFObjectHandle();
    if (!xobjects.isDictionary()) {
        return;
    }
    for (auto const &entry : xobjects.ditems()) {
        QPDFObjectHandle xobject = entry.second;
        if (!xobject.isStream()) {
            continue;
        }
        QPDFObjectHandle dict = xobject.getDict();
        std::string name = "XObject " + entry.first + " (object " + xobject.getObjGen().unparse(' ') + ")";
        if (dict.getKey("/Subtype").isNameAndEquals("/Image")) {
            QPDFObjectHandle width = dict.getKey("/Width");
            QPDFObjectHandle height = dict.getKey("/Height");
            if (pixels > 0 && width.isNumber() && height.isNumber()) {
                double samples = width.getNumericValue() * height.getNumericValue();
                if (samples > static_cast<double>(pixels)) {
                    throw OverLimit(
                        "image " + name + " has " + width.unparse() + "x" + height.unparse() + " pixels, more than " +
                        std::to_string(pixels) + " (PDFEDIT_MAX_PIXELS)");
                }
            }
        } else if (limit > 0) {
            decode_bounded(xobject, limit, name);
        }
    }
}

} // namespace pe
