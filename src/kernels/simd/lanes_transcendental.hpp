// The vector forms of the transcendentals, declared in simd_lanes.hpp:
// floats in double lanes (simd_ops.hpp, simd_pow.hpp), doubles in
// double-double (simd_f64_*.hpp). Within 2 ulp of the exact result
// (decisions.md), not bit-identical with the portable kernels' libm.
//
// Included by the generated <isa>_transcendental.cpp alone (src/CMakeLists.txt
// adds simd/lanes_<family>.hpp where one exists), after the ops.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_f64_atan2.hpp"
#include "kernels/simd/simd_f64_logaddexp.hpp"
#include "kernels/simd/simd_f64_pow.hpp"
#include "kernels/simd/simd_lanes.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_pow.hpp"

#include <xsimd/xsimd.hpp>

namespace bcast::kernels::BCAST_KERNEL_ISA::lanes {
namespace {

template <class A>
Batch<float, A> pow_of(Batch<float, A> x, Batch<float, A> y) {
    return simd::in_double_lanes(x, y, [](auto a, auto b) { return simd::pow_of_floats<A>(a, b); });
}
template <class A>
Batch<double, A> pow_of(Batch<double, A> x, Batch<double, A> y) {
    return simd::pow_of_doubles<A>(x, y);
}
template <class A>
Batch<float, A> atan2_of(Batch<float, A> x, Batch<float, A> y) {
    return simd::in_double_lanes(x, y, [](auto a, auto b) { return simd::atan2_of_floats<A>(a, b); });
}
template <class A>
Batch<double, A> atan2_of(Batch<double, A> x, Batch<double, A> y) {
    return simd::atan2_of_doubles<A>(x, y);
}
template <class A>
Batch<float, A> logaddexp_of(Batch<float, A> x, Batch<float, A> y) {
    return simd::in_double_lanes(x, y,
                                 [](auto a, auto b) { return simd::logaddexp_of_floats<A>(a, b); });
}
template <class A>
Batch<double, A> logaddexp_of(Batch<double, A> x, Batch<double, A> y) {
    return simd::logaddexp_of_doubles<A>(x, y);
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::lanes
