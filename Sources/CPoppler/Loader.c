/* Loads poppler-glib, cairo, gobject and GLib with dlopen when a command first
 * calls one of their functions (Functions.c), so that commands that never render
 * or read text start without mapping them and their own dependencies (about 70
 * libraries, several milliseconds of every start). The packaged binary still
 * depends on them (the Debian package lists them). */
#include "Loader.h"
#include "include/CPopplerLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The sonames of the libraries' current ABI (Debian 12: libpoppler-glib8, libcairo2, libglib2.0-0). */
static const char *const sonames[4] = {
    "libpoppler-glib.so.8",
    "libcairo.so.2",
    "libgobject-2.0.so.0",
    "libglib-2.0.so.0",
};

static void *handles[4];
static pthread_once_t once[4] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static const char *load_error[4];

static void fail(const char *what, const char *detail)
{
    /* One line on standard error, as every pdfedit error; 69: a service is unavailable. */
    dprintf(2, "pdfedit: cannot load %s (%s); install the package that provides it (Debian: libpoppler-glib8, libcairo2)\n",
            what, detail != NULL ? detail : "not found");
    _exit(69);
}

#define LOADER(n)                                                            \
    static void load_##n(void)                                               \
    {                                                                        \
        handles[n] = dlopen(sonames[n], RTLD_NOW | RTLD_GLOBAL);             \
        if (handles[n] == NULL) {                                            \
            load_error[n] = dlerror();                                       \
        }                                                                    \
    }
LOADER(0)
LOADER(1)
LOADER(2)
LOADER(3)
static void (*const loaders[4])(void) = {load_0, load_1, load_2, load_3};

static void *library(int which)
{
    pthread_once(&once[which], loaders[which]);
    if (handles[which] == NULL) {
        fail(sonames[which], load_error[which]);
    }
    return handles[which];
}

void *pe_render_symbol(int which, const char *name)
{
    if (which < 0 || which > 3) {
        fail("a rendering library", name);
    }
    void *found = dlsym(library(which), name);
    if (found == NULL) {
        fail(sonames[which], name);
    }
    return found;
}

int pe_render_libraries_loaded(void)
{
    for (int which = 0; which < 4; ++which) {
        void *handle = dlopen(sonames[which], RTLD_NOW | RTLD_NOLOAD);
        if (handle != NULL) {
            dlclose(handle);
            return 1;
        }
    }
    return 0;
}
