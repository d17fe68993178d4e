// Which locality hint the SIMD walkers' software prefetches use
// (tuning::kPrefetchLocality, or non-temporal), decided once per process from
// the CPU's vendor. Intel's non-temporal prefetch loses its lines before the
// loads that wanted them: fused chains and repeated rows ran 1.4x-2x slower
// with it on a Xeon (Sapphire Rapids class), and at the roofline with
// prefetcht1. On AMD (Zen 3, Zen 4) the non-temporal one was measured as fast
// or faster, so other CPUs keep it (docs/kernels.md, "Tuning constants").
//
// A plain function in a baseline translation unit, as stream_threshold.hpp.
#pragma once

namespace bcast::kernels {

// True: prefetch non-temporally; false: with tuning::kPrefetchLocality.
bool prefetch_non_temporal();

}  // namespace bcast::kernels
