// SIMD helpers below the lane primitives (simd_lanes.hpp): NaN tests, the
// IEEE quotient, and the helpers of the float transcendentals.
//
// Included only by an ISA's kernel translation unit, after it has defined
// BCAST_KERNEL_ISA; everything lands in that ISA's namespace.
#pragma once

#include "kernels/isa_namespace.hpp"

#include <xsimd/xsimd.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <class T, class A>
using Batch = xsimd::batch<T, A>;

// Adding then subtracting 1.5 * 2^52 rounds a double of magnitude below
// 2^51 to an integer (round to nearest even); the sum's low mantissa bits
// hold that integer in two's complement.
constexpr double kRoundingShifter = 0x1.8p52;

// Bit patterns of double lanes. Unsigned: xsimd 8.1's AVX2 has no vector
// form of a signed 64-bit shift.
template <class A>
using DoubleBits = xsimd::batch<std::uint64_t, A>;

// A positive normal x as 2^e m with m in [1, 2): returns e (exactly, through
// 2^52's mantissa: no int64 conversion before AVX-512) and sets m.
template <class A>
xsimd::batch<double, A> exponent_and_mantissa(xsimd::batch<double, A> x,
                                              xsimd::batch<double, A>& m) {
    using D = xsimd::batch<double, A>;
    using U = DoubleBits<A>;
    const U bits = xsimd::bitwise_cast<U>(x);
    m = xsimd::bitwise_cast<D>((bits & U(0x000FFFFFFFFFFFFF)) | U(0x3FF0000000000000));
    return xsimd::bitwise_cast<D>((bits >> 52) | U(0x4330000000000000)) - D(0x1p52 + 1023.0);
}

// x is a NaN. Not x != x: xsimd 8.1's AVX and AVX-512 != is the ordered
// compare (false with a NaN), unlike C's.
template <class T, class A>
xsimd::batch_bool<T, A> is_nan(Batch<T, A> x) {
    return ~(x == x);
}

// The IEEE quotient x / y. An ISA policy header specialises this for its
// arch where xsimd's operator/ is not correctly rounded (neon_isa.hpp).
template <class A>
struct Quotient {
    template <class T>
    static Batch<T, A> of(Batch<T, A> x, Batch<T, A> y) { return x / y; }
};

// ------------------------------------------------------------ transcendentals
// ATAN2 and LOGADDEXP of floats (f32, and f16 / bf16, which compute in f32),
// computed in double lanes with xsimd's double exp, log1p and atan2: their
// errors (a few double ulp) vanish in the rounding to float, so results are
// within 1 ulp of the double-precision reference (decisions.md asks 2; 0.5
// measured over 4.8M lanes), but not always bit-identical with the portable
// kernels' libm. xsimd's NaN for atan2 of two zeros or two infinities is
// steered around. f64 has its own double-double forms (simd_f64_*.hpp:
// xsimd's double atan2 is off by 2.5 ulp). POW has its own log2 / exp2 in
// simd_pow.hpp: xsimd's double exp converts to integers lane by lane before
// AVX-512.

// f(x, y) on double lanes, rounded back to float lanes. The conversions are
// plain loops of a constant trip count, which the compiler turns into the
// ISA's convert instructions (xsimd 8.1 converting loads go element by
// element: measured 3 ns per element on AVX-512).
template <class A, class F>
Batch<float, A> in_double_lanes(Batch<float, A> x, Batch<float, A> y, F f) {
    using Floats = Batch<float, A>;
    using Doubles = Batch<double, A>;
    constexpr std::size_t kN = Floats::size;
    alignas(64) float fs[2][kN];
    alignas(64) double xd[kN];
    alignas(64) double yd[kN];
    alignas(64) double rd[kN];
    x.store_aligned(fs[0]);
    y.store_aligned(fs[1]);
    for (std::size_t j = 0; j < kN; ++j) xd[j] = fs[0][j];
    for (std::size_t j = 0; j < kN; ++j) yd[j] = fs[1][j];
    for (std::size_t h = 0; h < kN; h += Doubles::size) {
        f(Doubles::load_aligned(xd + h), Doubles::load_aligned(yd + h)).store_aligned(rd + h);
    }
    for (std::size_t j = 0; j < kN; ++j) fs[0][j] = static_cast<float>(rd[j]);
    return Floats::load_aligned(fs[0]);
}

