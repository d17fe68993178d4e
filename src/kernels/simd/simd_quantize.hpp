// The SIMD quantization kernels (kernels/quantize.hpp) for one ISA policy:
// contiguous runs in batches of f32 lanes, every other stride and the tail
// through the element definitions, so each element is what the portable
// kernel gives: the widened difference converts exactly, one multiply;
// the quotient is an IEEE division (a reciprocal only in the kernel that
// the pairs check gates: QuantBinaryKernels::vv_reciprocal), clamped (NaN
// lands on lo), rounded to nearest even by nearbyint_as_int (cvtps2dq /
// vcvtnq under the default FP environment), or by an ISA's line store that
// gives the same bytes. The quotient is Quotient's:
// xsimd 8.1's neon64 operator/ is a reciprocal estimate (neon_isa.hpp).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/quantize.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// q clamped to [lo, hi], NaN to lo, as quantize_one's comparisons give.
// x86's max and min return their second operand when either is NaN (one
// instruction each; a compare and a blend cost a fifth of a quantized add);
// elsewhere (NEON's propagate NaNs) the comparisons themselves.
template <class F>
F clamp_quotient(F q, F lo, F hi) {
#if defined(__SSE2__)
    return xsimd::min(xsimd::max(q, lo), hi);
#else
    q = xsimd::select(q >= lo, q, lo);
    return xsimd::select(q <= hi, q, hi);
#endif
}

// The output's parameters in lanes: finish(q) is quantize_one's
// round(clamp(q, lo, hi)) + zero_point for a batch of quotients (the op's
// result over the output scale); `params` keeps the scalars for an ISA's
// own line stores.
template <class A>
struct QuantOut {
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    explicit QuantOut(const QuantParams& p) : lo(p.lo), hi(p.hi), zero_point(p.zero_point), params(p) {}
    I finish(F q) const { return xsimd::nearbyint_as_int(clamp_quotient(q, lo, hi)) + zero_point; }
    // The smallest output byte, lo + zero_point (lo is whole).
    int32_t lowest() const { return static_cast<int32_t>(params.lo) + params.zero_point; }
    F lo, hi;
    I zero_point;
    QuantParams params;
};

// One batch of int32 lanes from as many bytes, and back (the lanes hold
// values of the byte's type). xsimd 8.1 converts through memory here; an
// ISA with widening loads and narrowing stores specialises this in
// kernels/<isa>/<isa>_quantize.hpp. store_line finishes kLineSteps batches
// of quotients into the bytes at p, as finish and narrow would (given lo and
// hi whole and inside the dtype's range less the zero point, as QuantParams
// promises); where the ISA can stream, `stream` asks for non-temporal stores
// (p then starts a whole 64-byte line and the bytes fill whole lines).
template <class A>
struct ByteLanes {
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    static constexpr std::size_t kLineSteps = 1;
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
    template <class Q>
    static void store_line(Q* p, const F* q, const QuantOut<A>& out, bool) {
        narrow(p, out.finish(q[0]));
    }
};

// x * a + b in one rounding where the ISA fuses them (xsimd 8.1's fma does
// on FMA3 and NEON, not on AVX-512: kernels/avx512/avx512_quantize.hpp).
template <class A>
struct MulAdd {
    using F = xsimd::batch<float, A>;
    static F of(F x, F a, F b) { return xsimd::fma(x, a, b); }
};

// Whether an ISA's lanes have store_bounded_line: store_line's bytes for
// quotients whose zero point is 0 and whose magnitude stays below 2^30, in
// fewer steps (no clamp before rounding: saturating packs, then the bounds
// as bytes).
template <class L, class = void>
struct HasBoundedLine : std::false_type {};
template <class L>
struct HasBoundedLine<L, std::void_t<decltype(&L::template store_bounded_line<uint8_t>)>> : std::true_type {};

// Quotients for out[i, n) into bytes, whole lines first: quotient_at(i)
// gives F::size of them. Returns where a partial batch is left. kBounded:
// the quotients are store_bounded_line's (HasBoundedLine).
template <bool kBounded = false, class A, class Q, class QuotientAt>
std::size_t store_quantized(std::size_t i, std::size_t n, Q* out, const QuantOut<A>& o, bool stream,
                            const QuotientAt& quotient_at) {
    using Lanes = ByteLanes<A>;
    constexpr std::size_t kLanes = xsimd::batch<float, A>::size;
    constexpr std::size_t kLine = Lanes::kLineSteps * kLanes;
    for (; i + kLine <= n; i += kLine) {
        xsimd::batch<float, A> q[Lanes::kLineSteps];
        for (std::size_t j = 0; j < Lanes::kLineSteps; ++j) q[j] = quotient_at(i + j * kLanes);
        if constexpr (kBounded && HasBoundedLine<Lanes>::value) {
            Lanes::store_bounded_line(out + i, q, o, stream);
        } else {
            Lanes::store_line(out + i, q, o, stream);
        }
    }
    for (; i + kLanes <= n; i += kLanes) Lanes::narrow(out + i, o.finish(quotient_at(i)));
    return i;
}

