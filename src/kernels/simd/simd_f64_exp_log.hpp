// exp and log on f64 lanes in double-double, to about 2^-65 relative (exp
// results near 2^-1022 lose a little more: their low part is subnormal):
// the cores of the f64 LOGADDEXP and POW, which need more than double's 53
// bits inside to land within 2 ulp after their last step (a sum that may
// cancel, a product with an exponent up to ~1e4 times larger than the log).
//
// Both reduce by a 64-entry double-double table (simd_f64_tables.hpp, read
// by table_lookup) so that the polynomials left are short:
//   exp: z = (64 k + i) ln2 / 64 + r, |r| <= ln2 / 128, e^z = 2^k 2^(i/64) e^r
//        with e^r = 1 + r + r^2/2 + ... + r^6/6! (next term < 2^-65);
//   log: x = 2^e m, m in [1, 2), c = 1 + i/64 nearest m, log m = log c +
//        2 atanh(s), s = (m - c) / (m + c), |s| < 2^-8, to s^9 (next < 2^-67).
//
// Included only by an ISA's kernel translation unit, after simd_ops.hpp.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_double_double.hpp"
#include "kernels/simd/simd_f64_tables.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <cstdint>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;  // ln 2 = hi + lo
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;

// e^z for z = z.hi + z.lo, |z.lo| <= ulp(z.hi), z.hi in [-708, 708]: the
// result is a normal double-double (its lo may be subnormal).
template <class A>
DoubleDouble<A> exp_double_double(DoubleDouble<A> z) {
    using D = Batch<double, A>;
    constexpr double kSixtyFourOverLn2 = 0x1.71547652b82fep+6;
    using I = DoubleBits<A>;
    const D shifted = z.hi * D(kSixtyFourOverLn2) + D(kRoundingShifter);
    const D n = shifted - D(kRoundingShifter);  // 64 k + i, i in [0, 63]
    const I n_bits = xsimd::bitwise_cast<I>(shifted) - xsimd::bitwise_cast<I>(D(kRoundingShifter));
    const I i = n_bits & I(63);
    // 2^k: (n - i) << 46 is k << 52, k's place in the exponent field
    // (modulo 2^64, which the bias addition undoes for k >= -1022).
    const D scale = xsimd::bitwise_cast<D>(((n_bits - i) << 46) + I(std::uint64_t{1023} << 52));
    // z - n ln2/64: n ln2_hi/64 is exact inside the fused step and the
    // difference fits in 53 bits, so r1 is exact.
    const D r1 = fused_multiply_add<A>(-n, D(kLn2Hi / 64), z.hi);
    const DoubleDouble<A> r = two_sum<A>(r1, z.lo - n * D(kLn2Lo / 64));

    static constexpr double kExpTaylor[4] = {1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720};
    const D r2 = r.hi * r.hi;
    const D rest = xsimd::fma(r2 * r.hi, polynomial<A>(kExpTaylor, r.hi), r2 * D(0.5));
    // e^r = (1 + r.hi) + (rest + r.lo e^r.hi), the parenthesis below 2^-14.
    const DoubleDouble<A> one_plus = fast_two_sum<A>(D(1.0), r.hi);
    const D er_lo = one_plus.lo + (rest + r.lo * (D(1.0) + r.hi));
    const DoubleDouble<A> er = fast_two_sum<A>(one_plus.hi, er_lo);

    const DoubleDouble<A> t = table_lookup<A>(kExp2SixtyFourthsHi, kExp2SixtyFourthsLo, i);
    const DoubleDouble<A> p = two_product<A>(t.hi, er.hi);
    const DoubleDouble<A> e = fast_two_sum<A>(p.hi, p.lo + (t.hi * er.lo + t.lo * er.hi));
    return {e.hi * scale, e.lo * scale};
}

// e ln2 + log(c) + 2 atanh(n / d), c = 1 + i / 64, given the double-double
// numerator n = m - c and denominator d = m + c of a reduced argument m
// within 1/128 of c, so that |n / d| < 2^-8.
template <class A>
DoubleDouble<A> log_of_reduced(Batch<double, A> e, DoubleBits<A> i, DoubleDouble<A> numerator,
                               DoubleDouble<A> denominator) {
    using D = Batch<double, A>;
    const DoubleDouble<A> s = divide<A>(numerator, denominator);
    // 2 atanh(s) = 2 s + 2 s z (1/3 + z/5 + z^2/7 + z^3/9), z = s^2.
    static constexpr double kAtanhTaylor[4] = {1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9};
    const D z = s.hi * s.hi;
    const D tail = D(2.0) * s.hi * z * polynomial<A>(kAtanhTaylor, z);

    // e ln2 + log c + 2 s + tail, the large parts summed without error.
    const DoubleDouble<A> log_c =
        table_lookup<A>(kLogOnePlusSixtyFourthsHi, kLogOnePlusSixtyFourthsLo, i);
    const DoubleDouble<A> e_ln2 = two_product<A>(e, D(kLn2Hi));
    const DoubleDouble<A> head = two_sum<A>(e_ln2.hi, log_c.hi);
    const DoubleDouble<A> with_s = two_sum<A>(head.hi, D(2.0) * s.hi);
    const D lo = head.lo + with_s.lo +
                 (e_ln2.lo + e * D(kLn2Lo) + log_c.lo + D(2.0) * s.lo + tail);
    return fast_two_sum<A>(with_s.hi, lo);
}

// log(x) for a positive normal x: x = 2^e m, m in [1, 2).
template <class A>
DoubleDouble<A> log_of_double(Batch<double, A> x) {
    using D = Batch<double, A>;
    D m;
    const D e = exponent_and_mantissa<A>(x, m);
    D fraction;
    const DoubleBits<A> i = nearest_fraction<64, A>(m - D(1.0), fraction);
    const D c = D(1.0) + fraction;
    // m - c is exact: m lies within [c / 2, 2 c].
    return log_of_reduced<A>(e, i, {m - c, D(0.0)}, two_sum<A>(m, c));
}

// log(1 + t) for t = t.hi + t.lo in [0, 1], all of t.lo kept (1 + t as a
// double-double would round it away once t < 2^-53).
template <class A>
DoubleDouble<A> log1p_double_double(DoubleDouble<A> t) {
    using D = Batch<double, A>;
    D fraction;  // c - 1
    const DoubleBits<A> i = nearest_fraction<64, A>(t.hi, fraction);
    // t.hi - (c - 1) is exact: t.hi lies within [(c - 1) / 2, 2 (c - 1)] or c is 1.
    DoubleDouble<A> numerator = two_sum<A>(t.hi - fraction, t.lo);
    DoubleDouble<A> denominator = two_sum<A>(D(2.0) + fraction, t.hi);
    denominator.lo = denominator.lo + t.lo;
    return log_of_reduced<A>(D(0.0), i, numerator, denominator);
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
