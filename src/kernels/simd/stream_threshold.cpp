#include "kernels/simd/stream_threshold.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>

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

// The last-level cache one core shares with its neighbours, as Linux's
// sysfs says (glibc's sysconf can report a whole socket: 256 MiB for a 2-vCPU
// Zen 3 guest whose L3 is 32 MiB); 0 when unknown.
std::size_t last_level_cache_bytes() {
    std::size_t bytes = 0;
    int best_level = 0;
    for (int index = 0; index < 8; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        std::ifstream level_file(dir + "level"), size_file(dir + "size");
        int level = 0;
        std::size_t size = 0;
        std::string unit;
        if (!(level_file >> level) || !(size_file >> size)) break;
        size_file >> unit;  // "32768K"
        if (!unit.empty() && (unit[0] == 'K' || unit[0] == 'k')) size <<= 10;
        if (!unit.empty() && (unit[0] == 'M' || unit[0] == 'm')) size <<= 20;
        if (level >= best_level) {
            best_level = level;
            bytes = size;
        }
    }
    return best_level >= 2 ? bytes : 0;
}

// Half the LLC, capped (a guest may misreport it; past the real LLC cached
// stores lose about 1.4x to streaming ones).
std::size_t split_default_threshold() {
    constexpr std::size_t kCap = std::size_t{32} << 20;
    const std::size_t half = std::min(last_level_cache_bytes() / 2, kCap);
    return std::max(default_threshold(), half);
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

std::size_t split_stream_threshold_bytes() {
    static const std::size_t measured = split_default_threshold();
    const std::size_t forced = test_override().load(std::memory_order_relaxed);
    return forced != 0 ? forced : measured;
}

void set_stream_threshold_bytes_for_testing(std::size_t bytes) {
    test_override().store(bytes, std::memory_order_relaxed);
}

}  // namespace bcast::kernels
