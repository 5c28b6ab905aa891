// The one zlib inflate loop (`pe::inflate_chunks`), for pe_inflate (a PNG's
// image data, into a buffer the caller allocated and checked) and for
// `pe::inflate_bounded` (a Flate stream `--compress` recompresses, at most the
// stream limit); pe_deflate_rle and pe_crc32, what the
// PNG writer needs of zlib. zlib checks the whole stream,
// the Adler-32 checksum at its end included: qpdf's Pl_Flate, used before,
// accepted a PNG whose checksum was wrong. Data past what the image needs is
// counted and dropped, as libpng does.
#include "Compress.hh"
#include "Status.hh"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace pe {

// The one zlib inflate loop: `input` in chunks zlib can take, each output chunk
// handed to `sink` (false: stop, the data is not wanted past it). Z_STREAM_END
// when the whole stream, its checksum included, was read; Z_BUF_ERROR when the
// input ends before the stream does; `message` holds zlib's own words.
int inflate_chunks(
    const unsigned char *input, size_t input_size, std::function<bool(unsigned char const *, size_t)> const &sink,
    std::string &message)
{
    z_stream stream;
    std::memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) {
        message = "zlib could not start";
        return Z_MEM_ERROR;
    }
    unsigned char buffer[65536];
    int result = Z_OK;
    size_t offered = 0;
    while (result == Z_OK) {
        if (stream.avail_in == 0 && offered < input_size) {
            size_t chunk = std::min<size_t>(input_size - offered, 1u << 30);
            stream.next_in = const_cast<unsigned char *>(input + offered);
            stream.avail_in = static_cast<uInt>(chunk);
            offered += chunk;
        }
        stream.next_out = buffer;
        stream.avail_out = sizeof buffer;
        result = inflate(&stream, Z_NO_FLUSH);
        if (!sink(buffer, sizeof buffer - stream.avail_out)) {
            result = Z_MEM_ERROR;
            message = "over the limit";
            break;
        }
        if (result == Z_BUF_ERROR && stream.avail_in == 0 && offered == input_size) {
            break; // the input ended before the stream did
        }
        if (result == Z_BUF_ERROR) {
            result = Z_OK; // no progress possible with this buffer: go round with the next one
        }
    }
    if (message.empty() && stream.msg != nullptr) {
        message = stream.msg;
    }
    inflateEnd(&stream);
    return result;
}

bool inflate_bounded(std::string const &data, long long limit, std::string &into)
{
    std::string message;
    int result = inflate_chunks(
        reinterpret_cast<unsigned char const *>(data.data()), data.size(),
        [&](unsigned char const *bytes, size_t count) {
            into.append(reinterpret_cast<char const *>(bytes), count);
            return limit <= 0 || static_cast<long long>(into.size()) <= limit;
        },
        message);
    return result == Z_STREAM_END;
}

} // namespace pe

extern "C" int pe_inflate(
    const unsigned char *input, size_t input_size, unsigned char *output, size_t output_capacity,
    size_t *output_size, pe_status *status)
{
    size_t used = 0;
    size_t total = 0;
    std::string message;
    int result = pe::inflate_chunks(
        input, input_size,
        [&](unsigned char const *bytes, size_t count) {
            size_t kept = std::min(count, output_capacity - used);
            std::memcpy(output + used, bytes, kept);
            used += kept;
            total += count; // data past what the image needs is counted and dropped
            return true;
        },
        message);
    *output_size = total;
    if (result == Z_MEM_ERROR && message == "zlib could not start") {
        pe::set_status(status, PE_E_INTERNAL, pe::Where{}, "zlib could not start");
        return PE_E_INTERNAL;
    }
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
