#include "kernels/simd/prefetch_hint.hpp"

#include "tuning/active_tuning.hpp"

namespace bcast::kernels {

Prefetch repeated_row_prefetch() { return ::bcast::tuning::active().rows; }

Prefetch chain_prefetch() { return ::bcast::tuning::active().chain; }

}  // namespace bcast::kernels