// r with its lanes passed through fix(x_j, y_j, r_j) in scalar code: for
// the rare lanes a vector form leaves to libm (fix returns r_j for the
// others).
template <class A, class F>
Batch<double, A> with_lanes_redone(Batch<double, A> x, Batch<double, A> y, Batch<double, A> r,
                                   F fix) {
    using D = Batch<double, A>;
    alignas(64) double xs[D::size];
    alignas(64) double ys[D::size];
    alignas(64) double rs[D::size];
    x.store_aligned(xs);
    y.store_aligned(ys);
    r.store_aligned(rs);
    for (std::size_t j = 0; j < D::size; ++j) rs[j] = fix(xs[j], ys[j], rs[j]);
    return D::load_aligned(rs);
}

// r with its NaN lanes replaced by f(x_j, y_j): the f64 transcendentals
// mark the lanes they leave to scalar code with a NaN (a lane whose true
// result is NaN is recomputed to NaN).
template <class A, class F>
Batch<double, A> with_nan_lanes_redone(Batch<double, A> x, Batch<double, A> y, Batch<double, A> r,
                                       F f) {
    return with_lanes_redone<A>(x, y, r, [&f](double xj, double yj, double rj) {
        return rj == rj ? rj : f(xj, yj);
    });
}

template <class A>
Batch<double, A> not_a_number() {
    return Batch<double, A>(std::numeric_limits<double>::quiet_NaN());
}

template <class A>
Batch<double, A> infinity() {
    return Batch<double, A>(std::numeric_limits<double>::infinity());
}

// atan2(x, y), x the numerator. xsimd gives NaN for two zeros and for two
// infinities; (+-0, +-1) and (+-1, +-1) have the same atan2.
template <class A>
Batch<double, A> atan2_of_floats(Batch<double, A> x, Batch<double, A> y) {
    using D = Batch<double, A>;
    const D zero(0.0), one(1.0);
    const auto both_zero = (x == zero) & (y == zero);
    const auto both_infinite = (xsimd::abs(x) == infinity<A>()) & (xsimd::abs(y) == infinity<A>());
    const D numerator = xsimd::select(both_infinite, xsimd::copysign(one, x), x);
    const D denominator = xsimd::select(both_zero | both_infinite, xsimd::copysign(one, y), y);
    return xsimd::atan2(numerator, denominator);
}


// log(exp(x) + exp(y)) in long double, as lanes::logaddexp_of computes it: the
// fix-up for lanes a vector form cannot get within 2 ulp. (The C functions:
// std::'s inline overloads would be emitted under this ISA's flags.)
inline double logaddexp_in_long_double(double x, double y) {
    const long double wx = x, wy = y;
    if (x == y) return static_cast<double>(wx + 0.693147180559945309417232121458176568L);
    const long double big = wx > wy ? wx : wy;
    const long double diff = wx > wy ? wy - wx : wx - wy;  // NaN stays NaN
    return static_cast<double>(big + ::log1pl(::expl(diff)));
}

// log(exp(x) + exp(y)) as lanes::logaddexp_of: max + log1p(exp(-|x - y|)), x + ln 2
// for equal arguments. Where the result is near zero the two terms cancel
// and double's absolute error would show in the float: those rare lanes are
// recomputed in long double, as the portable kernel does.
template <class A>
Batch<double, A> logaddexp_of_floats(Batch<double, A> x, Batch<double, A> y) {
    using D = Batch<double, A>;
    const D zero(0.0);
    const D ln2(0.693147180559945309417232121458176568);
    const D d = x - y;
    const D larger = xsimd::select(d > zero, x, y);
    // xsimd's exp converts its argument to integers lane by lane: an infinite
    // or NaN argument would be an undefined conversion. exp(-800) is 0 as
    // exp(-inf) is; NaN lanes take d's NaN back below.
    const D e = -xsimd::abs(d);
    D r = larger + xsimd::log1p(xsimd::exp(xsimd::select(e > D(-800.0), e, D(-800.0))));
    r = xsimd::select(xsimd::isnan(d), d, r);
    r = xsimd::select(x == y, x + ln2, r);
    const auto cancelled = xsimd::abs(r) < D(0x1p-20);
    if (!xsimd::any(cancelled)) return r;
    return with_lanes_redone<A>(x, y, r, [](double xj, double yj, double rj) {
        const bool lane_cancelled = rj < 0x1p-20 && rj > -0x1p-20;
        return lane_cancelled && xj != yj ? logaddexp_in_long_double(xj, yj) : rj;
    });
}


}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
