// The software prefetches of the SIMD walkers: locality hint and distance
// per walker kind, from the tuning in force (tuning/active_tuning.hpp; the
// built-in ones per CPU family are in tuning/builtin_tuning.cpp). Read once
// per kernel call.
//
// Plain functions in a baseline translation unit, as stream_threshold.hpp.
#pragma once

#include "tuning/tuning_values.hpp"

namespace bcast::kernels {

// The choice's types, named here because kernels::tuning (tuning.hpp)
// shadows bcast::tuning inside this namespace.
using Prefetch = ::bcast::tuning::Prefetch;
using PrefetchHint = ::bcast::tuning::PrefetchHint;

// Streamed rows that repeat the other operand's row (tuning.hpp).
Prefetch repeated_row_prefetch();

// Streamed fused-chain kernels, for each operand that runs in memory.
Prefetch chain_prefetch();

}  // namespace bcast::kernels
