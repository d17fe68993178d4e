// The transcendental kernel ops (ATAN2, LOGADDEXP, POW) and where each is
// vectorised. Within 2 ulp of the exact result (decisions.md), not
// bit-identical with the portable kernels' libm:
//   f32 (and f16 / bf16, which compute in f32): in double lanes, rounded
//     once (simd_ops.hpp, simd_pow.hpp); POW only with four or more double
//     lanes: on two (SSE2, NEON) it measured slower than glibc's powf.
//   f64: in double-double (simd_f64_*.hpp), which needs a fused multiply-add
//     and, to beat libm, four or more lanes: AVX2 and AVX-512. POW of f64 on
//     AVX-512 only: with four lanes it measured 1.15x glibc's pow (Zen 4).
//
// Included only by an ISA's kernel translation unit.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_double_double.hpp"
#include "kernels/simd/simd_f64_atan2.hpp"
#include "kernels/simd/simd_f64_logaddexp.hpp"
#include "kernels/simd/simd_f64_pow.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_pow.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// f64 in double-double on arch A, given the lanes it needs to pay off.
template <class A, std::size_t MinLanes>
inline constexpr bool kF64Transcendentals = kFusedDoubleFma<A> && Batch<double, A>::size >= MinLanes;

struct Atan2 : OpFlags {
    template <class T, class A>
    static constexpr bool accepts =
        std::is_same_v<T, float> || (std::is_same_v<T, double> && kF64Transcendentals<A, 4>);
    template <class A>
    static Batch<float, A> apply(Batch<float, A> x, Batch<float, A> y) {
        return in_double_lanes(x, y, [](auto a, auto b) { return atan2_of_floats<A>(a, b); });
    }
    template <class A>
    static Batch<double, A> apply(Batch<double, A> x, Batch<double, A> y) {
        return atan2_of_doubles<A>(x, y);
    }
};

struct Logaddexp : OpFlags {
    template <class T, class A>
    static constexpr bool accepts =
        std::is_same_v<T, float> || (std::is_same_v<T, double> && kF64Transcendentals<A, 4>);
    template <class A>
    static Batch<float, A> apply(Batch<float, A> x, Batch<float, A> y) {
        return in_double_lanes(x, y, [](auto a, auto b) { return logaddexp_of_floats<A>(a, b); });
    }
    template <class A>
    static Batch<double, A> apply(Batch<double, A> x, Batch<double, A> y) {
        return logaddexp_of_doubles<A>(x, y);
    }
};

struct Pow : OpFlags {
    template <class T, class A>
    static constexpr bool accepts =
        (std::is_same_v<T, float> && Batch<double, A>::size >= 4) ||
        (std::is_same_v<T, double> && kF64Transcendentals<A, 8>);
    template <class A>
    static Batch<float, A> apply(Batch<float, A> x, Batch<float, A> y) {
        return in_double_lanes(x, y, [](auto a, auto b) { return pow_of_floats<A>(a, b); });
    }
    template <class A>
    static Batch<double, A> apply(Batch<double, A> x, Batch<double, A> y) {
        return pow_of_doubles<A>(x, y);
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
