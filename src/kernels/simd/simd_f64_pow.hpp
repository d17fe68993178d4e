// POW of f64 lanes within 1 ulp (0.5 measured): x^y = e^(y log x) with log
// and exp in double-double (simd_f64_exp_log.hpp) and the product y log x
// formed exactly, so that an exponent up to 708 in magnitude keeps its
// relative error near 2^-62 before the one rounding at the end.
//
// Lanes other than a positive normal x with a finite y and |y log x| <= 708
// (zero, negative or subnormal bases, infinities, NaNs, results near or
// beyond the overflow and underflow thresholds) take the portable kernels'
// Pow (libm's pow, with pow(x, 0) = pow(1, y) = 1 even for a signalling NaN).
//
// Included only by an ISA's kernel translation unit, after simd_ops.hpp.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/simd/simd_double_double.hpp"
#include "kernels/simd/simd_f64_exp_log.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <limits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <class A>
Batch<double, A> pow_of_doubles(Batch<double, A> x, Batch<double, A> y) {
    using D = Batch<double, A>;
    constexpr double kMax = std::numeric_limits<double>::max();
    const auto regular = (x >= D(std::numeric_limits<double>::min())) & (x <= D(kMax)) &
                         (xsimd::abs(y) <= D(kMax));  // NaNs fail
    const DoubleDouble<A> log_x = log_of_double<A>(xsimd::select(regular, x, D(1.0)));
    const DoubleDouble<A> y_log_x = two_product<A>(y, log_x.hi);
    const DoubleDouble<A> z = fast_two_sum<A>(y_log_x.hi, y_log_x.lo + y * log_x.lo);
    const auto in_range = regular & (xsimd::abs(z.hi) <= D(708.0));
    const DoubleDouble<A> e =
        exp_double_double<A>({xsimd::select(in_range, z.hi, D(0.0)), xsimd::select(in_range, z.lo, D(0.0))});
    const D r = e.hi + e.lo;
    if (xsimd::all(in_range)) return r;
    return with_nan_lanes_redone<A>(x, y, xsimd::select(in_range, r, not_a_number<A>()),
                                    [](double xj, double yj) { return lanes::pow_of(xj, yj); });
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
