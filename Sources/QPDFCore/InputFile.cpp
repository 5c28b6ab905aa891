// ReadInputSource, open_pdf's (private to this file): how the bridge reads its
// inputs. qpdf 11.3's FileInputSource goes through stdio and asks the kernel for
// the position on every tell and seek: resolving the 20,000 page objects of a
// 20,000-page file made about 550,000 lseek calls and half of the wall time. This
// one keeps the position itself and reads with pread through a small window, so a
// seek is an assignment. It holds a window of kWindow bytes, never the file:
// stream data is still read in chunks when it is written.
#include "Export.hh"

#include <qpdf/InputSource.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QUtil.hh>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pe {
namespace {

class ReadInputSource : public InputSource {
  public:
    // Throws QPDFSystemError like qpdf's FileInputSource.
    explicit ReadInputSource(char const *path) : name(path == nullptr ? "" : path)
    {
        descriptor = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0) {
            QUtil::throw_system_error(std::string("open ") + name); // as qpdf's safe_fopen
        }
        struct stat status;
        if (::fstat(descriptor, &status) != 0) {
            int code = errno;
            ::close(descriptor);
            errno = code;
            QUtil::throw_system_error(std::string("open ") + name);
        }
        size = static_cast<qpdf_offset_t>(status.st_size);
    }

    ~ReadInputSource() override
    {
        if (descriptor >= 0) {
            ::close(descriptor);
        }
    }

    ReadInputSource(ReadInputSource const &) = delete;
    ReadInputSource &operator=(ReadInputSource const &) = delete;

    std::string const &getName() const override { return name; }
    qpdf_offset_t tell() override { return position; }
    void rewind() override { position = 0; }

    void seek(qpdf_offset_t offset, int whence) override
    {
        qpdf_offset_t target = offset;
        if (whence == SEEK_CUR) {
            target = position + offset;
        } else if (whence == SEEK_END) {
            target = size + offset;
        }
        if (target < 0) {
            errno = EINVAL;
            QUtil::throw_system_error(
                std::string("seek to ") + name + ", offset " + std::to_string(offset) + " (" +
                std::to_string(whence) + ")");
        }
        position = target;
    }

    size_t read(char *buffer, size_t length) override
    {
        last_offset = position;
        size_t done = 0;
        while (done < length) {
            bool in_window =
                position >= window_start && position < window_start + static_cast<qpdf_offset_t>(window_length);
            if (!in_window && length - done >= kWindow) {
                // Large reads (stream data) go straight to the caller's buffer.
                size_t got = read_at(position, buffer + done, length - done);
                done += got;
                position += static_cast<qpdf_offset_t>(got);
                break;
            }
            if (!window_at(position)) {
                break;
            }
            size_t offset = static_cast<size_t>(position - window_start);
            size_t count = std::min(length - done, window_length - offset);
            std::memcpy(buffer + done, window + offset, count);
            done += count;
            position += static_cast<qpdf_offset_t>(count);
        }
        if (done == 0 && length > 0) {
            // At the end: like FileInputSource, stand at the end of the file.
            position = std::max(position, size);
            last_offset = position;
        }
        return done;
    }

    void unreadCh(char) override
    {
        // qpdf only ever puts back the character it has just read.
        if (position > 0) {
            --position;
        }
    }

    qpdf_offset_t findAndSkipNextEOL() override
    {
        // What FileInputSource does (find the next \r or \n, return its offset, stand
        // after the run of \r and \n that starts there; at the end of the file return
        // and stand at the end), scanning the window in place: FileInputSource copies
        // 10 KB for every line, and qpdf reads the xref table a line at a time.
        qpdf_offset_t at = position;
        qpdf_offset_t found = -1;
        while (found < 0) {
            if (!window_at(at)) {
                position = std::max(at, size);
                last_offset = position;
                return position;
            }
            size_t from = static_cast<size_t>(at - window_start);
            for (size_t i = from; i < window_length; ++i) {
                if (window[i] == '\r' || window[i] == '\n') {
                    found = window_start + static_cast<qpdf_offset_t>(i);
                    break;
                }
            }
            at = window_start + static_cast<qpdf_offset_t>(window_length);
        }
        at = found + 1;
        while (window_at(at)) {
            char ch = window[static_cast<size_t>(at - window_start)];
            if (ch != '\r' && ch != '\n') {
                break;
            }
            ++at;
        }
        position = at;
        last_offset = position;
        return found;
    }

  private:
    static constexpr size_t kWindow = 16384;

    // pread until `length` bytes or the end of the file; the bytes read.
    size_t read_at(qpdf_offset_t offset, char *into, size_t length)
    {
        size_t done = 0;
        while (done < length) {
            ssize_t got =
                ::pread(descriptor, into + done, length - done, static_cast<off_t>(offset) + static_cast<off_t>(done));
            if (got < 0) {
                if (errno == EINTR) {
                    continue;
                }
                throw QPDFExc(qpdf_e_system, name, "", offset, "read " + std::to_string(length) + " bytes");
            }
            if (got == 0) {
                break;
            }
            done += static_cast<size_t>(got);
        }
        return done;
    }

    // Whether `offset` is in the window, filling it from there when not; false at the
    // end of the file.
    bool window_at(qpdf_offset_t offset)
    {
        if (offset >= window_start && offset < window_start + static_cast<qpdf_offset_t>(window_length)) {
            return true;
        }
        window_start = offset;
        window_length = read_at(offset, window, kWindow);
        return window_length > 0;
    }

    std::string name;
    int descriptor = -1;
    qpdf_offset_t size = 0;
    qpdf_offset_t position = 0;
    qpdf_offset_t window_start = 0;
    size_t window_length = 0;
    char window[kWindow];
};

} // namespace

void open_pdf(QPDF &pdf, char const *path, char const *password)
{
    pdf.processInputSource(std::make_shared<ReadInputSource>(path), password);
}

} // namespace pe
