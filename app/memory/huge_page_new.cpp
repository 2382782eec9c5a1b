// The global operator new and delete of Tokenscope's programs: malloc and free, with
// allocations of 8 MiB or more advised onto transparent huge pages.
//
// Why: Debian grants huge pages on request only (THP "madvise"), so a trace's
// vectors, strings and simdjson's structural index are filled 4 KiB at a time, and
// on the machines we measure first-touch page faults are a third of reading a
// trace: `info` on HTA's 35 MB control trace takes 11,000 faults. glibc gives the
// same advice with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (0.124 s -> 0.108 s on that
// trace, 3,200 faults), but a program cannot set a tunable for itself once started;
// replacing the global operator new (which the standard allows a program to do)
// reaches every allocation C++ makes. The cost is at most one partly used 2 MiB page
// at each end of a large block. It is the one place huge pages are asked for: the
// inflated trace and the JSON readers' buffers get them through it. Not under a
// sanitizer, whose runtime replaces these functions with its own checking ones.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TOKENSCOPE_KEEP_OPERATOR_NEW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define TOKENSCOPE_KEEP_OPERATOR_NEW 1
#endif
#endif

#ifndef TOKENSCOPE_KEEP_OPERATOR_NEW

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kAdviseFrom = std::size_t{8} << 20;

void* allocate(std::size_t bytes) noexcept {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p != nullptr && bytes >= kAdviseFrom) {
        // The whole huge pages inside the block; glibc serves blocks this large with
        // mmap, so nothing else shares them.
        const auto begin = reinterpret_cast<std::uintptr_t>(p);
        const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
        const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
        if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
    return p;
}

// What the standard asks of a throwing operator new: call the new-handler until the
// allocation succeeds, bad_alloc when there is none.
void* allocate_or_throw(std::size_t bytes) {
    for (;;) {
        if (void* p = allocate(bytes)) return p;
        std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) throw std::bad_alloc();
        handler();
    }
}

}  // namespace

void* operator new(std::size_t bytes) {
    return allocate_or_throw(bytes);
}
void* operator new[](std::size_t bytes) {
    return allocate_or_throw(bytes);
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
    return allocate(bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
    return allocate(bytes);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

#endif  // TOKENSCOPE_KEEP_OPERATOR_NEW
