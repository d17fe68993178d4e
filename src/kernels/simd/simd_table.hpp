// The SIMD table builder (Tables<Isa>, which the family lookups in
// kernels/ops/ take): the OpKernels of an (op, codec) pair built from the
// walkers, and the dtype switch that picks the codec. A lookup returns the
// OpKernels an ISA fills for (kernel op, dtype), nullptr where it has
// nothing faster than the portable kernels. Slots left null (strided, the
// left-broadcast forms of pairs the plan exchanges, and for some pairs
// everything) are the portable ones; dispatch merges.
//
// Vectorised: every pair op_info lists whose op is kVectorized for the
// compute type, the transcendentals where simd_vector_math.hpp says
// (of f16 and bf16 through their f32 kernels: simd_widened.hpp), and COPY.
// Left portable: integer / // % fmod, remainder, shifts, integer pow (no
// vector instruction, or built on C's fmod), integer products where the ISA
// has no vector multiply for the lane type (simd_lanes.hpp), the
// transcendentals elsewhere, SELECT, and every op's strided / n-ary kernel.
#pragma once

#include "core/op_info.hpp"
#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/simd_loops.hpp"
#include "kernels/simd/simd_lanes.hpp"
#include "kernels/simd/simd_vector_math.hpp"
#include "kernels/simd/simd_widened.hpp"

#include <bcast/bcast.h>

#include <cstdint>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// The left-broadcast forms (sv, periodic_x, sv2d and vv rows over a
// repeated x) only where the plan cannot run them as the right-broadcast
// forms with the operands exchanged (op_info.hpp: exchanged_op).
template <class Isa, class Op, class Codec, bool kLeftForms>
constexpr OpKernels make_binary_kernels() {
    using E = Bound<Isa, Op, Codec>;
    OpKernels k;
    k.vv = &vv<E>;
    k.vs = &vs<E>;
    k.periodic_y = &periodic<E, false>;
    k.vv2d = &rows2d<E, kRowsVv, kLeftForms>;
    k.vs2d = &rows2d<E, kRowsVs>;
    if constexpr (kLeftForms) {
        k.sv = &sv<E>;
        k.periodic_x = &periodic<E, true>;
        k.sv2d = &rows2d<E, kRowsSv>;
    }
    return k;
}

template <class Isa, class Op, class Codec, bool kLeftForms>
inline constexpr OpKernels kBinaryKernels = make_binary_kernels<Isa, Op, Codec, kLeftForms>();

// The kernels of Op for dtype DT through Codec, if op_info lists the pair
// and Op has a vector form for the codec's compute type on this ISA.
template <class Isa, class Op, class Codec, bcast_dtype DT>
constexpr bool vectorizes() {
    using T = typename Codec::Compute;
    return lanes::supports<Op>(DT) && Op::template kVectorized<T> &&
           kVectorMathPays<Op::kMath, T, typename Isa::arch> &&
           (!Op::template kIntProduct<T> || lanes::kVectorMultiplies<T, typename Isa::arch>) &&
           (!Op::kComparison || Codec::kCompares);
}

template <class Isa, class Op, class Codec, bcast_dtype DT>
const OpKernels* binary_entry() {
    constexpr bool left_forms = exchanged_op(Op::kOp, DT) < 0;
    if constexpr (vectorizes<Isa, Op, Codec, DT>()) return &kBinaryKernels<Isa, Op, Codec, left_forms>;
    else return nullptr;
}

// Half-float ops whose walkers are built per op through the half codecs:
// every op but the vector transcendentals. Those spend tens of cycles per
// element in vector math, so they run their f32 kernels over widened blocks
// (simd_widened.hpp) at no measurable cost and with a fraction of the code;
// cheap ops lost 2x-3x that way in cache (docs/kernels.md, "The build").
template <class Op>
inline constexpr bool kInlineHalfOp = Op::kMath == lanes::VectorMath::None;

// Op on a half dtype through Op's f32 kernels, where those exist.
template <class Isa, class Op, bcast_dtype DT>
const OpKernels* widened_entry() {
    using F32 = PlainCodec<Isa, float>;
    constexpr bool f32_left_forms = exchanged_op(Op::kOp, BCAST_DTYPE_F32) < 0;
    constexpr bool left_forms = exchanged_op(Op::kOp, DT) < 0;
    static_assert(f32_left_forms || !left_forms, "the f32 table has the forms the half one needs");
    static_assert(!Op::kComparison, "widened results are narrowed back to the half dtype");
    if constexpr (lanes::supports<Op>(DT) && vectorizes<Isa, Op, F32, BCAST_DTYPE_F32>()) {
        return &kWidenedKernels<Isa, DT, kBinaryKernels<Isa, Op, F32, f32_left_forms>, left_forms>;
    } else {
        return nullptr;
    }
}

