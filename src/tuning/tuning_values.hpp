// The choices bcast's kernels and planner make that a host may want other
// than the built-in defaults (docs/kernels.md, "Tuning"), and what a tuning
// is keyed by. Plain data, no library code: the `bcast` CLI compiles the
// text format (tuning_text.cpp) against this header too.
#pragma once

#include <cstdint>
#include <string>

namespace bcast::tuning {

// The reader takes exactly this format; a file of another one is ignored.
constexpr int64_t kFormat = 1;
// Bumped when the walkers change enough to void old measurements.
constexpr int64_t kKernelGen = 1;

// Software prefetch locality: none, or __builtin_prefetch's 0 (nta) to 3 (t0).
enum class PrefetchHint : uint8_t { none, nta, t2, t1, t0 };

struct Prefetch {
    PrefetchHint hint = PrefetchHint::nta;
    uint64_t distance = 4096;  // bytes ahead of the load it serves
};

struct Tuning {
    Prefetch rows;   // streamed rows that repeat the other operand's row
    Prefetch chain;  // streamed fused-chain kernels, per running operand
    // Plans stream their stores from this many bytes touched: run on one
    // thread, and split into tasks. The one_input pair serves ops whose
    // output is at least 2/5 of the bytes they touch (one running input: a
    // + scalar, a per-channel row, an expand): their cached stores keep
    // up with streaming ones longer, as the stores are their larger share.
    // A file that sets a pair's first value and not its one_input one
    // gives both the first.
    uint64_t nt_min_bytes_1t = 0;
    uint64_t nt_min_bytes_nt = 0;
    uint64_t nt_min_bytes_1t_one_input = 0;
    uint64_t nt_min_bytes_nt_one_input = 0;
    // Work per task (bytes moved, weighted by op cost) below which an op
    // is not split further.
    uint64_t task_min_bytes = 0;
    // Elements per block where a fused expression runs block by block
    // (its steps through scratch slots, patterns, gathered reads): each
    // block costs every step a kernel call, a longer one pushes the
    // intermediates out of L1. Rounded down to a multiple of 64; the
    // 32 KiB scratch bounds it further.
    uint64_t chain_block = 1024;
};

inline bool operator==(const Prefetch& a, const Prefetch& b) {
    return a.hint == b.hint && a.distance == b.distance;
}
inline bool operator==(const Tuning& a, const Tuning& b) {
    return a.rows == b.rows && a.chain == b.chain && a.nt_min_bytes_1t == b.nt_min_bytes_1t &&
           a.nt_min_bytes_nt == b.nt_min_bytes_nt && a.nt_min_bytes_1t_one_input == b.nt_min_bytes_1t_one_input &&
           a.nt_min_bytes_nt_one_input == b.nt_min_bytes_nt_one_input && a.task_min_bytes == b.task_min_bytes &&
           a.chain_block == b.chain_block;
}

// The one list of choices: X(name in the file, member of Tuning, lo, hi),
// hints as H(name, member). Everything that names or checks a choice (the
// parser, the writer, describe, `bcast tune`) expands it.
#define BCAST_TUNING_CHOICES(H, X)                                              \
    H("prefetch.rows.hint", rows.hint)                                         \
    X("prefetch.rows.distance", rows.distance, 64, 65536)                      \
    H("prefetch.chain.hint", chain.hint)                                       \
    X("prefetch.chain.distance", chain.distance, 64, 65536)                    \
    X("nt_min_bytes.1t", nt_min_bytes_1t, 4096, uint64_t{1} << 40)             \
    X("nt_min_bytes.nt", nt_min_bytes_nt, 4096, uint64_t{1} << 40)             \
    X("nt_min_bytes.1t.one_input", nt_min_bytes_1t_one_input, 4096, uint64_t{1} << 40) \
    X("nt_min_bytes.nt.one_input", nt_min_bytes_nt_one_input, 4096, uint64_t{1} << 40) \
    X("task_min_bytes", task_min_bytes, 4096, uint64_t{64} << 20)             \
    X("chain_block", chain_block, 64, 8192)

// What a tuning was measured on; a file whose key differs from the host's
// is ignored.
struct HostKey {
    std::string vendor;  // CPUID vendor string, "" off x86
    int64_t family = 0;
    int64_t model = 0;
    std::string isa;  // the kernel set in force ("avx512", "avx2", ...)
};

inline bool operator==(const HostKey& a, const HostKey& b) {
    return a.vendor == b.vendor && a.family == b.family && a.model == b.model && a.isa == b.isa;
}

const char* hint_name(PrefetchHint hint);
bool hint_from_name(const std::string& name, PrefetchHint& hint);

}  // namespace bcast::tuning
