// Codecs: how a dtype's storage becomes the batches an op computes on, and
// back. Each codec has
//   Storage, Compute   the element types (as dtype_traits.hpp),
//   Value              what one step loads (a batch, or two: bf16, paired f16),
//   kStep              elements per step,
//   load / store<NT>   one full step (NT: a non-temporal store, which needs
//                      the address aligned to kStep * sizeof(Storage)),
//   splat(p)           *p in every lane, as load would give it: by register
//                      broadcast, since a step loaded from a buffer just
//                      filled element by element stalls on store forwarding
//                      (paid once per row by vs/sv rows),
//   first_lanes(k, a, b)  the first k elements of a step from a, the rest
//                      from b (k <= kStep),
//   apply<Op>(x, y)    Op on one step.
// Conversions are bit-exact with half.hpp (round to nearest even, NaNs kept
// quiet), so a SIMD kernel stores exactly what the portable one does.
//
// The ISA policy (Isa) names the xsimd arch and provides what xsimd 8.1 lacks:
// put<NT> (store or stream a batch), fence, store_bools (a batch_bool as W
// bytes of 0/1), and, when kHasF16, load_f16 / store_f16<NT> (and, when
// kPairsF16Steps, store_f16_pair<NT>: two steps as one vector).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// 0, 1, ..., N-1 as a batch of T, loaded from constant data (a buffer
// filled just before would stall the load on store forwarding).
template <class T>
constexpr std::array<T, 64> make_lane_index() {
    std::array<T, 64> index{};
    for (std::size_t j = 0; j < index.size(); ++j) index[j] = static_cast<T>(j);
    return index;
}
template <class T>
alignas(64) inline constexpr std::array<T, 64> kLaneIndex = make_lane_index<T>();

template <class T, class A>
Batch<T, A> lane_index() {
    static_assert(Batch<T, A>::size <= 64, "kLaneIndex covers every lane");
    return Batch<T, A>::load_aligned(kLaneIndex<T>.data());
}

// A lane count k (<= 64) as a float: through int32_t, since size_t to
// float is a slow instruction sequence before AVX-512.
template <class T>
T lane_count(std::size_t k) {
    return static_cast<T>(static_cast<std::int32_t>(k));
}

// 64 all-ones integers, then 64 zeros: loaded at 64 - k, lanes below k set.
template <class T>
constexpr std::array<T, 128> make_first_lanes_mask() {
    std::array<T, 128> mask{};
    for (std::size_t j = 0; j < 64; ++j) mask[j] = static_cast<T>(~T{0});
    return mask;
}
template <class T>
inline constexpr std::array<T, 128> kFirstLanesMask = make_first_lanes_mask<T>();

// Storage == compute.
template <class Isa, class T>
struct PlainCodec {
    using Storage = T;
    using Compute = T;
    using Value = Batch<T, typename Isa::arch>;
    static constexpr std::size_t kStep = Value::size;
    static constexpr bool kCompares = true;

    static Value load(const Storage* p) { return Value::load_unaligned(p); }
    static Value splat(const Storage* p) { return Value(*p); }
    // Integers by a mask and bitwise ops: xsimd 8.1's integer select does
    // not compile at -O0 on AVX-512.
    static Value first_lanes(std::size_t k, Value a, Value b) {
        if constexpr (std::is_floating_point_v<T>) {
            return xsimd::select(lane_index<T, typename Isa::arch>() < Value(lane_count<T>(k)), a, b);
        } else {
            const Value m = Value::load_unaligned(kFirstLanesMask<T>.data() + (64 - k));
            return (a & m) | (b & ~m);
        }
    }
    template <bool NT>
    static void store(Storage* p, Value v) { Isa::template put<NT>(p, v); }
    template <class Op>
    static auto apply(Value x, Value y) { return Op::apply(x, y); }
};

// Unsigned lanes for an order comparison, as signed lanes with the sign bit
// flipped (which keeps their order), where the ISA compares signed lanes
// only: xsimd 8.1 splits AVX2's unsigned compares into two SSE halves, 1.2x-
// 1.5x slower than the portable loop in cache. Comparisons only: the values
// loaded are not the dtype's, and nothing stores them.
template <class Isa, class U>
struct SignFlippedCodec : PlainCodec<Isa, std::make_signed_t<U>> {
    using S = std::make_signed_t<U>;
    using Storage = U;
    using Value = typename PlainCodec<Isa, S>::Value;
    static constexpr S kSignBit = std::numeric_limits<S>::min();