// Ops whose result bits do not depend on the integers' signedness
// (Op::kSignAgnostic): unsigned dtypes run the signed dtype's kernels, one
// instantiation per element size instead of two. Order comparisons may
// compare sign-flipped lanes (SignFlippedCodec).
template <class Isa, class Op, class U, bcast_dtype DT>
const OpKernels* unsigned_entry() {
    if constexpr (Op::kSignAgnostic) {
        return binary_entry<Isa, Op, PlainCodec<Isa, std::make_signed_t<U>>, DT>();
    } else if constexpr (Op::kComparison && kFlipsUnsignedCompares<typename Isa::arch>) {
        return binary_entry<Isa, Op, SignFlippedCodec<Isa, U>, DT>();
    } else {
        return binary_entry<Isa, Op, PlainCodec<Isa, U>, DT>();
    }
}

template <class Isa, class Op>
const OpKernels* binary_kernels(bcast_dtype dt) {
    switch (dt) {
        case BCAST_DTYPE_F32: return binary_entry<Isa, Op, PlainCodec<Isa, float>, BCAST_DTYPE_F32>();
        case BCAST_DTYPE_F64: return binary_entry<Isa, Op, PlainCodec<Isa, double>, BCAST_DTYPE_F64>();
        case BCAST_DTYPE_F16:
            if constexpr (!Isa::kHasF16) return nullptr;
            else if constexpr (!kInlineHalfOp<Op>) return widened_entry<Isa, Op, BCAST_DTYPE_F16>();
            else if constexpr (Isa::kPairsF16Steps && !Op::kComparison) {
                return binary_entry<Isa, Op, F16PairCodec<Isa>, BCAST_DTYPE_F16>();
            } else {
                return binary_entry<Isa, Op, F16Codec<Isa>, BCAST_DTYPE_F16>();
            }
        case BCAST_DTYPE_BF16:
            if constexpr (!kInlineHalfOp<Op>) return widened_entry<Isa, Op, BCAST_DTYPE_BF16>();
            else return binary_entry<Isa, Op, Bf16Codec<Isa>, BCAST_DTYPE_BF16>();
        case BCAST_DTYPE_I8: return binary_entry<Isa, Op, PlainCodec<Isa, std::int8_t>, BCAST_DTYPE_I8>();
        case BCAST_DTYPE_U8: return unsigned_entry<Isa, Op, std::uint8_t, BCAST_DTYPE_U8>();
        case BCAST_DTYPE_I16: return binary_entry<Isa, Op, PlainCodec<Isa, std::int16_t>, BCAST_DTYPE_I16>();
        case BCAST_DTYPE_U16: return unsigned_entry<Isa, Op, std::uint16_t, BCAST_DTYPE_U16>();
        case BCAST_DTYPE_I32: return binary_entry<Isa, Op, PlainCodec<Isa, std::int32_t>, BCAST_DTYPE_I32>();
        case BCAST_DTYPE_U32: return unsigned_entry<Isa, Op, std::uint32_t, BCAST_DTYPE_U32>();
        case BCAST_DTYPE_I64: return binary_entry<Isa, Op, PlainCodec<Isa, std::int64_t>, BCAST_DTYPE_I64>();
        case BCAST_DTYPE_U64: return unsigned_entry<Isa, Op, std::uint64_t, BCAST_DTYPE_U64>();
        case BCAST_DTYPE_BOOL: return binary_entry<Isa, Op, BoolCodec<Isa>, BCAST_DTYPE_BOOL>();
        default: return nullptr;
    }
}

template <class Isa, class T>
constexpr OpKernels make_copy_kernels() {
    using E = Moved<Isa, PlainCodec<Isa, T>>;
    OpKernels k;
    k.copy = &copy<E>;
    k.fill = &fill<E>;
    return k;
}

template <class Isa, class T>
inline constexpr OpKernels kCopyKernels = make_copy_kernels<Isa, T>();

// COPY moves bytes: one kernel per element size, as the portable one.
template <class Isa>
const OpKernels* copy_kernels(bcast_dtype dt) {
    switch (dt) {
        case BCAST_DTYPE_I8:
        case BCAST_DTYPE_U8:
        case BCAST_DTYPE_BOOL: return &kCopyKernels<Isa, std::uint8_t>;
        case BCAST_DTYPE_F16:
        case BCAST_DTYPE_BF16:
        case BCAST_DTYPE_I16:
        case BCAST_DTYPE_U16: return &kCopyKernels<Isa, std::uint16_t>;
        case BCAST_DTYPE_F32:
        case BCAST_DTYPE_I32:
        case BCAST_DTYPE_U32: return &kCopyKernels<Isa, std::uint32_t>;
        case BCAST_DTYPE_F64:
        case BCAST_DTYPE_I64:
        case BCAST_DTYPE_U64: return &kCopyKernels<Isa, std::uint64_t>;
        default: return nullptr;
    }
}

// The SIMD table builder of one ISA, for the family lookups (kernels/ops/).
template <class Isa>
struct Tables {
    template <class Op>
    static const OpKernels* binary(bcast_dtype dt) { return binary_kernels<Isa, Op>(dt); }
    static const OpKernels* copy(bcast_dtype dt) { return copy_kernels<Isa>(dt); }
    static const OpKernels* select(bcast_dtype) { return nullptr; }  // SELECT stays portable
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
