// LOGADDEXP of f64 lanes: max + log1p(exp(min - max)) in double-double
// (simd_f64_exp_log.hpp), rounded once. The difference min - max is kept
// exactly (two-sum), so a rounded difference of large arguments cannot
// show in a small result.
//
// The log part, in (0, ln 2], carries about 2^-64 relative error, which a
// max < 0 cancelling most of it magnifies: lanes whose result is below 1/32
// of the log part are redone by the portable kernel (long double, no less
// accurate there), so both kernels give the same result where neither is
// within 2 ulp for certain. So are lanes with an infinity or a NaN, and
// lanes whose difference is below -700 with a max near zero (results below
// ~1e-300).
//
// Included only by an ISA's kernel translation unit, after simd_ops.hpp.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_double_double.hpp"
#include "kernels/simd/simd_f64_exp_log.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <class A>
Batch<double, A> logaddexp_of_doubles(Batch<double, A> x, Batch<double, A> y) {
    using D = Batch<double, A>;
    constexpr double kMax = 1.7976931348623157e308;
    const auto x_larger = x > y;
    const D larger = xsimd::select(x_larger, x, y);
    const D smaller = xsimd::select(x_larger, y, x);
    const DoubleDouble<A> d = two_sum<A>(smaller, -larger);  // <= 0
    // Below -700, exp(d) < 1e-304 only shows next to a max near zero.
    const auto far = d.hi < D(-700.0);
    const DoubleDouble<A> d_kept{xsimd::select(far, D(-700.0), d.hi),
                                 xsimd::select(far, D(0.0), d.lo)};

    const DoubleDouble<A> log_part = log1p_double_double<A>(exp_double_double<A>(d_kept));
    const DoubleDouble<A> sum = two_sum<A>(larger, log_part.hi);
    D r = sum.hi + (sum.lo + log_part.lo);
    r = xsimd::select(far, larger, r);

    const auto regular = (xsimd::abs(x) <= D(kMax)) & (xsimd::abs(y) <= D(kMax)) &
                         (xsimd::abs(r) >= log_part.hi * D(1.0 / 32)) &
                         ~(far & (xsimd::abs(larger) < D(0x1p-900)));
    if (xsimd::all(regular)) return r;
    return with_nan_lanes_redone<A>(x, y, xsimd::select(regular, r, not_a_number<A>()),
                                    logaddexp_in_long_double);
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
