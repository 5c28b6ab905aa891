// SHA-256 through qpdf's crypto provider (QPDFCryptoProvider: GnuTLS in
// Debian's libqpdf, with the CPU's SHA instructions where it has them): the one
// hashing route of pdfedit, for sources' fingerprints (pe_sha256_fd) and cache
// keys (pe_sha256_bytes). GLib's GChecksum, the other library at hand, took 4-6
// times as long on a 100 MB file (docs/ARCHITECTURE.md).
#include "QPDFBridge.h"

#include <qpdf/QPDFCryptoProvider.hh>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

void write_hex(std::string const &digest, char *hex)
{
    static char const digits[] = "0123456789abcdef";
    size_t i = 0;
    for (unsigned char byte : digest) {
        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 15];
        ++i;
    }
    hex[2 * i] = '\0';
}

} // namespace

extern "C" int pe_sha256_fd(int fd, char *hex, long long *size)
{
    try {
        // Up to 1 MiB at a time, and no more than the file needs (a zeroed 1 MiB
        // buffer was 256 page faults, a tenth of a 20-page file's edit).
        size_t capacity = 1 << 20;
        struct stat status;
        if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size >= 0 &&
            static_cast<unsigned long long>(status.st_size) < capacity) {
            capacity = static_cast<size_t>(status.st_size) + 1; // + 1: the read that finds the end
        }
        std::unique_ptr<unsigned char, decltype(&std::free)> buffer(
            static_cast<unsigned char *>(std::malloc(capacity)), &std::free);
        if (!buffer) {
            return ENOMEM;
        }
        std::shared_ptr<QPDFCryptoImpl> sha = QPDFCryptoProvider::getImpl();
        sha->SHA2_init(256);
        long long total = 0;
        for (;;) {
            ssize_t got = read(fd, buffer.get(), capacity);
            if (got < 0) {
                if (errno == EINTR) {
                    continue;
                }
                return errno == 0 ? EIO : errno;
            }
            if (got == 0) {
                break;
            }
            sha->SHA2_update(buffer.get(), static_cast<size_t>(got));
            total += got;
        }
        sha->SHA2_finalize();
        write_hex(sha->SHA2_digest(), hex);
        if (size != nullptr) {
            *size = total;
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int pe_sha256_bytes(unsigned char const *bytes, size_t count, char *hex)
{
    try {
        std::shared_ptr<QPDFCryptoImpl> sha = QPDFCryptoProvider::getImpl();
        sha->SHA2_init(256);
        if (count > 0) {
            sha->SHA2_update(bytes, count);
        }
        sha->SHA2_finalize();
        write_hex(sha->SHA2_digest(), hex);
        return 0;
    } catch (...) {
        return -1;
    }
}
