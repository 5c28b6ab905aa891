#include "CheckedFile.hh"

#include <qpdf/QPDFSystemError.hh>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>

namespace pe {
namespace {
// Large enough that QPDFWriter's many small writes become few system calls.
constexpr size_t buffer_capacity = 1 << 20;

std::atomic<bool> cancelled{false};
static_assert(std::atomic<bool>::is_always_lock_free, "pe_cancel must be async-signal-safe");

} // namespace

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
    // A command that winds up by itself on a signal (apply) stops writing a file
    // nobody will get at once, instead of serialising the rest of it.
    if (cancel_requested()) {
        fail("write", ECANCELED);
    }
    if (used + length > buffer_capacity) {
        flush();
        if (length >= buffer_capacity) {
            write_all(data, length);
            return;
        }
    }
    std::memcpy(buffer.get() + used, data, length);
    used += length;
    if (used == buffer_capacity) {
        flush();
    }
}

void CheckedFile::close()
{
    flush();
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

// write(2) of `length` bytes until all are written or a call fails (kept in
// failed_call and error).
void CheckedFile::write_all(unsigned char const *data, size_t length) noexcept
{
    size_t done = 0;
    while (error == 0 && descriptor >= 0 && done < length) {
        ssize_t written = ::write(descriptor, data + done, length - done);
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

void CheckedFile::flush() noexcept
{
    write_all(buffer.get(), used);
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

extern "C" void pe_flag_raise(pe_flag *flag)
{
    __atomic_store_n(&flag->raised, 1, __ATOMIC_SEQ_CST);
}

extern "C" int pe_flag_is_raised(pe_flag const *flag)
{
    return flag == nullptr ? 0 : __atomic_load_n(&flag->raised, __ATOMIC_SEQ_CST);
}
