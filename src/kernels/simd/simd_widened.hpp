// Half floats (f16, bf16) of the vector transcendentals (simd_table.hpp:
// kInlineHalfOp): the op's f32 kernels run on blocks of the operands widened
// to f32 in L1, and the results are narrowed back. Half-float steps compute
// in f32 anyway (simd_codec.hpp: Compute = float) and the conversions are
// exact one way and round to nearest even the other, so the results are the
// inline codecs', but for the layout dependence these ops already have
// (bcast.h: within 2 ulp, a block groups lanes into steps differently from
// one long run). The code is not: the widening loops exist once per
// (ISA, dtype) and each op adds only the entries below, where the inline
// codecs built every walker again per op (docs/kernels.md, "The build").
// What it costs: a pass over L1 per operand and block, no streaming stores,
// no 2-D forms (the executor calls the 1-D entries per row): nothing next to
// the vector math, but 2x-3x on a cheap op in cache.
#pragma once

#include "kernels/half.hpp"
#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/tuning.hpp"

#include <bcast/bcast.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// n halves at p to floats at f, and back.
template <class Isa, bcast_dtype DT>
struct HalfBlocks;

// Every element through the ISA's conversions, the last partial step
// through zero-padded buffers (as the walkers' partial steps): the
// conversions of the inline codec, whatever the FPU's rounding mode does to
// them (NEON's follow FPCR; half.hpp's always round to nearest even).
template <class Isa>
struct HalfBlocks<Isa, BCAST_DTYPE_F16> {
    using C = F16Codec<Isa>;
    using V = typename C::Value;
    static constexpr std::size_t S = C::kStep;
    [[gnu::noinline]] static void widen(const std::uint16_t* p, std::size_t n, float* f) {
        std::size_t i = 0;
        for (; i + S <= n; i += S) C::load(p + i).store_unaligned(f + i);
        if (i == n) return;
        std::uint16_t in[S] = {};
        float out[S];
        std::memcpy(in, p + i, (n - i) * sizeof *in);
        C::load(in).store_unaligned(out);
        std::memcpy(f + i, out, (n - i) * sizeof *out);
    }
    [[gnu::noinline]] static void narrow(const float* f, std::size_t n, std::uint16_t* p) {
        std::size_t i = 0;
        for (; i + S <= n; i += S) C::template store<false>(p + i, V::load_unaligned(f + i));
        if (i == n) return;
        float in[S] = {};
        std::uint16_t out[S];
        std::memcpy(in, f + i, (n - i) * sizeof *in);
        C::template store<false>(out, V::load_unaligned(in));
        std::memcpy(p + i, out, (n - i) * sizeof *out);
    }
};

// bf16 is the top half of an f32: widening is a shift (as Bf16Codec loads),
// narrowing half.hpp's rounding (as Bf16Codec stores); both loops are left
// to the compiler's vectoriser.
template <class Isa>
struct HalfBlocks<Isa, BCAST_DTYPE_BF16> {
    [[gnu::noinline]] static void widen(const std::uint16_t* p, std::size_t n, float* f) {
        for (std::size_t i = 0; i < n; ++i) f[i] = f32_from_bits(std::uint32_t{p[i]} << 16);
    }
    [[gnu::noinline]] static void narrow(const float* f, std::size_t n, std::uint16_t* p) {
        for (std::size_t i = 0; i < n; ++i) p[i] = f32_to_bf16(f[i]);
    }
};

// The walks, once per (ISA, dtype): each takes the f32 kernel to run per
// block.
template <class Isa, bcast_dtype DT>
struct WidenedWalk {
    using H = HalfBlocks<Isa, DT>;
    using Half = std::uint16_t;
    static constexpr std::size_t B = tuning::kWidenedBlock;

