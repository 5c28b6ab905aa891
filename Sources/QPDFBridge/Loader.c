/* Loads QPDFCore, pdfedit's libqpdf code, as libpdfedit-qpdf.so when the pdfedit
 * command first calls one of its functions (Forwarders.c), so that commands that
 * never open a PDF (`--version`, `--help`, a session's `list`, `move`, `undo`)
 * start without mapping and relocating libqpdf and the dozen libraries it
 * brings (gnutls, p11-kit, nettle, gmp, libjpeg…): about 5 ms of each such
 * start on the machines measured. Programs that link QPDFCore in (the tests, the
 * kit's users) never come here: its functions replace the forwarders.
 *
 * The library is looked for beside the executable (the build folder), then in
 * ../lib/pdfedit/ (where `make install` and the Debian package put it). It binds
 * C++'s operator new and delete to the executable's (Allocator.cpp), which the
 * release link exports for it (scripts/build-release.sh). */
#include "Loader.h"
#include "QPDFBridge.h"

#include <qpdf/DLL.h>

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CORE_NAME "libpdfedit-qpdf.so"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *_Atomic handle;
static void (*_Atomic cancel_function)(void);
static atomic_int deferred_depth;          /* 0: not set */
static atomic_int deferred_keep = -1;      /* -1: not set */

static void fail(const char *what, const char *detail)
{
    /* One line on standard error, as every pdfedit error; 69: a service is unavailable. */
    dprintf(2, "pdfedit: cannot load %s (%s); reinstall pdfedit, or run `make build` in its source folder\n", what,
            detail != NULL ? detail : "not found");
    _exit(69);
}

/* The folder of the running executable, into `folder` (empty when unknown). */
static void executable_folder(char *folder, size_t size)
{
    folder[0] = '\0';
    ssize_t length = readlink("/proc/self/exe", folder, size - 1);
    if (length <= 0) {
        folder[0] = '\0';
        return;
    }
    folder[length] = '\0';
    char *slash = strrchr(folder, '/');
    if (slash != NULL) {
        *slash = '\0';
    }
}

static void load(void)
{
    char folder[PATH_MAX];
    executable_folder(folder, sizeof folder);
    const char *const places[2] = {"%s/" CORE_NAME, "%s/../lib/pdfedit/" CORE_NAME};
    char first_error[512] = "";
    void *loaded = NULL;
    for (int i = 0; i < 2 && loaded == NULL; ++i) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, places[i], folder);
        /* Lazy: libqpdf and its libraries bind a function at its first call, as
         * when they were loaded at start (RTLD_NOW bound all of them: 1.3M more
         * instructions for a tracemonkey rotate). The library itself is linked
         * with -z now, so a symbol it lacks fails here, not mid-command. */
        loaded = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
        if (loaded == NULL && first_error[0] == '\0') {
            const char *error = dlerror();
            snprintf(first_error, sizeof first_error, "%s", error != NULL ? error : path);
        }
    }
    if (loaded == NULL) {
        fail(CORE_NAME, first_error);
    }
    int depth = atomic_load(&deferred_depth);
    if (depth > 0) {
        void (*set_depth)(int) = (void (*)(int))dlsym(loaded, "pe_set_tree_depth_limit");
        if (set_depth != NULL) {
            set_depth(depth);
        }
    }
    int keep = atomic_load(&deferred_keep);
    if (keep >= 0) {
        void (*set_keep)(int) = (void (*)(int))dlsym(loaded, "pe_keep_closed_documents");
        if (set_keep != NULL) {
            set_keep(keep);
        }
    }
    atomic_store(&cancel_function, (void (*)(void))dlsym(loaded, "pe_cancel"));
    atomic_store(&handle, loaded);
}

void *pe_core_symbol(const char *name)
{
    pthread_once(&once, load);
    void *function = dlsym(atomic_load(&handle), name);
    if (function == NULL) {
        fail(name, dlerror());
    }
    return function;
}

void *pe_core_symbol_if_loaded(const char *name)
{
    void *loaded = atomic_load(&handle);
    return loaded == NULL ? NULL : dlsym(loaded, name);
}

void pe_core_cancel(void)
{
    void (*cancel)(void) = atomic_load(&cancel_function);
    if (cancel != NULL) {
        cancel();
    }
}

void pe_core_defer_depth_limit(int levels)
{
    atomic_store(&deferred_depth, levels);
}

void pe_core_defer_keep_closed(int keep)
{
    atomic_store(&deferred_keep, keep);
}

const char *pe_qpdf_built_version(void)
{
    return QPDF_VERSION;
}
