/* pe_sha256_fd: SHA-256 of a file with nettle (libnettle.so.8, loaded with
 * dlopen on the first call; on Debian it picks the CPU's SHA instructions where
 * there are some), so that a command that checks its sources (`list`, `status`)
 * needs neither libqpdf nor GnuTLS, which used to hash them. Every source is
 * hashed when it is imported and again before each export. Without nettle it
 * returns -1 and the caller hashes with GLib (Fingerprint.swift). */
#include "QPDFBridge.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* nettle's struct sha256_ctx (108 bytes in nettle 3), held opaquely; its three
 * functions as libnettle.so.8 exports them. */
typedef struct {
    _Alignas(16) unsigned char bytes[256];
} sha256_context;
typedef void (*sha256_init_fn)(sha256_context *);
typedef void (*sha256_update_fn)(sha256_context *, size_t, const uint8_t *);
typedef void (*sha256_digest_fn)(sha256_context *, size_t, uint8_t *);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static sha256_init_fn sha256_init;
static sha256_update_fn sha256_update;
static sha256_digest_fn sha256_digest;

static void load_nettle(void)
{
    void *nettle = dlopen("libnettle.so.8", RTLD_NOW | RTLD_LOCAL);
    if (nettle == NULL) {
        return;
    }
    sha256_init_fn init = (sha256_init_fn)dlsym(nettle, "nettle_sha256_init");
    sha256_update_fn update = (sha256_update_fn)dlsym(nettle, "nettle_sha256_update");
    sha256_digest_fn digest = (sha256_digest_fn)dlsym(nettle, "nettle_sha256_digest");
    if (init != NULL && update != NULL && digest != NULL) {
        sha256_init = init;
        sha256_update = update;
        sha256_digest = digest;
    }
}

int pe_sha256_fd(int fd, char *hex, long long *size)
{
    pthread_once(&once, load_nettle);
    if (sha256_init == NULL) {
        return -1;
    }
    /* Up to 1 MiB at a time, not zero-filled, and no more than the file needs
     * (a zeroed 1 MiB buffer was 256 page faults, a tenth of a 20-page file's edit). */
    size_t capacity = 1 << 20;
    struct stat status;
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size >= 0 &&
        (unsigned long long)status.st_size < capacity) {
        capacity = (size_t)status.st_size + 1; /* + 1: the read that finds the end */
    }
    unsigned char *buffer = malloc(capacity);
    if (buffer == NULL) {
        return ENOMEM;
    }
    sha256_context context;
    sha256_init(&context);
    long long total = 0;
    for (;;) {
        ssize_t got = read(fd, buffer, capacity);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            int error = errno == 0 ? EIO : errno;
            free(buffer);
            return error;
        }
        if (got == 0) {
            break;
        }
        sha256_update(&context, (size_t)got, buffer);
        total += got;
    }
    free(buffer);
    uint8_t digest[32];
    sha256_digest(&context, sizeof digest, digest);
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof digest; ++i) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[64] = '\0';
    if (size != NULL) {
        *size = total;
    }
    return 0;
}
