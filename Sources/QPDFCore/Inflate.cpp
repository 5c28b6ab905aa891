// pe_inflate: a zlib stream inflated by qpdf's Pl_Flate straight into a buffer
// the caller allocated, for PNG image data. qpdf's C API (qpdf_oh_get_stream_data,
// used for this before the bridge was PDFEngine's only way to qpdf) mallocs a
// second copy of the decoded data without checking the result, so under a memory
// limit it copied to NULL (SIGSEGV); here the caller owns the only copy and checks
// its allocation, and no more than the image needs is ever kept.
#include "Status.hh"

#include <qpdf/Pipeline.hh>
#include <qpdf/Pl_Flate.hh>

#include <cstring>
#include <string>

namespace {

// Keeps the first `capacity` bytes written to it in `out`, counts the rest and
// drops it (data past what the image needs is ignored, as libpng does).
class FixedBuffer : public Pipeline {
  public:
    FixedBuffer(unsigned char *out_, size_t capacity_) :
        Pipeline("inflated image data", nullptr), out(out_), capacity(capacity_)
    {
    }

    void write(unsigned char const *data, size_t len) override
    {
        size_t room = used < capacity ? capacity - used : 0;
        size_t kept = len < room ? len : room;
        if (kept > 0) {
            std::memcpy(out + used, data, kept);
        }
        used += kept;
        total += len;
    }

    void finish() override {}

    unsigned char *out;
    size_t capacity;
    size_t used = 0;
    size_t total = 0;
};

} // namespace

extern "C" int pe_inflate(
    const unsigned char *input, size_t input_size, unsigned char *output, size_t output_capacity,
    size_t *output_size, pe_status *status)
{
    *output_size = 0;
    try {
        FixedBuffer sink(output, output_capacity);
        std::string warning;
        Pl_Flate flate("image data", &sink, Pl_Flate::a_inflate);
        flate.setWarnCallback([&warning](char const *message, int) {
            if (warning.empty()) {
                warning = message;
            }
        });
        flate.write(input, input_size);
        flate.finish();
        *output_size = sink.total;
        if (!warning.empty()) {
            pe::set_status(status, PE_E_DAMAGED, pe::Where{}, warning.c_str());
            return PE_E_DAMAGED;
        }
        pe::set_status(status, PE_OK, pe::Where{}, "");
        return PE_OK;
    } catch (...) {
        return pe::record_current_exception(status, pe::Where{}, nullptr, 0);
    }
}
