#include "CheckedFile.hh"

#include <qpdf/QPDFSystemError.hh>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace pe {
namespace {
// Large enough that QPDFWriter's many small writes become few system calls.
constexpr size_t buffer_capacity = 1 << 20;

std::atomic<bool> cancelled{false};
static_assert(std::atomic<bool>::is_always_lock_free, "pe_cancel must be async-signal-safe");

// What QPDFWriter writes in the trailer with setStaticID and no /ID in the
// document's trailer: its fixed test id, twice. The two ids start 6 and 40
// bytes in.
constexpr char static_id_run[] =
    "/ID [<31415926535897932384626433832795><31415926535897932384626433832795>]";
constexpr size_t static_id_length = sizeof(static_id_run) - 1;
static_assert(static_id_length == 74, "CheckedFile::carry holds a static /ID run less one byte");
constexpr long long first_id_offset = 6;
constexpr long long second_id_offset = 40;

constexpr std::uint64_t spread = 0x9E3779B97F4A7C15ull; // odd, bits of the golden ratio
constexpr std::uint64_t scramble = 0xD6E8FEB86659FD93ull;

std::uint64_t rotate_left(std::uint64_t value, int bits)
{
    return (value << bits) | (value >> (64 - bits));
}

// The 8 bytes at `data` as a little-endian number, whatever the host's order.
std::uint64_t little_endian(unsigned char const *data)
{
    std::uint64_t value;
    std::memcpy(&value, data, sizeof value);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap64(value);
#endif
    return value;
}

std::uint64_t lane_step(std::uint64_t lane, std::uint64_t word)
{
    return rotate_left(lane ^ (word * spread), 29) * scramble;
}

std::uint64_t finalize(std::uint64_t value)
{
    value ^= value >> 31;
    value *= scramble;
    value ^= value >> 29;
    value *= spread;
    value ^= value >> 32;
    return value;
}
} // namespace

void ContentDigest::block(unsigned char const *data) noexcept
{
    for (int i = 0; i < 4; ++i) {
        lanes[i] = lane_step(lanes[i], little_endian(data + 8 * i));
    }
}

void ContentDigest::add(unsigned char const *data, size_t length) noexcept
{
    total += length;
    if (pending_length > 0) {
        size_t taken = std::min(sizeof pending - pending_length, length);
        std::memcpy(pending + pending_length, data, taken);
        pending_length += taken;
        data += taken;
        length -= taken;
        if (pending_length < sizeof pending) {
            return;
        }
        block(pending);
        pending_length = 0;
    }
    for (; length >= sizeof pending; data += sizeof pending, length -= sizeof pending) {
        block(data);
    }
    std::memcpy(pending, data, length);
    pending_length = length;
}

std::string ContentDigest::hex() const
{
    std::uint64_t last[4] = {lanes[0], lanes[1], lanes[2], lanes[3]};
    unsigned char tail[sizeof pending] = {};
    std::memcpy(tail, pending, pending_length);
    for (int i = 0; i < 4; ++i) {
        last[i] = lane_step(last[i], little_endian(tail + 8 * i) ^ static_cast<std::uint64_t>(pending_length));
    }
    std::uint64_t first_half =
        finalize(last[0] ^ rotate_left(last[1], 16) ^ rotate_left(last[2], 32) ^ rotate_left(last[3], 48) ^ total);
    std::uint64_t second_half = finalize(
        (last[3] + rotate_left(last[2], 21)) ^ (last[1] + rotate_left(last[0], 42)) ^ rotate_left(first_half, 7) ^
        ~total);
    static char const digits[] = "0123456789abcdef";
    std::string text;
    for (std::uint64_t half : {first_half, second_half}) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            text += digits[(half >> shift) & 0xF];
        }
    }
    return text;
}

bool cancel_requested() noexcept
{
    return cancelled.load();
}

