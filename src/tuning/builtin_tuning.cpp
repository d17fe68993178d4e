#include "tuning/builtin_tuning.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>

#include <unistd.h>

namespace bcast::tuning {
namespace {

// 5/4 of the per-core L2 (kernels/simd/stream_threshold.hpp has the
// measurement); 2 MiB when the C library cannot tell.
uint64_t one_thread_threshold() {
    long l2 = -1;
#if defined(_SC_LEVEL2_CACHE_SIZE)
    l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    const uint64_t bytes = l2 > 0 ? static_cast<uint64_t>(l2) : uint64_t{2} << 20;
    return bytes + bytes / 4;
}

// The last-level cache one core shares with its neighbours, as Linux's
// sysfs says (glibc's sysconf can report a whole socket: 256 MiB for a 2-vCPU
// Zen 3 guest whose L3 is 32 MiB); 0 when unknown.
uint64_t last_level_cache_bytes() {
    uint64_t bytes = 0;
    int best_level = 0;
    for (int index = 0; index < 8; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        std::ifstream level_file(dir + "level"), size_file(dir + "size");
        int level = 0;
        uint64_t size = 0;
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

// Where thresholds read from the LLC stop: a guest may misreport it, and
// past the real LLC cached stores lose about 1.4x to streaming ones.
constexpr uint64_t kLlcCap = uint64_t{32} << 20;

// Half the LLC (`llc` bytes, 0 if unknown), capped.
uint64_t split_threshold(uint64_t one_thread, uint64_t llc) {
    return std::max(one_thread, std::min(llc / 2, kLlcCap));
}

// x86 families by CPUID (vendor, display family, model range). Where one
// was measured it says how in docs/kernels.md; the prefetch hint is the only
// choice measured to differ between them so far.
struct FamilyRow {
    const char* name;
    const char* vendor;
    unsigned family, model_lo, model_hi;
};
constexpr FamilyRow kFamilies[] = {
    {"zen3", "AuthenticAMD", 0x19, 0x00, 0x0f},
    {"zen3", "AuthenticAMD", 0x19, 0x20, 0x2f},
    {"zen3", "AuthenticAMD", 0x19, 0x40, 0x5f},
    {"zen4", "AuthenticAMD", 0x19, 0x10, 0x1f},
    {"zen4", "AuthenticAMD", 0x19, 0x60, 0xaf},
    {"zen5", "AuthenticAMD", 0x1a, 0x00, 0xff},
    {"sapphire-rapids", "GenuineIntel", 0x6, 0x8f, 0x8f},
    {"emerald-rapids", "GenuineIntel", 0x6, 0xcf, 0xcf},
};

const char* family_name(const kernels::cpu::CpuFeatures& f) {
    for (const FamilyRow& row : kFamilies) {
        if (std::strcmp(f.vendor, row.vendor) == 0 && f.family == row.family &&
            f.model >= row.model_lo && f.model <= row.model_hi) {
            return row.name;
        }
    }
    if (f.intel) return "intel";
    if (std::strcmp(f.vendor, "AuthenticAMD") == 0) return "amd";
    return "other";
}

}  // namespace

Builtin builtin_tuning(const kernels::cpu::CpuFeatures& f) {
    return builtin_tuning(f, last_level_cache_bytes());
}

Builtin builtin_tuning(const kernels::cpu::CpuFeatures& f, uint64_t llc) {
    Builtin b;
    b.name = family_name(f);
    Tuning& t = b.tuning;
    // Both prefetches run 4 KiB ahead. Streamed repeated rows: the running
    // operand's loads, one per op, leave too few misses in flight to keep
    // memory busy; chains: their many ops per load do the same. Nearer is
    // too late, farther evicts more or gains nothing. Intel's non-temporal
    // prefetch loses its lines before the loads that wanted them (1.3x-2x on
    // Sapphire Rapids); locality 2 (t1) ran at the roofline there and leaves
    // L1 to the repeated row. AMD (Zen 3, Zen 4) ran as fast or faster with
    // nta.
    const PrefetchHint hint = f.intel ? PrefetchHint::t1 : PrefetchHint::nta;
    t.rows = Prefetch{hint, 4096};
    t.chain = Prefetch{hint, 4096};
    t.nt_min_bytes_1t = one_thread_threshold();
    t.nt_min_bytes_nt = split_threshold(t.nt_min_bytes_1t, llc);
    // One running input: the same, except on Zen 4, where two guests' tuner
    // runs put the crossover at 10-19 MiB touched on one thread (median 14.25
    // of five, L3 32 MiB) and 22-38 MiB split over two (median 32): 7/16 and
    // 7/8 of the LLC (docs/kernels.md, "One running input").
    t.nt_min_bytes_1t_one_input = t.nt_min_bytes_1t;
    t.nt_min_bytes_nt_one_input = t.nt_min_bytes_nt;
    if (std::strcmp(b.name, "zen4") == 0 && llc > 0) {
        t.nt_min_bytes_1t_one_input = std::max(t.nt_min_bytes_1t, std::min(llc / 16 * 7, kLlcCap));
        t.nt_min_bytes_nt_one_input = std::max(t.nt_min_bytes_nt, std::min(llc / 8 * 7, 2 * kLlcCap));
    }
    // Ops split from 256 KiB moved: two tasks of 144 KiB or more beat one
    // where measured (Zen 5, Emerald Rapids), two of 96 KiB lost
    // (docs/kernels.md, "Tuning").
    t.task_min_bytes = 128 * 1024;
    // Blocks of 1024: 256 and 512 paid the per-block calls, 4096 gained
    // nothing (Zen 3 and Xeon, docs/fusion.md).
    t.chain_block = 1024;
    return b;
}

}  // namespace bcast::tuning
