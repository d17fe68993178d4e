#include "kernels/simd/stream_threshold.hpp"

#include "tuning/active_tuning.hpp"

#include <atomic>

namespace bcast::kernels {
namespace {

std::atomic<std::size_t>& test_override() {
    static std::atomic<std::size_t> bytes{0};
    return bytes;
}

// The tuning's value unless a test forced one.
std::size_t threshold(uint64_t tuned) {
    const std::size_t forced = test_override().load(std::memory_order_relaxed);
    return forced != 0 ? forced : static_cast<std::size_t>(tuned);
}

}  // namespace

std::size_t stream_threshold_bytes(bool one_input) {
    const auto& t = ::bcast::tuning::active();
    return threshold(one_input ? t.nt_min_bytes_1t_one_input : t.nt_min_bytes_1t);
}

std::size_t split_stream_threshold_bytes(bool one_input) {
    const auto& t = ::bcast::tuning::active();
    return threshold(one_input ? t.nt_min_bytes_nt_one_input : t.nt_min_bytes_nt);
}

void set_stream_threshold_bytes_for_testing(std::size_t bytes) {
    test_override().store(bytes, std::memory_order_relaxed);
}

}  // namespace bcast::kernels
