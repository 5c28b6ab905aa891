// pe_inflate: a zlib stream (a PNG's image data) inflated with zlib into a
// buffer the caller allocated and checked; pe_deflate_rle and pe_crc32, what the
// PNG writer needs of zlib. zlib checks the whole stream,
// the Adler-32 checksum at its end included: qpdf's Pl_Flate, used before,
// accepted a PNG whose checksum was wrong. Data past what the image needs is
// counted and dropped, as libpng does.
#include "Status.hh"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int pe_inflate(
    const unsigned char *input, size_t input_size, unsigned char *output, size_t output_capacity,
    size_t *output_size, pe_status *status)
{
    *output_size = 0;
    z_stream stream;
    std::memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) {
        pe::set_status(status, PE_E_INTERNAL, pe::Where{}, "zlib could not start");
        return PE_E_INTERNAL;
    }
    unsigned char spill[16384];
    size_t used = 0;
    size_t total = 0;
    int result = Z_OK;
    size_t offered = 0;
    while (result == Z_OK) {
        if (stream.avail_in == 0 && offered < input_size) {
            size_t chunk = std::min<size_t>(input_size - offered, 1u << 30);
            stream.next_in = const_cast<unsigned char *>(input + offered);
            stream.avail_in = static_cast<uInt>(chunk);
            offered += chunk;
        }
        bool into_output = used < output_capacity;
        unsigned char *target = into_output ? output + used : spill;
        size_t room = into_output ? std::min<size_t>(output_capacity - used, 1u << 30) : sizeof spill;
        stream.next_out = target;
        stream.avail_out = static_cast<uInt>(room);
        result = inflate(&stream, Z_NO_FLUSH);
        size_t produced = room - stream.avail_out;
        total += produced;
        if (into_output) {
            used += produced;
        }
        if (result == Z_BUF_ERROR && stream.avail_in == 0 && offered == input_size) {
            break; // the input ended before the stream did
        }
        if (result == Z_BUF_ERROR) {
            result = Z_OK; // no progress possible with this buffer: go round with the next one
        }
    }
    std::string message = stream.msg != nullptr ? stream.msg : "";
    inflateEnd(&stream);
    *output_size = total;
    if (result != Z_STREAM_END) {
        std::string detail = result == Z_BUF_ERROR ? "the data ends before the zlib stream does"
                                                   : "zlib: " + (message.empty() ? std::to_string(result) : message);
        pe::set_status(status, PE_E_DAMAGED, pe::Where{}, detail.c_str());
        return PE_E_DAMAGED;
    }
    pe::set_status(status, PE_OK, pe::Where{}, "");
    return PE_OK;
}

extern "C" unsigned char *pe_deflate_rle(const unsigned char *input, size_t input_size, size_t *output_size)
{
    *output_size = 0;
    z_stream stream;
    std::memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, 6, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK) {
        return nullptr;
    }
    size_t capacity = deflateBound(&stream, static_cast<uLong>(input_size));
    auto *output = static_cast<unsigned char *>(std::malloc(capacity));
    if (output == nullptr) {
        deflateEnd(&stream);
        return nullptr;
    }
    // deflateBound is enough for one Z_FINISH call when all the input fits in
    // avail_in; larger inputs are offered a gigabyte at a time.
    size_t offered = 0;
    int result = Z_OK;
    stream.next_out = output;
    while (result == Z_OK || result == Z_BUF_ERROR) {
        if (stream.avail_in == 0) {
            size_t chunk = std::min<size_t>(input_size - offered, 1u << 30);
            stream.next_in = const_cast<unsigned char *>(input + offered);
            stream.avail_in = static_cast<uInt>(chunk);
            offered += chunk;
        }
        size_t room = std::min<size_t>(capacity - stream.total_out, 1u << 30);
        stream.avail_out = static_cast<uInt>(room);
        int flush = offered == input_size ? Z_FINISH : Z_NO_FLUSH;
        result = deflate(&stream, flush);
        if (result == Z_BUF_ERROR && room == 0) {
            break;
        }
    }
    *output_size = stream.total_out;
    deflateEnd(&stream);
    if (result != Z_STREAM_END) {
        std::free(output);
        *output_size = 0;
        return nullptr;
    }
    return output;
}

extern "C" unsigned long pe_crc32(unsigned long crc, const unsigned char *bytes, size_t count)
{
    while (count > 0) {
        uInt chunk = static_cast<uInt>(std::min<size_t>(count, 1u << 30));
        crc = crc32(crc, bytes, chunk);
        bytes += chunk;
        count -= chunk;
    }
    return crc;
}
