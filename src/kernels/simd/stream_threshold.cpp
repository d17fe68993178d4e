#include "kernels/simd/stream_threshold.hpp"

#include <atomic>

#include <unistd.h>

namespace bcast::kernels {
namespace {

// 5/4 of the per-core L2 (see the header for the measurement); 2 MiB when
// the C library cannot tell.
std::size_t default_threshold() {
    long l2 = -1;
#if defined(_SC_LEVEL2_CACHE_SIZE)
    l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    const std::size_t bytes = l2 > 0 ? static_cast<std::size_t>(l2) : std::size_t{2} << 20;
    return bytes + bytes / 4;
}

std::atomic<std::size_t>& test_override() {
    static std::atomic<std::size_t> bytes{0};
    return bytes;
}

}  // namespace

std::size_t stream_threshold_bytes() {
    static const std::size_t measured = default_threshold();
    const std::size_t forced = test_override().load(std::memory_order_relaxed);
    return forced != 0 ? forced : measured;
}

void set_stream_threshold_bytes_for_testing(std::size_t bytes) {
    test_override().store(bytes, std::memory_order_relaxed);
}

}  // namespace bcast::kernels
