// POW of floats (f32, and f16 / bf16, which compute in f32) in double lanes:
// |x|^y = 2^(y log2|x|) with our own log2 and exp2, rounded once to float.
//
// Why our own: xsimd 8.1's pow is off by up to ~1100 ulp, and its double
// exp and log convert to 64-bit integers lane by lane before AVX-512, which
// made them slower than glibc's scalar powf on AVX2 and SSE2. These use
// only double arithmetic and 64-bit integer shifts, adds and masks, which
// every ISA has as vector instructions.
//
// Accuracy: the double result is within ~1e-13 (relative) of |x|^y, so the
// float rounding is within 0.5 ulp but for values within 1e-13 of a tie.
// Float results never leave double's normal range, so no double
// subnormal or overflow arises before that rounding. Signs, zeros and NaNs
// follow C's powf (Annex F); lanes with an infinite or NaN operand take
// ::powf itself.
//
// Included only by an ISA's kernel translation unit, after simd_ops.hpp.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <math.h>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// c0 + c1 v + c2 v^2 + c3 v^3, given v and v^2: Estrin's split, so that the
// polynomials below are a few dependent steps rather than a Horner chain
// (which measured latency-bound). xsimd::fma is fused where xsimd has it
// for the ISA and a multiply-add otherwise: either is accurate enough here.
template <class A>
Batch<double, A> estrin_pair(double c0, double c1, double c2, double c3, Batch<double, A> v,
                             Batch<double, A> v2) {
    using D = Batch<double, A>;
    return xsimd::fma(xsimd::fma(D(c3), v, D(c2)), v2, xsimd::fma(D(c1), v, D(c0)));
}

// The polynomial coefficients below are near-minimax fits of relative error
// (weighted least squares on Chebyshev nodes, numpy, against long double);
// each bound was re-measured on 400k points.

// log2 of finite positive doubles (normal: every float is). x = 2^e m with
// m in [sqrt(1/2), sqrt(2)); log2 m = (2 / ln 2) atanh(s), s = (m-1)/(m+1),
// and atanh(s) / s = 1 + z q(z), z = s^2 <= 0.0295: relative error 3e-14.
template <class A>
Batch<double, A> log2_of_positive(Batch<double, A> x) {
    using D = Batch<double, A>;
    D m;
    const D biased = exponent_and_mantissa<A>(x, m);
    const auto upper = m > D(1.41421356237309504880);
    m = xsimd::select(upper, m * D(0.5), m);
    const D e = xsimd::select(upper, biased + D(1.0), biased);
    const D s = (m - D(1.0)) / (m + D(1.0));
    const D z = s * s, z2 = z * z;
    const D q = xsimd::fma(D(0x1.91127dad720e0p-4), z2 * z2,
                           estrin_pair<A>(0x1.555555561d961p-2, 0x1.999996ab06664p-3,
                                          0x1.2494113c22b04p-3, 0x1.c62b4cee53b66p-4, z, z2));
    const D scaled = s * D(2.88539008177792681471984936200378427);  // 2 / ln 2
    return e + xsimd::fma(scaled * z, q, scaled);
}

// 2^t for |t| <= 1000: 2^n 2^f, n = round(t), |f| <= 1/2, 2^f = 1 + f q(f)
// (relative error 8e-13), and n added into the exponent field.
template <class A>
Batch<double, A> exp2_of_bounded(Batch<double, A> t) {
    using D = Batch<double, A>;
    using U = DoubleBits<A>;
    const D shifted = t + D(kRoundingShifter);
    const D f = t - (shifted - D(kRoundingShifter));
    const D f2 = f * f;
    const D low = estrin_pair<A>(0x1.62e42fef89d1fp-1, 0x1.ebfbdff8ede82p-3,
                                 0x1.c6b08dced44d4p-5, 0x1.3b2ab5ed72d6ap-7, f, f2);
    const D high = estrin_pair<A>(0x1.5d874d05ea080p-10, 0x1.430aa87a3c0a0p-13,
                                  0x1.00d853f2bee00p-16, 0x1.61c4fca8ee800p-20, f, f2);
    const D p = xsimd::fma(f, xsimd::fma(high, f2 * f2, low), D(1.0));
    const U exponent = xsimd::bitwise_cast<U>(shifted) << 52;
    return xsimd::bitwise_cast<D>(xsimd::bitwise_cast<U>(p) + exponent);
}

// pow(x, y) where x is zero or negative, or an operand is not finite, given
// r = |x|^y where both are finite and x is not zero.
template <class A>
Batch<double, A> pow_of_any_floats(Batch<double, A> x, Batch<double, A> y, Batch<double, A> r) {
    using D = Batch<double, A>;
    const D zero(0.0), one(1.0), inf(std::numeric_limits<double>::infinity());
    const D ax = xsimd::abs(x), ay = xsimd::abs(y);
    // Every float of magnitude 2^24 or more is an even integer: capping
    // there keeps the rounding shifter exact.
    const D capped = xsimd::min(ay, D(0x1p30));
    const auto integral = (capped + D(kRoundingShifter)) - D(kRoundingShifter) == capped;
    const D half = capped * D(0.5);
    const auto odd = integral & ((half + D(kRoundingShifter)) - D(kRoundingShifter) != half);

    const D of_zero = xsimd::select(y > zero, zero, xsimd::select(y < zero, inf, one));
    r = xsimd::select(ax == zero, of_zero, r);
    r = xsimd::select(odd, xsimd::copysign(r, x), r);  // odd powers keep x's sign
    r = xsimd::select((x < zero) & ~integral, D(std::numeric_limits<double>::quiet_NaN()), r);

    if (xsimd::all((ax < inf) & (ay < inf))) return r;
    return with_lanes_redone<A>(x, y, r, [](double xj, double yj, double rj) {
        const bool lane_finite = xj - xj == 0.0 && yj - yj == 0.0;
        return lane_finite ? rj : ::powf(static_cast<float>(xj), static_cast<float>(yj));
    });
}

// pow(x, y) of doubles that hold floats, as powf gives it (rounded to float
// by the caller). A float result is 0 below 2^-150 and infinite above
// 2^128: clamping t to +-300 keeps the double normal without changing that.
template <class A>
Batch<double, A> pow_of_floats(Batch<double, A> x, Batch<double, A> y) {
    using D = Batch<double, A>;
    const D ax = xsimd::abs(x);
    const D t = xsimd::max(xsimd::min(y * log2_of_positive<A>(ax), D(300.0)), D(-300.0));
    const D r = exp2_of_bounded<A>(t);
    const D inf(std::numeric_limits<double>::infinity());
    if (xsimd::all((x > D(0.0)) & (x < inf) & (xsimd::abs(y) < inf))) return r;
    return pow_of_any_floats<A>(x, y, r);
}
}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