CheckedFile::CheckedFile(char const *path_, bool sync_) : Pipeline(path_, nullptr), path(path_), sync(sync_)
{
    descriptor = ::open(path_, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (descriptor < 0) {
        fail("open", errno);
    }
    // Made after a signal handler removed the temporary files it knew of: remove
    // it again, or it would outlive the process (parts are written on several
    // threads, which go on while the handler runs).
    if (cancel_requested()) {
        ::close(descriptor);
        descriptor = -1;
        ::unlink(path_);
        fail("open", ECANCELED);
    }
    buffer.reset(new unsigned char[buffer_capacity]);
}

CheckedFile::~CheckedFile()
{
    if (descriptor >= 0) {
        ::close(descriptor);
    }
}

void CheckedFile::write(unsigned char const *data, size_t length)
{
    if (error != 0 || descriptor < 0) {
        return;
    }
    if (used + length > buffer_capacity) {
        flush();
        if (length >= buffer_capacity) {
            put(data, length);
            return;
        }
    }
    std::memcpy(buffer.get() + used, data, length);
    used += length;
    if (used == buffer_capacity) {
        flush();
    }
}

void CheckedFile::finish()
{
    flush();
}

void CheckedFile::stamp_id()
{
    stamping = true;
}

void CheckedFile::close()
{
    flush();
    if (stamping && error == 0 && descriptor >= 0) {
        if (id_at < 0) {
            throw std::logic_error("QPDFWriter wrote no static /ID to replace in " + path);
        }
        std::string id = digest.hex();
        auto bytes = reinterpret_cast<unsigned char const *>(id.data());
        write_all(bytes, id.size(), id_at + first_id_offset);
        write_all(bytes, id.size(), id_at + second_id_offset);
    }
    if (sync && error == 0 && descriptor >= 0 && ::fsync(descriptor) != 0) {
        failed_call = "fsync";
        error = errno;
    }
    if (descriptor >= 0) {
        int closing = descriptor;
        descriptor = -1;
        if (::close(closing) != 0 && errno != EINTR && error == 0) {
            failed_call = "close";
            error = errno;
        }
    } else if (error == 0) {
        failed_call = "close";
        error = EBADF;
    }
    if (error != 0) {
        fail(failed_call, error);
    }
}

// Digests the bytes about to be written at `flushed` and notes where a static
// /ID run starts, one that straddles the previous flush included. Fixed
// buffers only: flush() must not throw.
void CheckedFile::note(unsigned char const *data, size_t length) noexcept
{
    digest.add(data, length);
    if (carry_length > 0) {
        // The run can start in the carry and end in `data`.
        unsigned char joined[2 * sizeof carry];
        size_t from_data = std::min(length, sizeof carry);
        std::memcpy(joined, carry, carry_length);
        std::memcpy(joined + carry_length, data, from_data);
        size_t joined_length = carry_length + from_data;
        for (size_t at = 0; at < carry_length && at + static_id_length <= joined_length; ++at) {
            if (std::memcmp(joined + at, static_id_run, static_id_length) == 0) {
                id_at = flushed - static_cast<long long>(carry_length) + static_cast<long long>(at);
            }
        }
    }
    unsigned char const *from = data;
    unsigned char const *end = data + length;
    while (from < end) {
        void const *found = ::memmem(from, static_cast<size_t>(end - from), static_id_run, static_id_length);
        if (found == nullptr) {
            break;
        }
        auto at = static_cast<unsigned char const *>(found);
        id_at = flushed + (at - data);
        from = at + 1;
    }
    // The last bytes flushed, for a run that straddles the next flush.
    if (length >= sizeof carry) {
        std::memcpy(carry, end - sizeof carry, sizeof carry);
        carry_length = sizeof carry;
    } else {
        size_t kept = std::min(carry_length, sizeof carry - length);
        std::memmove(carry, carry + carry_length - kept, kept);
        std::memcpy(carry + kept, data, length);
        carry_length = kept + length;
    }
    flushed += static_cast<long long>(length);
}

// write(2) of `length` bytes, or pwrite(2) at `offset` when it is not negative,
// until all are written or a call fails (kept in failed_call and error).
void CheckedFile::write_all(unsigned char const *data, size_t length, long long offset) noexcept
{
    size_t done = 0;
    while (error == 0 && descriptor >= 0 && done < length) {
        ssize_t written = offset < 0 ? ::write(descriptor, data + done, length - done)
                                     : ::pwrite(descriptor, data + done, length - done,
                                           static_cast<off_t>(offset) + static_cast<off_t>(done));
        if (written < 0) {
            if (errno != EINTR) {
                failed_call = "write";
                error = errno;
            }
            continue;
        }
        done += static_cast<size_t>(written);
    }
}

void CheckedFile::put(unsigned char const *data, size_t length) noexcept
{
    if (stamping && error == 0 && descriptor >= 0 && length > 0) {
        note(data, length);
    }
    write_all(data, length, -1);
}

void CheckedFile::flush() noexcept
{
    put(buffer.get(), used);
    used = 0;
}

void CheckedFile::fail(char const *what, int code) const
{
    throw QPDFSystemError(std::string(what) + " " + path, code);
}

void sync_file_system_of(char const *path)
{
    int descriptor = ::open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        throw QPDFSystemError(std::string("open ") + path, errno);
    }
    int result = ::syncfs(descriptor);
    int code = errno;
    ::close(descriptor);
    if (result != 0) {
        throw QPDFSystemError(std::string("syncfs ") + path, code);
    }
}

} // namespace pe

extern "C" void pe_cancel(void)
{
    pe::cancelled.store(true);
}

extern "C" int pe_write_stamped(
    const char *path, const unsigned char *const *pieces, const size_t *lengths, int count, char *message,
    size_t message_size)
{
    try {
        pe::CheckedFile file(path, false);
        file.stamp_id();
        for (int i = 0; i < count; ++i) {
            file.write(pieces[i], lengths[i]);
            file.finish();
        }
        file.close();
        return 0;
    } catch (std::exception const &error) {
        if (message != nullptr && message_size > 0) {
            std::snprintf(message, message_size, "%s", error.what());
        }
        return -1;
    }
}
