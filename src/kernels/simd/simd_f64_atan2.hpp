// ATAN2 of f64 lanes within 1 ulp (0.5 measured), where xsimd's double
// atan2 is 2.5 ulp off.
//
// With a = |x| (the numerator), b = |y|: t = min(a, b) / max(a, b) in [0, 1]
// as a double-double, then atan(t) = atan(c) + atan(u) around the nearest
// c = j / 8, u = (t - c) / (1 + t c) in double-double too, |u| <= 1/16, so
// that atan(u) = u + u^3 p(u^2) with seven Taylor terms (next term < 2^-64
// of u). The quadrant adds 0, pi/2 or pi (double-double constants); every
// sum there keeps its magnitude (atan(t) <= pi/4), so the one rounding at the
// end is the only one that shows.
//
// Lanes with a NaN, an infinity, two zeros, a larger magnitude below
// 2^-960, a subnormal smaller one or a quotient below 2^-969 (where the
// quotient's residual would underflow) take libm's atan2.
//
// Included only by an ISA's kernel translation unit, after simd_ops.hpp.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_double_double.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <math.h>
#include <cstdint>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// atan(j / 8) for j = 0..8 as double-doubles (rounded from 300 bits).
alignas(64) constexpr double kAtanEighthsHi[9] = {
    0.0,
    0x1.fd5ba9aac2f6ep-4,
    0x1.f5b75f92c80ddp-3,
    0x1.6f61941e4def1p-2,
    0x1.dac670561bb4fp-2,
    0x1.1e00babdefeb4p-1,
    0x1.4978fa3269ee1p-1,
    0x1.700a7c5784634p-1,
    0x1.921fb54442d18p-1,
};
alignas(64) constexpr double kAtanEighthsLo[9] = {
    0.0,
    -0x1.cd37686760c17p-59,
    0x1.8ab6e3cf7afbdp-57,
    -0x1.c63aae6f6e918p-56,
    0x1.a2b7f222f65e2p-56,
    -0x1.928df287a668fp-58,
    0x1.2419a87f2a458p-56,
    -0x1.8c34d25aadef6p-56,
    0x1.1a62633145c07p-55,
};

// atan(u) / u - 1 = z p(z), z = u^2: the Taylor terms -1/3 ... -1/15.
constexpr double kAtanTaylor[7] = {-1.0 / 3,  1.0 / 5,  -1.0 / 7, 1.0 / 9,
                                   -1.0 / 11, 1.0 / 13, -1.0 / 15};

// atan(t) for 0 <= t = t.hi + t.lo <= 1, as a double-double.
template <class A>
DoubleDouble<A> atan_of_unit(DoubleDouble<A> t) {
    using D = Batch<double, A>;
    D c;
    const DoubleBits<A> j = nearest_fraction<8, A>(t.hi, c);
    // t.hi - c is exact: t.hi lies within [c / 2, 2 c] or c is 0.
    const DoubleDouble<A> numerator = two_sum<A>(t.hi - c, t.lo);
    const DoubleDouble<A> tc = two_product<A>(t.hi, c);
    DoubleDouble<A> denominator = fast_two_sum<A>(D(1.0), tc.hi);  // tc <= 1
    denominator.lo = denominator.lo + (tc.lo + t.lo * c);
    const DoubleDouble<A> u = divide<A>(numerator, denominator);

    const D z = u.hi * u.hi;
    const D tail = u.hi * z * polynomial<A>(kAtanTaylor, z);
    const DoubleDouble<A> atan_c = table_lookup<A>(kAtanEighthsHi, kAtanEighthsLo, j);
    const DoubleDouble<A> head = two_sum<A>(atan_c.hi, u.hi);
    return fast_two_sum<A>(head.hi, head.lo + (atan_c.lo + u.lo + tail));
}

// atan2(x, y) of doubles, x the numerator.
template <class A>
Batch<double, A> atan2_of_doubles(Batch<double, A> x, Batch<double, A> y) {
    using D = Batch<double, A>;
    const D a = xsimd::abs(x), b = xsimd::abs(y);
    const auto swapped = a > b;
    // NaN lanes fail the compares. Irregular lanes compute with t = 0, so
    // that the table index stays in range. A quotient below 2^-969 (or a
    // subnormal smaller operand) would leave the residual below it inexact,
    // and the result may be subnormal: libm's.
    const D larger = xsimd::max(a, b), smaller = xsimd::min(a, b);
    const auto regular = (larger >= D(0x1p-960)) & (larger <= D(1.7976931348623157e308)) &
                         (a == a) & (b == b) &
                         ((smaller == D(0.0)) |
                          ((smaller >= D(0x1p-1000)) & (smaller >= larger * D(0x1p-969))));
    const D small = xsimd::select(regular, smaller, D(0.0));
    const D large = xsimd::select(regular, larger, D(1.0));

    const D reciprocal = D(1.0) / large;
    const D t_hi = small / large;
    const D t_lo = fused_multiply_add<A>(-t_hi, large, small) * reciprocal;
    const DoubleDouble<A> base = atan_of_unit<A>({t_hi, t_lo});

    // a <= b: base, or pi - base for y < 0; a > b: pi/2 -+ base.
    const auto y_negative = y < D(0.0);
    const D zero(0.0);
    const D offset_hi = xsimd::select(
        swapped, D(0x1.921fb54442d18p+0), xsimd::select(y_negative, D(0x1.921fb54442d18p+1), zero));
    const D offset_lo = xsimd::select(
        swapped, D(0x1.1a62633145c07p-54), xsimd::select(y_negative, D(0x1.1a62633145c07p-53), zero));
    // xsimd 8.1's AVX-512 batch_bool ^ is an |: != is the exclusive or.
    const auto subtract = swapped != y_negative;
    const D base_hi = xsimd::select(subtract, -base.hi, base.hi);
    const D base_lo = xsimd::select(subtract, -base.lo, base.lo);
    const DoubleDouble<A> sum = two_sum<A>(offset_hi, base_hi);
    const D r = xsimd::copysign(sum.hi + (sum.lo + (offset_lo + base_lo)), x);
    if (xsimd::all(regular)) return r;
    return with_nan_lanes_redone<A>(x, y, xsimd::select(regular, r, not_a_number<A>()),
                                    [](double xj, double yj) { return ::atan2(xj, yj); });
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
