// The SIMD walkers' tuning constants, one line each on what it trades. How
// and where each was measured: docs/kernels.md ("Tuning constants"). The
// choices a host may measure for itself (prefetch hint and distance, when
// to stream, task size) are not here but in tuning/tuning_values.hpp.
// Constants only.
#pragma once

#include <cstddef>

namespace bcast::kernels::tuning {

// Inner extents up to this repeat as one periodic call (plan) from a pattern
// of lcm(period, step) elements (walkers): longer ones would need a pattern
// too big to refill per call, and run as rows instead.
constexpr std::size_t kMaxShortPeriod = 16;

// A row of up to this many bytes that one operand repeats while the other and
// the output run on is walked as one periodic run over all rows (aligned
// stores, no per-row edges); longer rows are long enough to run one by one.
// Calls of fewer rows than kMinRepeatedRows run row by row: filling the
// pattern would cost them more than their edge steps.
constexpr std::size_t kMaxRepeatedRowBytes = 4096;
constexpr std::size_t kMinRepeatedRows = 4;

// A pattern holds its length plus this many steps before its offsets rewind:
// fewer rewind more often (a branch), more cost more to fill per call.
constexpr std::size_t kPatternSpareSteps = 16;

// The pattern buffer on the stack: the longest repeated row (or the longest
// short-period pattern, 16 steps) plus kPatternSpareSteps + 2 steps of the
// widest vectors (64 bytes).
constexpr std::size_t kPatternBytes = kMaxRepeatedRowBytes + (kPatternSpareSteps + 2) * 64;

// Cached (not streamed) runs of at least this many steps peel a head so
// that their stores are aligned; shorter ones pay more for the two extra
// edge steps than split lines cost them.
constexpr std::size_t kRealignMinSteps = 16;

// A streamed run mixes ordinary stores (its unaligned edges) with streaming
// ones only when it moves at least this many bytes: a line written both
// ways costs a write-combining flush, hidden only by a long run.
constexpr std::size_t kMixedRunMinBytes = 64 * 1024;

// vs/sv rows shorter than this many steps run as one blended run where
// vectors are at least kBlendRowsMinVectorBytes wide: there the blend per
// step costs less than a row's edge steps; on narrower vectors it costs more.
constexpr std::size_t kBlendRowsMaxSteps = 16;
constexpr std::size_t kBlendRowsMinVectorBytes = 64;

// Half-float ops outside the arithmetic core run their f32 kernels over
// blocks of this many elements widened to f32 (simd_widened.hpp): four such
// blocks (8 KiB) stay in L1; shorter blocks pay the f32 kernel's call more
// often.
constexpr std::size_t kWidenedBlock = 512;

}  // namespace bcast::kernels::tuning
