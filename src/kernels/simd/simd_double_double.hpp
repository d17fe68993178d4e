// Double-double arithmetic on xsimd double batches: a value carried as an
// unevaluated sum hi + lo, which the f64 transcendentals use where double's
// 53 bits are not enough inside (simd_f64_*.hpp). The error-free steps are
// the classic ones (Knuth's two-sum, Dekker's fast two-sum, the FMA form of
// the exact product); they need the ISA files' -ffp-contract=off, so that
// the compiler does not fuse or reassociate them.
//
// The exact product needs a fused multiply-add. xsimd 8.1 has one for
// fma3<avx2> and neon64; on AVX-512 its fma is a plain multiply and add, so
// fused_multiply_add calls the instruction itself there.
//
// Included only by an ISA's kernel translation unit, after simd_ops.hpp.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// The arch has a fused multiply-add for double lanes (one rounding).
template <class A>
inline constexpr bool kFusedDoubleFma =
#if defined(__AVX512F__)
    std::is_base_of_v<xsimd::avx512f, A> ||
#endif
#if XSIMD_WITH_NEON64
    std::is_same_v<A, xsimd::neon64> ||
#endif
    std::is_same_v<A, xsimd::fma3<xsimd::avx2>>;

// a * b + c with one rounding; only for arches with kFusedDoubleFma.
template <class A>
Batch<double, A> fused_multiply_add(Batch<double, A> a, Batch<double, A> b, Batch<double, A> c) {
    static_assert(kFusedDoubleFma<A>, "the exact product needs a fused multiply-add");
#if defined(__AVX512F__)
    if constexpr (std::is_base_of_v<xsimd::avx512f, A>) return _mm512_fmadd_pd(a, b, c);
    else
#endif
        return xsimd::fma(a, b, c);
}

template <class A>
struct DoubleDouble {
    Batch<double, A> hi, lo;
};

// a + b exactly, whatever their magnitudes (6 operations).
template <class A>
DoubleDouble<A> two_sum(Batch<double, A> a, Batch<double, A> b) {
    const Batch<double, A> s = a + b;
    const Batch<double, A> b_part = s - a;
    return {s, (a - (s - b_part)) + (b - b_part)};
}

// a + b exactly where |a| >= |b| (or a is zero and b too).
template <class A>
DoubleDouble<A> fast_two_sum(Batch<double, A> a, Batch<double, A> b) {
    const Batch<double, A> s = a + b;
    return {s, b - (s - a)};
}

// a * b exactly, barring underflow of the low part.
template <class A>
DoubleDouble<A> two_product(Batch<double, A> a, Batch<double, A> b) {
    const Batch<double, A> p = a * b;
    return {p, fused_multiply_add<A>(a, b, -p)};
}

// n / d to about 2^-100 relative, from one division (1 / d.hi): the
// quotient's leading part corrected by the exact residual.
template <class A>
DoubleDouble<A> divide(DoubleDouble<A> n, DoubleDouble<A> d) {
    const Batch<double, A> reciprocal = Batch<double, A>(1.0) / d.hi;
    const Batch<double, A> q = n.hi * reciprocal;
    const Batch<double, A> residual =
        fused_multiply_add<A>(-q, d.hi, n.hi) + (n.lo - q * d.lo);
    return fast_two_sum<A>(q, residual * reciprocal);
}

// The nearest i / N to v in [0, 1] (N a power of two): i (0..N) and i / N,
// the index and the point of a table reduction. Other v (the NaN or
// infinite lanes a caller redoes in scalar code) count as 0, so that i
// stays inside the table.
template <unsigned N, class A>
DoubleBits<A> nearest_fraction(Batch<double, A> v, Batch<double, A>& i_over_n) {
    static_assert((N & (N - 1)) == 0, "N is a power of two");
    using D = Batch<double, A>;
    const D in_range = xsimd::select((v >= D(0.0)) & (v <= D(1.0)), v, D(0.0));
    // The rounding shifter leaves i in the low mantissa bits.
    const D shifted = in_range * D(N) + D(kRoundingShifter);
    i_over_n = (shifted - D(kRoundingShifter)) * D(1.0 / N);
    return xsimd::bitwise_cast<DoubleBits<A>>(shifted) & DoubleBits<A>(2 * N - 1);
}

// (hi[i], lo[i]) for each lane's index i (the caller keeps i inside the
// table, NaN lanes included): a double-double table entry.
// Scalar loads through memory: on the AMD Zen 4 this was measured on, AVX2
// and AVX-512 gathers made the f64 pow 1.2x-1.5x slower than this.
template <class A>
DoubleDouble<A> table_lookup(const double* hi, const double* lo,
                             DoubleBits<A> index) {
    using D = Batch<double, A>;
    alignas(64) std::uint64_t at[D::size];
    alignas(64) double his[D::size];
    alignas(64) double los[D::size];
    index.store_aligned(at);
    for (std::size_t j = 0; j < D::size; ++j) {
        his[j] = hi[at[j]];
        los[j] = lo[at[j]];
    }
    return {D::load_aligned(his), D::load_aligned(los)};
}

// c0 + c1 z + ... + c(N-1) z^(N-1) by Estrin's scheme, given z: a few
// dependent steps instead of a Horner chain. Plain multiply and add: the
// polynomials here are small corrections, where one more rounding is noise.
template <class A, std::size_t N>
Batch<double, A> polynomial(const double (&c)[N], Batch<double, A> z) {
    using D = Batch<double, A>;
    D terms[N];
    for (std::size_t i = 0; i < N; ++i) terms[i] = D(c[i]);
    std::size_t count = N;
    D power = z;
    while (count > 1) {
        std::size_t out = 0;
        for (std::size_t i = 0; i + 1 < count; i += 2) terms[out++] = terms[i] + terms[i + 1] * power;
        if (count % 2 != 0) terms[out++] = terms[count - 1];
        count = out;
        power = power * power;
    }
    return terms[0];
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
