// The SIMD quantization kernels (kernels/quantize.hpp) for one ISA policy:
// contiguous runs in batches of f32 lanes, every other stride and the tail
// through the element definitions, so each element is what the portable
// kernel gives: the widened difference converts exactly, one multiply;
// the quotient is an IEEE division (never a reciprocal), clamped by
// comparisons (NaN fails both and lands on lo), rounded to nearest even by
// nearbyint_as_int (cvtps2dq / vcvtnq under the default FP environment).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/quantize.hpp"

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// One batch of int32 lanes from as many bytes, and back (the lanes hold
// values of the byte's type). xsimd 8.1 converts through memory here; an
// ISA with widening loads and narrowing stores specialises this in
// kernels/<isa>/<isa>_quantize.hpp.
template <class A>
struct ByteLanes {
    using I = xsimd::batch<int32_t, A>;
    template <class Q>
    static I widen(const Q* p) {
        return I::load_unaligned(p);
    }
    template <class Q>
    static void narrow(Q* p, I k) {
        alignas(64) int32_t lanes[I::size];
        k.store_aligned(lanes);
        for (std::size_t j = 0; j < I::size; ++j) p[j] = static_cast<Q>(lanes[j]);
    }
};

template <class Isa, class Q>
void dequantize(std::size_t n, const void* q, std::ptrdiff_t stride, float* out,
                const QuantParams& p) {
    using A = typename Isa::arch;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    const auto* in = static_cast<const Q*>(q);
    std::size_t i = 0;
    if (stride == 1) {
        const I zero_point(p.zero_point);
        const F scale(p.scale);
        for (; i + F::size <= n; i += F::size) {
            const I v = ByteLanes<A>::widen(in + i);
            (xsimd::batch_cast<float>(v - zero_point) * scale).store_unaligned(out + i);
        }
    }
    for (; i < n; ++i) out[i] = dequantize_one(in[static_cast<std::ptrdiff_t>(i) * stride], p);
}

template <class Isa, class Q>
void quantize(std::size_t n, const float* v, void* q, std::ptrdiff_t stride, const QuantParams& p) {
    using A = typename Isa::arch;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    auto* out = static_cast<Q*>(q);
    std::size_t i = 0;
    if (stride == 1) {
        const F scale(p.scale), lo(p.lo), hi(p.hi);
        const I zero_point(p.zero_point);
        for (; i + F::size <= n; i += F::size) {
            F x = F::load_unaligned(v + i) / scale;
            x = xsimd::select(x >= lo, x, lo);
            x = xsimd::select(x <= hi, x, hi);
            ByteLanes<A>::narrow(out + i, xsimd::nearbyint_as_int(x) + zero_point);
        }
    }
    for (; i < n; ++i) {
        out[static_cast<std::ptrdiff_t>(i) * stride] = static_cast<Q>(quantize_one(v[i], p));
    }
}

template <class Isa>
QuantKernels quant_kernels(bcast_dtype dtype) {
    switch (dtype) {
        case BCAST_DTYPE_U8: return {&dequantize<Isa, uint8_t>, &quantize<Isa, uint8_t>};
        case BCAST_DTYPE_I8: return {&dequantize<Isa, int8_t>, &quantize<Isa, int8_t>};
        default: return {};
    }
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
