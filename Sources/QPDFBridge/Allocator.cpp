// How C++ memory is handed out, for the way qpdf uses it: millions of small
// objects (values, their shared_ptr blocks, map nodes), made and freed in bursts.
//
// operator new and delete (replaced for the whole process: libqpdf's and
// libstdc++'s calls bind to these, the executable's): blocks of up to 256 bytes,
// in 16 size classes of 16 bytes, come from a region of address space reserved
// once (4 GB, never committed up front: a page costs memory when first
// written). The region is cut into 64 KB spans, each of one class; a thread takes
// a span at a time and hands out its blocks in order, and a deleted block goes
// on a list of the thread that deletes it for the next new of its class. A
// thread's lists and the rest of its spans go to a shared pool when it ends
// (a pthread key's destructor), where other threads take them; what it makes
// after that, in later destructors, comes from malloc. A thread that deletes
// what others made keeps the blocks until it makes objects of their size or
// ends. Whether a block is the region's is a subtraction and a compare; its
// class is its span's, in a table. Everything larger, and everything when the
// region cannot be reserved (an address-space limit, `ulimit -v`), goes to
// malloc and free. No fork handler: pdfedit never forks (a program using the
// kit that forks while another thread ends must only exec in the child).
//
// Why: qpdf makes millions of small objects (values, their shared_ptr blocks,
// map nodes). Through glibc each new took about 190 instructions on a real
// book's export (its bins sorted on every call once frees had filled them) and
// each delete asked malloc_usable_size; a block from a span takes a few, and
// has no 8-byte header (a 32-byte request takes 32 bytes, not 48). The region's
// memory is reused for small blocks only and not given back to the system
// before the process ends.
// Sanitizer builds keep the sanitizer's own new and delete.
#include "QPDFBridge.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <new>
#include <pthread.h>
#include <sys/mman.h>

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

constexpr size_t kClasses = 16;                // blocks of 16, 32, ... 256 bytes: class k holds 16k
constexpr size_t kLargestBlock = kClasses * 16;
constexpr unsigned kSpanShift = 16;            // spans of 64 KB
constexpr size_t kSpanBytes = size_t(1) << kSpanShift;
constexpr size_t kRegionBytes = size_t(1) << 32;
constexpr size_t kSpans = kRegionBytes >> kSpanShift;

struct FreeBlock {
    FreeBlock *next;
};

// The unused rest of a span, written at its start while it waits in the pool
// (a rest is at least one block, 16 bytes or more).
struct SpanRest {
    char *end;
    SpanRest *next;
};

// The region's start. Until it is reserved, a value no pointer minus it is below
// kRegionBytes (the top 4 GB of the address space are the kernel's), so no
// block is taken for the region's; written once, before any block of it exists.
std::atomic<uintptr_t> region_start{uintptr_t(0) - kRegionBytes};
std::atomic<size_t> spans_taken{0};
// The class of each span handed out, written before its first block is: a
// thread deleting a block got it through whatever made it visible, after.
unsigned char span_class[kSpans];

pthread_once_t region_reserved = PTHREAD_ONCE_INIT;

