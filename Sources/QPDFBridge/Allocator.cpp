// How C++ memory is handed out, for the way qpdf uses it: millions of small
// objects (values, their shared_ptr blocks, map nodes), made and freed in bursts.
//
// tune_allocator: glibc malloc settings. A 20,000-page export makes and frees
// millions of small objects; with glibc's fastbins on, a tenth of its time went to
// malloc_consolidate and unlink_chunk. Without them (M_MXFAST 0) the same export
// takes 5-10% less time for the same peak memory. Process-wide and harmless for
// the rest of the program; set once, before the bridge's first qpdf object.
//
// operator new and delete (replaced for the whole process: libqpdf's and
// libstdc++'s calls bind to these, the executable's): a block of up to 256 bytes
// that is deleted is kept on a list of its thread for the next new of its size,
// up to 16 KB of blocks of each size; everything else goes to malloc and free.
// glibc keeps 7 blocks of a size per thread (its tcache) and takes the rest
// through its bins, about 100 instructions a call: destroying one output of a
// split frees some 700 objects at once, and malloc and free were a quarter of a
// 2,000-part split's instructions. Blocks come from malloc, so whatever frees
// one (another thread, free itself) is right, and malloc_usable_size says which
// list a deleted block belongs to. A thread's blocks are freed when it ends.
// Sanitizer builds keep the sanitizer's own new and delete.
#include "Export.hh"
#include "QPDFBridge.h"

#include <cstdlib>
#include <dlfcn.h>
#include <malloc.h>
#include <mutex>
#include <new>
#include <pthread.h>

namespace pe {

void tune_allocator()
{
    static std::once_flag once;
    std::call_once(once, [] { mallopt(M_MXFAST, 0); });
}

} // namespace pe

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PDFEDIT_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PDFEDIT_SANITIZED 1
#endif

#ifndef PDFEDIT_SANITIZED

namespace {

// Lists by size in steps of 16 bytes: list k holds blocks whose usable size is
// at least 16k - 8, which is what any request of glibc's chunk size 16k needs.
constexpr size_t kLists = 17;              // chunk sizes up to 256 bytes
constexpr size_t kLargestRequest = 256 - 8; // the largest request they serve
constexpr size_t kBytesPerList = 16 * 1024;

struct FreeBlock {
    FreeBlock *next;
};

// Zero-initialised, trivially destructible: usable from any thread at any time,
// also while the thread ends (no guard to ask on each use).
struct ThreadLists {
    FreeBlock *head[kLists];
    size_t bytes[kLists];
    bool flushing; // the thread is ending: no more blocks are kept
    bool flush_registered;
};

thread_local ThreadLists lists [[gnu::tls_model("initial-exec")]];

// Frees the thread's kept blocks when it ends (the key's destructor).
void flush_lists(void *)
{
    lists.flushing = true;
    for (size_t k = 0; k < kLists; ++k) {
        FreeBlock *block = lists.head[k];
        while (block != nullptr) {
            FreeBlock *next = block->next;
            std::free(block);
            block = next;
        }
        lists.head[k] = nullptr;
        lists.bytes[k] = 0;
    }
}

pthread_key_t flush_key;
pthread_once_t flush_key_made = PTHREAD_ONCE_INIT;

void make_flush_key()
{
    pthread_key_create(&flush_key, flush_lists);
}

// Has flush_lists run when this thread ends: a thread's key destructor runs
// when its value is not null.
void flush_when_thread_ends()
{
    pthread_once(&flush_key_made, make_flush_key);
    static char armed;
    pthread_setspecific(flush_key, &armed);
}

// glibc's chunk size for a request, over 16: the list that serves it.
inline size_t list_for_request(size_t size)
{
    size_t chunk = size + 8 + 15 < 32 ? 32 : (size + 8 + 15) & ~size_t(15);
    return chunk >> 4;
}

[[gnu::noinline]] void *allocate_new(size_t size)
{
    for (;;) {
        if (void *block = std::malloc(size == 0 ? 1 : size)) {
            return block;
        }
        std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) {
            throw std::bad_alloc();
        }
        handler();
    }
}

inline void *allocate(size_t size)
{
    if (size <= kLargestRequest) {
        size_t k = list_for_request(size);
        ThreadLists &mine = lists;
        if (FreeBlock *block = mine.head[k]) {
            mine.head[k] = block->next;
            mine.bytes[k] -= k << 4;
            return block;
        }
    }
    return allocate_new(size);
}

[[gnu::noinline]] void keep_or_free(void *pointer, size_t k)
{
    ThreadLists &mine = lists;
    if (k < kLists && !mine.flushing && mine.bytes[k] + (k << 4) <= kBytesPerList) {
        if (!mine.flush_registered) {
            mine.flush_registered = true;
            flush_when_thread_ends();
        }
        FreeBlock *block = static_cast<FreeBlock *>(pointer);
        block->next = mine.head[k];
        mine.head[k] = block;
        mine.bytes[k] += k << 4;
        return;
    }
    std::free(pointer);
}

inline void release(void *pointer)
{
    if (pointer == nullptr) {
        return;
    }
    size_t k = (malloc_usable_size(pointer) + 8) >> 4;
    if (k >= kLists) {
        std::free(pointer);
        return;
    }
    keep_or_free(pointer, k);
}

} // namespace

void *operator new(size_t size)
{
    return allocate(size);
}

void *operator new[](size_t size)
{
    return allocate(size);
}

void *operator new(size_t size, std::nothrow_t const &) noexcept
{
    try {
        return allocate(size);
    } catch (...) {
        return nullptr;
    }
}

void *operator new[](size_t size, std::nothrow_t const &) noexcept
{
    try {
        return allocate(size);
    } catch (...) {
        return nullptr;
    }
}

void operator delete(void *pointer) noexcept
{
    release(pointer);
}

void operator delete[](void *pointer) noexcept
{
    release(pointer);
}

void operator delete(void *pointer, size_t) noexcept
{
    release(pointer);
}

void operator delete[](void *pointer, size_t) noexcept
{
    release(pointer);
}

void operator delete(void *pointer, std::nothrow_t const &) noexcept
{
    release(pointer);
}

void operator delete[](void *pointer, std::nothrow_t const &) noexcept
{
    release(pointer);
}

size_t pe_allocator_kept_bytes(void)
{
    size_t total = 0;
    for (size_t k = 0; k < kLists; ++k) {
        total += lists.bytes[k];
    }
    return total;
}

size_t pe_allocator_kept_limit(void)
{
    return kLists * kBytesPerList;
}

int pe_allocator_replaced(void)
{
    // What libqpdf's and libstdc++'s calls bind to: the first definition in the
    // process's global scope.
    void *bound = dlsym(RTLD_DEFAULT, "_Znwm");
    void *(*ours)(size_t) = &::operator new;
    return bound == reinterpret_cast<void *>(ours) ? 1 : 0;
}

#else

size_t pe_allocator_kept_bytes(void)
{
    return 0;
}

size_t pe_allocator_kept_limit(void)
{
    return 0;
}

int pe_allocator_replaced(void)
{
    return -1;
}

#endif