    static Value load(const U* p) {  // U and S may alias each other
        return Value::load_unaligned(reinterpret_cast<const S*>(p)) ^ Value(kSignBit);
    }
    static Value splat(const U* p) { return Value(static_cast<S>(*p ^ static_cast<U>(kSignBit))); }
};

// Whether order comparisons of unsigned lanes go through SignFlippedCodec:
// on AVX and AVX2 (AVX-512, NEON and xsimd's SSE2 compare them natively or
// flip them the same way).
template <class A>
inline constexpr bool kFlipsUnsignedCompares = std::is_base_of_v<xsimd::avx, A>;

// BOOL bytes: any non-zero byte is true, so loads squash them to 0/1; the
// bitwise ops and comparisons then give what ops:: gives on bool. By an
// unsigned byte min, except on SSE2: xsimd 8.1 does not use its pminub but
// builds the min from compares of sign-flipped bytes and a select, which made
// every BOOL op there 2x-3x slower than the portable loop; a compare with
// zero and a select are two instructions.
template <class Isa>
struct BoolCodec : PlainCodec<Isa, std::uint8_t> {
    using Value = typename PlainCodec<Isa, std::uint8_t>::Value;
    static Value load(const std::uint8_t* p) {
        const Value v = Value::load_unaligned(p);
        const Value zero(std::uint8_t{0}), one(std::uint8_t{1});
        if constexpr (std::is_same_v<typename Isa::arch, xsimd::sse2>) {
            return xsimd::select(v == zero, zero, one);
        } else {
            return xsimd::min(v, one);
        }
    }
    static Value splat(const std::uint8_t* p) { return Value(std::uint8_t{*p != 0}); }
};

// f16 through the ISA's hardware conversions (F16C: exact, RNE on store).
template <class Isa>
struct F16Codec {
    using Storage = std::uint16_t;
    using Compute = float;
    using Value = Batch<float, typename Isa::arch>;
    static constexpr std::size_t kStep = Value::size;
    static constexpr bool kCompares = true;

    static Value load(const Storage* p) { return Isa::load_f16(p); }
    // The bits broadcast, stored as one vector (which the load then reads
    // back whole: forwarded), and converted as load does.
    static Value splat(const Storage* p) {
        using Bits = Batch<std::uint16_t, typename Isa::arch>;
        static_assert(Bits::size >= kStep, "one broadcast store covers a step");
        Storage buf[Bits::size];
        Bits(*p).store_unaligned(buf);
        return Isa::load_f16(buf);
    }
    static Value first_lanes(std::size_t k, Value a, Value b) {
        using A = typename Isa::arch;
        return xsimd::select(lane_index<float, A>() < Value(lane_count<float>(k)), a, b);
    }
    template <bool NT>
    static void store(Storage* p, Value v) { Isa::template store_f16<NT>(p, v); }
    template <class Op>
    static auto apply(Value x, Value y) { return Op::apply(x, y); }
};

// f16 two F16Codec steps at a time, stored as one vector, for ISAs whose
// f16 step is half a vector (kPairsF16Steps: AVX2, 8 halves in 16 bytes).
// Streamed one step at a time those are 16-byte streaming stores, which
// took 1.33x-1.37x the time of 32-byte ones on (16M)+() f16 (AMD Zen 4).
// Comparisons keep F16Codec: their BOOL bytes are never streamed.
template <class Isa>
struct F16PairCodec {
    using Half = F16Codec<Isa>;
    using F = typename Half::Value;
    struct Value {
        F lo, hi;
    };
    using Storage = std::uint16_t;
    using Compute = float;
    static constexpr std::size_t kStep = 2 * Half::kStep;
    static constexpr bool kCompares = false;