void reserve_region()
{
    void *start = mmap(
        nullptr, kRegionBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (start != MAP_FAILED) {
        region_start.store(reinterpret_cast<uintptr_t>(start), std::memory_order_release);
    }
}

inline bool in_region(void const *pointer, uintptr_t &offset)
{
    offset = reinterpret_cast<uintptr_t>(pointer) - region_start.load(std::memory_order_relaxed);
    return offset < kRegionBytes;
}

// Zero-initialised, trivially destructible: usable from any thread at any time,
// also while the thread ends (no guard to ask on each use). Index 0 unused.
enum ThreadState : unsigned char {
    fresh,      // give_to_pool is not yet set to run when the thread ends
    registered, // it is
    ended,      // it ran, or cannot be set: new small blocks come from malloc,
                // deleted ones of the region go to the pool
};

struct ThreadLists {
    FreeBlock *head[kClasses + 1];
    char *next[kClasses + 1]; // the next block of the current span
    char *end[kClasses + 1];  // where that span ends
    size_t spans;             // spans taken new from the region
    ThreadState state;
};

thread_local ThreadLists lists [[gnu::tls_model("initial-exec")]];

// What ended threads left: their lists, and the unused rests of their spans.
struct Pool {
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    FreeBlock *head[kClasses + 1] = {};
    std::atomic<bool> any[kClasses + 1] = {};
    SpanRest *rests[kClasses + 1] = {};
};

[[clang::require_constant_initialization]] Pool pool;

// A thread's lists and span rests go to the pool when it ends (the key's destructor).
void give_to_pool(void *)
{
    ThreadLists &mine = lists;
    mine.state = ended;
    pthread_mutex_lock(&pool.lock);
    for (size_t k = 1; k <= kClasses; ++k) {
        if (FreeBlock *first = mine.head[k]) {
            FreeBlock *last = first;
            while (last->next != nullptr) {
                last = last->next;
            }
            last->next = pool.head[k];
            pool.head[k] = first;
            pool.any[k].store(true, std::memory_order_relaxed);
        }
        if (mine.next[k] != nullptr && mine.end[k] - mine.next[k] >= static_cast<ptrdiff_t>(k << 4)) {
            auto rest = reinterpret_cast<SpanRest *>(mine.next[k]);
            rest->end = mine.end[k];
            rest->next = pool.rests[k];
            pool.rests[k] = rest;
            pool.any[k].store(true, std::memory_order_relaxed);
        }
        mine.head[k] = nullptr;
        mine.next[k] = mine.end[k] = nullptr;
    }
    pthread_mutex_unlock(&pool.lock);
}

pthread_key_t end_key;
bool end_key_made_ok = false;
pthread_once_t end_key_made = PTHREAD_ONCE_INIT;

void make_end_key()
{
    end_key_made_ok = pthread_key_create(&end_key, give_to_pool) == 0;
}

// Has give_to_pool run when this thread ends (a thread's key destructor runs
// when its value is not null), before the thread keeps any block. Where that
// cannot be (no key left, no memory for the value), the thread is taken as
// ended: its small blocks come from malloc and the region's it deletes go to
// the pool at once.
void register_thread(ThreadLists &mine)
{
    pthread_once(&end_key_made, make_end_key);
    static char armed;
    mine.state = end_key_made_ok && pthread_setspecific(end_key, &armed) == 0 ? registered : ended;
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

// Refills class k of this thread: the pool's list, else a rest of a span, else
// a new span. False when the region is full or was never reserved, and for a
// thread whose lists went to the pool (it is ending: what it took now would
// never reach the pool) or that cannot have them go there (register_thread).
[[gnu::noinline]] bool refill(ThreadLists &mine, size_t k)
{
    if (mine.state == fresh) {
        register_thread(mine);
    }
    if (mine.state == ended) {
        return false;
    }
    if (pool.any[k].load(std::memory_order_relaxed)) {
        pthread_mutex_lock(&pool.lock);
        bool found = false;
        if (pool.head[k] != nullptr) {
            mine.head[k] = pool.head[k];
            pool.head[k] = nullptr;
            found = true;
        } else if (SpanRest *rest = pool.rests[k]) {
            pool.rests[k] = rest->next;
            mine.next[k] = reinterpret_cast<char *>(rest);
            mine.end[k] = rest->end;
            found = true;
        }
        pool.any[k].store(pool.head[k] != nullptr || pool.rests[k] != nullptr, std::memory_order_relaxed);
        pthread_mutex_unlock(&pool.lock);
        if (found) {
            return true;
        }
    }
    pthread_once(&region_reserved, reserve_region);
    uintptr_t start = region_start.load(std::memory_order_acquire);
    if (start + kRegionBytes == 0) {
        return false; // not reserved
    }
    size_t span = spans_taken.fetch_add(1, std::memory_order_relaxed);
    if (span >= kSpans) {
        return false;
    }
    span_class[span] = static_cast<unsigned char>(k);
    ++mine.spans;
    mine.next[k] = reinterpret_cast<char *>(start + (span << kSpanShift));
    mine.end[k] = mine.next[k] + kSpanBytes;
    return true;
}

// A block of class k from this thread's list, else from its span; null when both are empty.
[[gnu::always_inline]] inline void *take(ThreadLists &mine, size_t k)
{
    if (FreeBlock *block = mine.head[k]) {
        mine.head[k] = block->next;
        return block;
    }
    size_t bytes = k << 4;
    if (mine.end[k] - mine.next[k] >= static_cast<ptrdiff_t>(bytes)) {
        void *block = mine.next[k];
        mine.next[k] += bytes;
        return block;
    }
    return nullptr;
}

// Class k's list and span are empty: refills them and takes a block, else malloc.
[[gnu::noinline]] void *allocate_slow(size_t size, size_t k)
{
    ThreadLists &mine = lists;
    while (refill(mine, k)) {
        if (void *block = take(mine, k)) {
            return block;
        }
    }
    return allocate_new(size);
}

inline void *allocate(size_t size)
{
    if (size > kLargestBlock) {
        return allocate_new(size);
    }
    size_t k = (size + 15 + (size == 0)) >> 4;
    if (void *block = take(lists, k)) {
        return block;
    }
    return allocate_slow(size, k);
}

[[gnu::noinline]] void give_one_to_pool(FreeBlock *block, size_t k)
{
    pthread_mutex_lock(&pool.lock);
    block->next = pool.head[k];
    pool.head[k] = block;
    pool.any[k].store(true, std::memory_order_relaxed);
    pthread_mutex_unlock(&pool.lock);
}

// A block of the region deleted on a thread that is not registered: one that
// has never kept a block, or one that is ending.
[[gnu::noinline]] void release_slow(FreeBlock *block, size_t k)
{
    ThreadLists &mine = lists;
    if (mine.state == fresh) {
        register_thread(mine);
    }
    if (mine.state == ended) {
        give_one_to_pool(block, k);
        return;
    }
    block->next = mine.head[k];
    mine.head[k] = block;
}

inline void release(void *pointer)
{
    uintptr_t offset;
    if (!in_region(pointer, offset)) {
        std::free(pointer);
        return;
    }
    size_t k = span_class[offset >> kSpanShift];
    FreeBlock *block = static_cast<FreeBlock *>(pointer);
    ThreadLists &mine = lists;
    if (mine.state != registered) {
        release_slow(block, k);
        return;
    }
    block->next = mine.head[k];
    mine.head[k] = block;
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
    for (size_t k = 1; k <= kClasses; ++k) {
        for (FreeBlock *block = lists.head[k]; block != nullptr; block = block->next) {
            total += k << 4;
        }
    }
    return total;
}

size_t pe_allocator_thread_spans(void)
{
    return lists.spans;
}

size_t pe_allocator_region_bytes(void)
{
    size_t spans = spans_taken.load(std::memory_order_relaxed);
    return (spans < kSpans ? spans : kSpans) << kSpanShift;
}

int pe_allocator_probe(size_t size)
{
    void *block = ::operator new(size);
    uintptr_t offset;
    int owned = in_region(block, offset) ? 1 : 0;
    ::operator delete(block);
    return owned;
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

size_t pe_allocator_region_bytes(void)
{
    return 0;
}

size_t pe_allocator_thread_spans(void)
{
    return 0;
}

int pe_allocator_probe(size_t)
{
    return 0;
}

int pe_allocator_replaced(void)
{
    return -1;
}

#endif