// Elements [i, n) (fewer than a batch) as one more batch on copies of the
// operands (the same lanes, no scalar path): quotient(xc, yc) gives the
// batch from copies that start at element i; an operand whose element size
// is 0 (a constant) is read in place.
template <class A, class Q, class Quotient>
void store_tail(std::size_t i, std::size_t n, Q* out, const QuantOut<A>& o, const void* x, std::size_t x_elem,
                const void* y, std::size_t y_elem, const Quotient& quotient) {
    if (i == n) return;
    constexpr std::size_t kLanes = xsimd::batch<float, A>::size;
    alignas(64) unsigned char xt[kLanes * sizeof(float)] = {}, yt[kLanes * sizeof(float)] = {};
    Q ot[kLanes];
    const auto copy = [&](unsigned char* to, const void* from, std::size_t elem) -> const void* {
        if (elem == 0) return from;
        std::memcpy(to, static_cast<const unsigned char*>(from) + i * elem, (n - i) * elem);
        return to;
    };
    ByteLanes<A>::narrow(ot, o.finish(quotient(copy(xt, x, x_elem), copy(yt, y, y_elem))));
    std::memcpy(out + i, ot, n - i);
}

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
    auto* out = static_cast<Q*>(q);
    std::size_t i = 0;
    if (stride == 1) {
        const F scale(p.scale);
        i = store_quantized(i, n, out, QuantOut<A>(p), false,
                            [&](std::size_t k) { return Quotient<A>::of(F::load_unaligned(v + k), scale); });
    }
    for (; i < n; ++i) {
        out[static_cast<std::ptrdiff_t>(i) * stride] = static_cast<Q>(quantize_one(v[i], p));
    }
}

// How a quantized binary kernel reads an operand (kernels/quantize.hpp):
// contiguous bytes, one byte, or contiguous f32 values already dequantized.
enum class QuantOperand { kBytes, kByte, kFloats };

// One operand's f32 lanes at element i.
template <class Isa, class Q, QuantOperand Kind>
struct QuantInput {
    using A = typename Isa::arch;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    // Bytes a tail copy takes per element (none: a byte is read in place).
    static constexpr std::size_t kElemBytes =
        Kind == QuantOperand::kBytes ? sizeof(Q) : Kind == QuantOperand::kFloats ? sizeof(float) : 0;

    QuantInput(const QuantParams& p, const void* first)
        : scale(p.scale), zero_point(p.zero_point),
          constant(Kind == QuantOperand::kByte ? dequantize_one(*static_cast<const Q*>(first), p) : 0.0f) {}

    F at(const void* base, std::size_t i) const {
        if constexpr (Kind == QuantOperand::kByte) {
            return constant;
        } else if constexpr (Kind == QuantOperand::kFloats) {
            return F::load_unaligned(static_cast<const float*>(base) + i);
        } else {
            return xsimd::batch_cast<float>(ByteLanes<A>::widen(static_cast<const Q*>(base) + i) - zero_point) *
                   scale;
        }
    }

    F scale;
    I zero_point;
    F constant;
};

// F::size quotients at element i: the op's f32 result over the output scale.
// kReciprocal: times the scale's f32 reciprocal instead (not exact by
// itself: QuantBinaryKernels::vv_reciprocal, vf_reciprocal, fv_reciprocal).
template <class Isa, class Q, class Op, QuantOperand XKind, QuantOperand YKind, bool kReciprocal>
struct QuantBinaryStep {
    using A = typename Isa::arch;
    using F = xsimd::batch<float, A>;

    QuantBinaryStep(const QuantBinaryParams& p, const void* x, const void* y)
        : x_in(p.x, x), y_in(p.y, y), os(kReciprocal ? 1.0f / p.out.scale : p.out.scale) {}

    F operator()(const void* x, const void* y, std::size_t i) const {
        const F v = Op::apply(x_in.at(x, i), y_in.at(y, i));
        if constexpr (kReciprocal) return v * os;
        else return Quotient<A>::of(v, os);
    }

    QuantInput<Isa, Q, XKind> x_in;
    QuantInput<Isa, Q, YKind> y_in;
    F os;
};

