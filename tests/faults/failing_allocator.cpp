#include "faults/failing_allocator.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace faults {
namespace {

// One test thread arms the counter; other threads (none here) would count too.
bool g_armed = false;
int64_t g_fail_at = 0;
AllocationCount g_count;

// True if this allocation must fail.
bool must_fail() {
    if (!g_armed) return false;
    ++g_count.calls;
    if (g_fail_at != 0 && g_count.calls == g_fail_at) {
        g_count.failed = true;
        return true;
    }
    return false;
}

// Only the throwing forms count and fail: a nothrow allocation's caller has
// its own way out (std::stable_sort's buffer falls back to sorting in place).
void* allocate(std::size_t size, std::size_t alignment, bool nothrow) {
    void* p = nullptr;
    if (nothrow || !must_fail()) {
        if (size == 0) size = 1;
        if (alignment <= alignof(std::max_align_t)) {
            p = std::malloc(size);
        } else {
            size = (size + alignment - 1) / alignment * alignment;
            p = std::aligned_alloc(alignment, size);
        }
    }
    if (!p && !nothrow) throw std::bad_alloc();
    return p;
}

}  // namespace

void arm(int64_t fail_at) {
    g_count = AllocationCount{};
    g_fail_at = fail_at;
    g_armed = true;
}

AllocationCount disarm() {
    g_armed = false;
    return g_count;
}

}  // namespace faults

// Every replaceable form, so that no sanitizer runtime's own definition is
// linked in beside these.
using faults::allocate;
constexpr std::size_t kPlain = alignof(std::max_align_t);

void* operator new(std::size_t n) { return allocate(n, kPlain, false); }
void* operator new[](std::size_t n) { return allocate(n, kPlain, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, kPlain, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, kPlain, true); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, static_cast<std::size_t>(a), false); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, static_cast<std::size_t>(a), false); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(n, static_cast<std::size_t>(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(n, static_cast<std::size_t>(a), true);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