    // out[i] = x[i or 0] op y[i or 0] (x_scalar, y_scalar: not both).
    [[gnu::noinline]] static void binary(BinaryFn f32, bool x_scalar, bool y_scalar,
                                         std::size_t n, const void* x, const void* y, void* out) {
        alignas(64) float xb[B], yb[B], ob[B];
        const auto* xh = static_cast<const Half*>(x);
        const auto* yh = static_cast<const Half*>(y);
        if (n == 0) return;  // a scalar operand may be NULL for an empty output
        if (x_scalar) H::widen(xh, 1, xb);
        if (y_scalar) H::widen(yh, 1, yb);
        for (std::size_t i = 0; i < n; i += B) {
            const std::size_t m = n - i < B ? n - i : B;
            if (!x_scalar) H::widen(xh + i, m, xb);
            if (!y_scalar) H::widen(yh + i, m, yb);
            f32(m, xb, yb, ob, false);
            H::narrow(ob, m, static_cast<Half*>(out) + i);
        }
    }

    // out[i] = full[i] op pattern[i % period] (PatternIsX: pattern op full).
    // Periods of up to a block are widened once and run by the f32 periodic
    // kernel over blocks of whole periods; longer ones are widened per block
    // (wrapping at the period) and run by the f32 vv kernel.
    [[gnu::noinline]] static void periodic(PeriodicFn f32_periodic, BinaryFn f32_vv,
                                           bool pattern_is_x, std::size_t n, std::size_t period,
                                           const void* x, const void* y, void* out) {
        if (n == 0 || period == 0) return;
        alignas(64) float fb[B], pb[B], ob[B];
        const auto* full = static_cast<const Half*>(pattern_is_x ? y : x);
        const auto* pat = static_cast<const Half*>(pattern_is_x ? x : y);
        float* xb = pattern_is_x ? pb : fb;
        float* yb = pattern_is_x ? fb : pb;
        if (period <= B) {
            H::widen(pat, period, pb);
            const std::size_t block = B / period * period;
            for (std::size_t i = 0; i < n; i += block) {
                const std::size_t m = n - i < block ? n - i : block;
                H::widen(full + i, m, fb);
                f32_periodic(m, period, xb, yb, ob, false);
                H::narrow(ob, m, static_cast<Half*>(out) + i);
            }
            return;
        }
        for (std::size_t i = 0; i < n; i += B) {
            const std::size_t m = n - i < B ? n - i : B;
            H::widen(full + i, m, fb);
            std::size_t at = i % period;
            for (std::size_t k = 0; k < m;) {
                const std::size_t len = m - k < period - at ? m - k : period - at;
                H::widen(pat + at, len, pb + k);
                k += len;
                at = 0;
            }
            f32_vv(m, xb, yb, ob, false);
            H::narrow(ob, m, static_cast<Half*>(out) + i);
        }
    }
};

// The entries of one op: F32 is the op's f32 kernel table; LeftForms as in
// simd_table.hpp (F32 has them whenever the half dtype needs them).
template <class Isa, bcast_dtype DT, const OpKernels& F32>
struct WidenedEntries {
    using W = WidenedWalk<Isa, DT>;
    static void vv(std::size_t n, const void* x, const void* y, void* out, Stores) {
        W::binary(F32.vv, false, false, n, x, y, out);
    }
    static void vs(std::size_t n, const void* x, const void* y, void* out, Stores) {
        W::binary(F32.vs, false, true, n, x, y, out);
    }
    static void sv(std::size_t n, const void* x, const void* y, void* out, Stores) {
        W::binary(F32.sv, true, false, n, x, y, out);
    }
    static void periodic_y(std::size_t n, std::size_t period, const void* x, const void* y,
                           void* out, Stores) {
        W::periodic(F32.periodic_y, F32.vv, false, n, period, x, y, out);
    }
    static void periodic_x(std::size_t n, std::size_t period, const void* x, const void* y,
                           void* out, Stores) {
        W::periodic(F32.periodic_x, F32.vv, true, n, period, x, y, out);
    }
};

template <class Isa, bcast_dtype DT, const OpKernels& F32, bool LeftForms>
constexpr OpKernels make_widened_kernels() {
    using E = WidenedEntries<Isa, DT, F32>;
    OpKernels k;
    k.vv = &E::vv;
    k.vs = &E::vs;
    k.periodic_y = &E::periodic_y;
    if constexpr (LeftForms) {
        k.sv = &E::sv;
        k.periodic_x = &E::periodic_x;
    }
    return k;
}

template <class Isa, bcast_dtype DT, const OpKernels& F32, bool LeftForms>
inline constexpr OpKernels kWidenedKernels = make_widened_kernels<Isa, DT, F32, LeftForms>();

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
