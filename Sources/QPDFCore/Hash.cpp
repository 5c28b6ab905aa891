// pe_sha256_fd: SHA-256 of a file through qpdf's crypto provider (GnuTLS on
// Debian, which uses the CPU's SHA instructions where there are some): about ten
// times faster than GLib's g_checksum, and every source is hashed when it is
// loaded and again before each export.
#include "Status.hh"

#include <qpdf/QPDFCryptoProvider.hh>

#include <cerrno>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

extern "C" int pe_sha256_fd(int fd, char *hex, long long *size)
{
    try {
        std::shared_ptr<QPDFCryptoImpl> crypto = QPDFCryptoProvider::getImpl();
        crypto->SHA2_init(256);
        // Up to 1 MiB at a time, not zero-filled, and no more than the file
        // needs (a zeroed 1 MiB vector was 256 page faults, a tenth of a
        // 20-page file's edit).
        struct stat status {};
        size_t capacity = 1 << 20;
        if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size >= 0 &&
            static_cast<unsigned long long>(status.st_size) < capacity) {
            capacity = static_cast<size_t>(status.st_size) + 1; // + 1: the read that finds the end
        }
        std::unique_ptr<unsigned char[]> buffer(new unsigned char[capacity]);
        long long total = 0;
        for (;;) {
            ssize_t got = ::read(fd, buffer.get(), capacity);
            if (got < 0) {
                if (errno == EINTR) {
                    continue;
                }
                return errno == 0 ? EIO : errno;
            }
            if (got == 0) {
                break;
            }
            crypto->SHA2_update(buffer.get(), static_cast<size_t>(got));
            total += got;
        }
        crypto->SHA2_finalize();
        std::string digest = crypto->SHA2_digest();
        if (digest.size() != 32) {
            return -1;
        }
        static char const digits[] = "0123456789abcdef";
        for (size_t i = 0; i < digest.size(); ++i) {
            unsigned char byte = static_cast<unsigned char>(digest[i]);
            hex[2 * i] = digits[byte >> 4];
            hex[2 * i + 1] = digits[byte & 15];
        }
        hex[64] = '\0';
        if (size != nullptr) {
            *size = total;
        }
        return 0;
    } catch (...) {
        return -1;
    }
}
