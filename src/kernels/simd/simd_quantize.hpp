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
#include <cstring>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// NEON's kernels, through xsimd's generic conversions, gave other bytes
// than the portable ones on a few quotients under qemu-aarch64 (CI,
// 2026-11-27): until that is understood NEON runs the portable kernels.
#if defined(__aarch64__)
constexpr bool kSimdQuantization = false;
#else
constexpr bool kSimdQuantization = true;
#endif

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

// One step of quant_binary: F::size lanes of x and y (or their constants
// xc / yc) into out.
template <class Isa, class Q, class Op, bool XScalar, bool YScalar>
struct QuantBinaryStep {
    using A = typename Isa::arch;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;

    explicit QuantBinaryStep(const QuantBinaryParams& p, const Q* x, const Q* y)
        : xs(p.x.scale), ys(p.y.scale), os(p.out.scale), lo(p.out.lo), hi(p.out.hi),
          xz(p.x.zero_point), yz(p.y.zero_point), oz(p.out.zero_point),
          xc(XScalar ? dequantize_one(*x, p.x) : 0.0f), yc(YScalar ? dequantize_one(*y, p.y) : 0.0f) {}

    void operator()(const Q* x, const Q* y, Q* out) const {
        const F a = XScalar ? xc : xsimd::batch_cast<float>(ByteLanes<A>::widen(x) - xz) * xs;
        const F b = YScalar ? yc : xsimd::batch_cast<float>(ByteLanes<A>::widen(y) - yz) * ys;
        F q = Op::apply(a, b) / os;
        q = xsimd::select(q >= lo, q, lo);
        q = xsimd::select(q <= hi, q, hi);
        ByteLanes<A>::narrow(out, xsimd::nearbyint_as_int(q) + oz);
    }

    F xs, ys, os, lo, hi;
    I xz, yz, oz;
    F xc, yc;
};

template <class Isa, class Q, class Op, bool XScalar, bool YScalar>
void quant_binary(std::size_t n, const void* xp, const void* yp, void* outp,
                  const QuantBinaryParams& p) {
    using Step = QuantBinaryStep<Isa, Q, Op, XScalar, YScalar>;
    constexpr std::size_t kLanes = Step::F::size;
    const auto* x = static_cast<const Q*>(xp);
    const auto* y = static_cast<const Q*>(yp);
    auto* out = static_cast<Q*>(outp);
    const Step step(p, x, y);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) step(XScalar ? x : x + i, YScalar ? y : y + i, out + i);
    if (i == n) return;
    // The tail as one more step on copies (the same lanes, no scalar path).
    Q xt[kLanes] = {}, yt[kLanes] = {}, ot[kLanes];
    if (!XScalar) std::memcpy(xt, x + i, n - i);
    if (!YScalar) std::memcpy(yt, y + i, n - i);
    step(XScalar ? x : xt, YScalar ? y : yt, ot);
    std::memcpy(out + i, ot, n - i);
}

template <class Isa, class Op>
QuantBinaryKernels quant_binary_kernels(bcast_dtype dtype) {
    if (!kSimdQuantization) return {};
    switch (dtype) {
        case BCAST_DTYPE_U8:
            return {&quant_binary<Isa, uint8_t, Op, false, false>,
                    &quant_binary<Isa, uint8_t, Op, false, true>,
                    &quant_binary<Isa, uint8_t, Op, true, false>};
        case BCAST_DTYPE_I8:
            return {&quant_binary<Isa, int8_t, Op, false, false>,
                    &quant_binary<Isa, int8_t, Op, false, true>,
                    &quant_binary<Isa, int8_t, Op, true, false>};
        default: return {};
    }
}

template <class Isa>
QuantKernels quant_kernels(bcast_dtype dtype) {
    if (!kSimdQuantization) return {};
    switch (dtype) {
        case BCAST_DTYPE_U8: return {&dequantize<Isa, uint8_t>, &quantize<Isa, uint8_t>};
        case BCAST_DTYPE_I8: return {&dequantize<Isa, int8_t>, &quantize<Isa, int8_t>};
        default: return {};
    }
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
