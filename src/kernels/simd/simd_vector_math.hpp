// Where the vector forms of the transcendentals (lanes::pow_of, atan2_of,
// logaddexp_of in simd_lanes.hpp) are used. Within 2 ulp of the exact
// result (decisions.md), not bit-identical with the portable kernels' libm:
//   f32 (and f16 / bf16, which compute in f32): in double lanes, rounded
//     once (simd_ops.hpp, simd_pow.hpp); POW only with four or more double
//     lanes: on two (SSE2, NEON) it measured slower than glibc's powf.
//   f64: in double-double (simd_f64_*.hpp), which needs a fused multiply-add
//     and, to beat libm, four or more lanes: AVX2 and AVX-512. POW of f64 on
//     AVX-512 only: with four lanes it measured 1.15x glibc's pow (Zen 4).
//
// Included by simd_lanes.hpp: the table builder asks it for every op.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/simd/simd_double_double.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// f64 in double-double on arch A, given the lanes it needs to pay off.
template <class A, std::size_t MinLanes>
inline constexpr bool kF64Transcendentals = kFusedDoubleFma<A> && Batch<double, A>::size >= MinLanes;

// Whether the vector form of C math function M pays for lanes of T on arch A
// (the ops name theirs: lanes::VectorMath); where not, the portable kernel
// (libm) runs.
template <lanes::VectorMath M, class T, class A>
inline constexpr bool kVectorMathPays = [] {
    switch (M) {
        case lanes::VectorMath::None: return true;
        case lanes::VectorMath::Atan2:
        case lanes::VectorMath::Logaddexp:
            return std::is_same_v<T, float> ||
                   (std::is_same_v<T, double> && kF64Transcendentals<A, 4>);
        case lanes::VectorMath::Pow:
            return (std::is_same_v<T, float> && Batch<double, A>::size >= 4) ||
                   (std::is_same_v<T, double> && kF64Transcendentals<A, 8>);
    }
    return false;
}();

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
