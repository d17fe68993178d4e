#include "aligned_buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bench {
namespace {

constexpr std::size_t kCacheLine = 64;
// Like numpy's allocator, large arrays ask for transparent huge pages, so that
// bcast and numpy (compare_numpy.py) see the same TLB behaviour. 2 MiB
// alignment lets the kernel back the whole buffer with huge pages.
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugePageFrom = std::size_t{4} << 20;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

AlignedBuffer::AlignedBuffer(std::size_t bytes) : bytes_(bytes) {
    const bool huge = bytes >= kHugePageFrom;
    const std::size_t alignment = huge ? kHugePage : kCacheLine;
    const std::size_t size = round_up(bytes > 0 ? bytes : 1, alignment);
    data_ = std::aligned_alloc(alignment, size);
    if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) (void)madvise(data_, size, MADV_HUGEPAGE);  // a hint; failure is harmless
#endif
    std::memset(data_, 0, size);  // touches every page
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
        std::free(data_);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

}  // namespace bench
