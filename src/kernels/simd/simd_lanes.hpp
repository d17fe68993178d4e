// The lane primitives of kernels/ops/lanes.hpp for xsimd batches, so that
// each op's one definition (kernels/ops/<family>.hpp) also runs on every
// ISA. Masks are batch_bool. Same results as the scalar forms, bit for bit
// (no reassociation, no FMA: the ISA files build with -ffp-contract=off, no
// reciprocal approximations), except the transcendentals: within 2 ulp.
//
// Included by an ISA's kernel translation units before any ops header
// (ops call these unqualified, and lookup sees what is declared before).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_vector_math.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::lanes {
namespace {  // internal, as the simd:: helpers they call

template <class T, class A>
using Batch = xsimd::batch<T, A>;
template <class T, class A>
using Mask = xsimd::batch_bool<T, A>;

template <class T, class A>
Batch<T, A> if_else(Mask<T, A> mask, Batch<T, A> a, Batch<T, A> b) {
    return xsimd::select(mask, a, b);
}
template <class T, class A>
Mask<T, A> logical_not(Mask<T, A> mask) {
    return ~mask;
}
template <class T, class A>
Mask<T, A> is_nan(Batch<T, A> x) {
    return simd::is_nan(x);
}
template <class T, class A>
Batch<T, A> maximum(Batch<T, A> a, Batch<T, A> b) {
    return xsimd::max(a, b);
}
template <class T, class A>
Batch<T, A> minimum(Batch<T, A> a, Batch<T, A> b) {
    return xsimd::min(a, b);
}

// Integer +, -, * wrap, as the scalar forms. Where xsimd 8.1 has no vector
// multiply (any integer on SSE2, 8- and 64-bit lanes on AVX2, 64-bit on
// NEON) it falls back to scalar C++, where a signed overflow is undefined.
// Lanes of int's width or wider are computed as unsigned, which wraps.
// Narrower lanes are promoted to int there: as signed values their products
// (at most 2^30) fit int, where unsigned ones (65535 * 65535) would overflow
// it.
template <class T>
using WrapLane = std::conditional_t<(sizeof(T) < sizeof(int)), std::make_signed_t<T>,
                                    std::make_unsigned_t<T>>;

template <class T, class A, class F>
Batch<T, A> wrapping(Batch<T, A> x, Batch<T, A> y, F f) {
    if constexpr (kIsInt<T>) {
        using W = Batch<WrapLane<T>, A>;
        return xsimd::bitwise_cast<Batch<T, A>>(
            f(xsimd::bitwise_cast<W>(x), xsimd::bitwise_cast<W>(y)));
    } else {
        return f(x, y);
    }
}
template <class T, class A>
Batch<T, A> wrap_add(Batch<T, A> x, Batch<T, A> y) {
    return wrapping(x, y, [](auto a, auto b) { return a + b; });
}
template <class T, class A>
Batch<T, A> wrap_sub(Batch<T, A> x, Batch<T, A> y) {
    return wrapping(x, y, [](auto a, auto b) { return a - b; });
}
template <class T, class A>
Batch<T, A> wrap_mul(Batch<T, A> x, Batch<T, A> y) {
    return wrapping(x, y, [](auto a, auto b) { return a * b; });
}

// Whether integer products of T get SIMD kernels on A (Op::kIntProduct<T>).
// xsimd 8.1's fallback (above) takes the lanes one by one through memory.
// On SSE2 that measured up to 6x slower than the portable loop and never
// faster; on AVX2 (8- and 64-bit lanes) still 2x faster, since the rest of
// the walk stays vector (docs/kernels.md). NEON's 64-bit fallback is the
// SSE2 kind and was not measured (no native aarch64 here): portable too.
template <class T, class A>
inline constexpr bool kVectorMultiplies =
    !kIsInt<T> || !(std::is_same_v<A, xsimd::sse2> ||
                    (sizeof(T) == 8 && std::is_base_of_v<xsimd::neon, A>));

template <class T, class A>
Batch<T, A> quotient(Batch<T, A> x, Batch<T, A> y) {
    return simd::Quotient<A>::of(x, y);
}

// The transcendentals' vector forms, declared here and defined in
// lanes_transcendental.hpp, which only the transcendental family's
// translation units include: a change to the vector math rebuilds that
// family alone (simd_vector_math.hpp says where each form is used).
template <class A>
Batch<float, A> pow_of(Batch<float, A> x, Batch<float, A> y);
template <class A>
Batch<double, A> pow_of(Batch<double, A> x, Batch<double, A> y);
template <class A>
Batch<float, A> atan2_of(Batch<float, A> x, Batch<float, A> y);
template <class A>
Batch<double, A> atan2_of(Batch<double, A> x, Batch<double, A> y);
template <class A>
Batch<float, A> logaddexp_of(Batch<float, A> x, Batch<float, A> y);
template <class A>
Batch<double, A> logaddexp_of(Batch<double, A> x, Batch<double, A> y);

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::lanes