    static Value load(const Storage* p) { return {Half::load(p), Half::load(p + Half::kStep)}; }
    static Value splat(const Storage* p) {
        const F s = Half::splat(p);
        return {s, s};
    }
    static Value first_lanes(std::size_t k, Value a, Value b) {
        constexpr std::size_t h = Half::kStep;
        return {Half::first_lanes(k < h ? k : h, a.lo, b.lo),
                Half::first_lanes(k < h ? 0 : k - h, a.hi, b.hi)};
    }
    template <bool NT>
    static void store(Storage* p, Value v) { Isa::template store_f16_pair<NT>(p, v.lo, v.hi); }
    template <class Op>
    static Value apply(Value x, Value y) {
        return {Op::apply(x.lo, y.lo), Op::apply(x.hi, y.hi)};
    }
};

// bf16 with integer lanes only: a 32-bit lane holds two bf16 elements, so the
// even elements become floats by a left shift and the odd ones by masking
// the low half. Element-wise ops do not care about order, so each half is
// computed as is and the two are merged back: no widening needed.
template <class Isa>
struct Bf16Codec {
    using A = typename Isa::arch;
    using F = Batch<float, A>;
    using I = Batch<std::int32_t, A>;
    struct Value {
        F even, odd;
    };
    using Storage = std::uint16_t;
    using Compute = float;
    static constexpr std::size_t kStep = 2 * F::size;
    static constexpr bool kCompares = false;  // results would come out interleaved

    static Value from_pairs(I u) {
        return {xsimd::bitwise_cast<F>(u << 16),
                xsimd::bitwise_cast<F>(u & I(static_cast<std::int32_t>(0xffff0000u)))};
    }
    static Value load(const Storage* p) {
        return from_pairs(I::load_unaligned(reinterpret_cast<const std::int32_t*>(p)));
    }
    static Value splat(const Storage* p) {
        const std::uint32_t pair = (std::uint32_t{*p} << 16) | *p;
        return from_pairs(I(static_cast<std::int32_t>(pair)));
    }
    // Element 2j is even lane j, element 2j + 1 odd lane j.
    static Value first_lanes(std::size_t k, Value a, Value b) {
        const F twice = lane_index<float, A>() * F(2.0f);
        const F kf(lane_count<float>(k));
        return {xsimd::select(twice < kf, a.even, b.even),
                xsimd::select(twice + F(1.0f) < kf, a.odd, b.odd)};
    }
    // f32 bits whose top half is f32_to_bf16: RNE by adding 0x7fff plus the
    // kept LSB; a NaN keeps its top bits with the quiet bit forced.
    // (The choice is made on float lanes: xsimd 8.1's integer select on
    // AVX-512 does not compile at -O0.)
    static I rounded(F f) {
        const I bits = xsimd::bitwise_cast<I>(f);
        const I up = bits + (I(0x7fff) + ((bits >> 16) & I(1)));
        const F quiet_nan = xsimd::bitwise_cast<F>(bits | I(0x00400000));
        return xsimd::bitwise_cast<I>(xsimd::select(is_nan(f), quiet_nan, xsimd::bitwise_cast<F>(up)));
    }
    template <bool NT>
    static void store(Storage* p, Value v) {
        const I even = (rounded(v.even) >> 16) & I(0xffff);
        const I odd = rounded(v.odd) & I(static_cast<std::int32_t>(0xffff0000u));
        Isa::template put<NT>(reinterpret_cast<std::int32_t*>(p), even | odd);
    }
    template <class Op>
    static Value apply(Value x, Value y) {
        return {Op::apply(x.even, y.even), Op::apply(x.odd, y.odd)};
    }
};

// count (<= 8) mask bits as count BOOL bytes, for ISAs whose mask of 8-byte
// lanes is easiest read as bits. Four bits at a time: bit k moves to byte k
// by one multiply (the shifted copies cannot overlap, so nothing carries).
inline void store_mask_bits(std::uint8_t* out, unsigned bits, std::size_t count) {
    for (std::size_t k = 0; k < count; k += 4) {
        const std::uint32_t nibble = (bits >> k) & 0xfu;
        const std::uint32_t bytes = (nibble * 0x00204081u) & 0x01010101u;
        std::memcpy(out + k, &bytes, count - k < 4 ? count - k : 4);
    }
}

// The output of a comparison: one BOOL byte per lane of the input step.
template <class Isa, class InCodec>
struct BoolOutCodec {
    using Storage = std::uint8_t;
    static constexpr std::size_t kStep = InCodec::kStep;
    template <bool NT, class Mask>
    static void store(Storage* p, Mask m) { Isa::store_bools(p, m); }  // never streamed
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