template <class Isa, class Q, class Op, QuantOperand XKind, QuantOperand YKind, bool kReciprocal = false>
void quant_binary(std::size_t n, const void* x, const void* y, void* outp, const QuantBinaryParams& p,
                  Stores stores) {
    using Step = QuantBinaryStep<Isa, Q, Op, XKind, YKind, kReciprocal>;
    using A = typename Isa::arch;
    auto* out = static_cast<Q*>(outp);
    const Step step(p, x, y);
    const QuantOut<A> o(p.out);
    const std::size_t i =
        store_quantized(0, n, out, o, stores.stream, [&](std::size_t k) { return step(x, y, k); });
    store_tail(i, n, out, o, x, QuantInput<Isa, Q, XKind>::kElemBytes, y, QuantInput<Isa, Q, YKind>::kElemBytes,
               [&](const void* xc, const void* yc) { return step(xc, yc, 0); });
}

// The affine kernels (kernels/quantize.hpp): x bytes; y a pattern of f32
// coefficients (kOffsets, kSlopes) or bytes (kSum, kProduct).
enum class AffineKind { kOffsets, kSlopes, kSum, kProduct };

template <class Isa, class Q, AffineKind Kind>
void quant_affine(std::size_t n, const void* x, const void* y, void* outp, const QuantBinaryParams& p,
                  Stores stores) {
    using A = typename Isa::arch;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    using Y = std::conditional_t<Kind == AffineKind::kSum || Kind == AffineKind::kProduct, Q, float>;
    const auto* in = static_cast<const Q*>(x);
    const auto* other = static_cast<const Y*>(y);
    auto* out = static_cast<Q*>(outp);
    const F a(p.affine.a), b(p.affine.b), c(p.affine.c);
    const I x_zero(p.affine.x_zero), y_zero(p.affine.y_zero);
    // The coefficients hold the output's zero point: the bounds move by it.
    QuantParams shifted = p.out;
    shifted.lo += static_cast<float>(p.out.zero_point);
    shifted.hi += static_cast<float>(p.out.zero_point);
    shifted.zero_point = 0;
    const QuantOut<A> o(shifted);
    const auto quotient = [&](const Q* q, const Y* v) {
        if constexpr (Kind == AffineKind::kOffsets) {
            return MulAdd<A>::of(xsimd::batch_cast<float>(ByteLanes<A>::widen(q)), a, F::load_unaligned(v));
        } else if constexpr (Kind == AffineKind::kSlopes) {
            return MulAdd<A>::of(xsimd::batch_cast<float>(ByteLanes<A>::widen(q) - x_zero), F::load_unaligned(v), c);
        } else if constexpr (Kind == AffineKind::kSum) {
            return MulAdd<A>::of(xsimd::batch_cast<float>(ByteLanes<A>::widen(q)), a,
                                 MulAdd<A>::of(xsimd::batch_cast<float>(ByteLanes<A>::widen(v)), b, c));
        } else {
            const I product = (ByteLanes<A>::widen(q) - x_zero) * (ByteLanes<A>::widen(v) - y_zero);
            return MulAdd<A>::of(xsimd::batch_cast<float>(product), a, c);
        }
    };
    const std::size_t i = store_quantized<true>(0, n, out, o, stores.stream,
                                                [&](std::size_t k) { return quotient(in + k, other + k); });
    store_tail(i, n, out, o, x, sizeof(Q), y, sizeof(Y), [&](const void* xc, const void* yc) {
        return quotient(static_cast<const Q*>(xc), static_cast<const Y*>(yc));
    });
}

template <class Isa, class Op>
QuantBinaryKernels quant_binary_kernels(bcast_dtype dtype) {
    constexpr QuantOperand V = QuantOperand::kBytes, S = QuantOperand::kByte, F = QuantOperand::kFloats;
    const auto kernels = [](auto q) {
        using Q = decltype(q);
        return QuantBinaryKernels{&quant_binary<Isa, Q, Op, V, V>, &quant_binary<Isa, Q, Op, V, S>,
                                  &quant_binary<Isa, Q, Op, S, V>, &quant_binary<Isa, Q, Op, V, F>,
                                  &quant_binary<Isa, Q, Op, F, V>,
                                  nullptr,
                                  nullptr,
                                  {&quant_affine<Isa, Q, AffineKind::kOffsets>,
                                   &quant_affine<Isa, Q, AffineKind::kSlopes>,
                                   &quant_affine<Isa, Q, AffineKind::kSum>,
                                   &quant_affine<Isa, Q, AffineKind::kProduct>},
                                  &quant_binary<Isa, Q, Op, V, V, true>,
                                  &quant_binary<Isa, Q, Op, V, F, true>,
                                  &quant_binary<Isa, Q, Op, F, V, true>};
    };
    switch (dtype) {
        case BCAST_DTYPE_U8: return kernels(uint8_t{});
        case BCAST_DTYPE_I8: return kernels(int8_t{});
        default: return {};
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
