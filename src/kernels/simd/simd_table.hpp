// What every family's table is assembled from (the families themselves:
// family_<family>.hpp, one per line of kernels/families.hpp): the OpKernels
// of an (op, codec) pair built from the walkers, and the dtype switch that
// picks the codec. A family's lookup returns the OpKernels an ISA fills for
// (kernel op, dtype), nullptr where it has nothing faster than the portable
// kernels. Slots left null (strided, and for some pairs everything) are the
// portable ones; dispatch merges.
//
// Vectorised: + - * max min mean squared_difference prelu / (floats),
// comparisons, bitwise and logical ops, COPY, and the transcendentals where
// simd_transcendental_ops.hpp says. Left portable, because a vector form
// would not be bit-identical with scalar_ops.hpp, not accurate enough, or
// not faster: integer / // % fmod, remainder, shifts, integer pow, the
// transcendentals elsewhere, SELECT, and every op's strided / n-ary kernel.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/simd_loops.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <bcast/bcast.h>

#include <cstdint>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <class Isa, class Op, class Codec>
constexpr OpKernels make_binary_kernels() {
    using E = Bound<Isa, Op, Codec>;
    OpKernels k;
    k.vv = &vv<E>;
    k.vs = &vs<E>;
    k.sv = &sv<E>;
    k.periodic_y = &periodic<E, false>;
    k.periodic_x = &periodic<E, true>;
    k.vv2d = &rows2d<E, kRowsVv>;
    k.vs2d = &rows2d<E, kRowsVs>;
    k.sv2d = &rows2d<E, kRowsSv>;
    return k;
}

template <class Isa, class Op, class Codec>
inline constexpr OpKernels kBinaryKernels = make_binary_kernels<Isa, Op, Codec>();

template <class Isa, class Op, class Codec>
const OpKernels* binary_entry() {
    constexpr bool is_bool = std::is_same_v<Codec, BoolCodec<Isa>>;
    constexpr bool fits = Op::template accepts<typename Codec::Compute, typename Isa::arch> &&
                          (!Op::kComparison || Codec::kCompares) &&
                          (!is_bool || Op::kComparison || Op::kBitwise);
    if constexpr (fits) return &kBinaryKernels<Isa, Op, Codec>;
    else return nullptr;
}

// Ops whose result bits do not depend on the integers' signedness (wrapping
// + - *, ==, !=, & | ^: Op::kSignAgnostic): unsigned dtypes run the signed
// dtype's kernels, one instantiation per element size instead of two.
template <class Isa, class Op, class U>
const OpKernels* unsigned_entry() {
    if constexpr (Op::kSignAgnostic) {
        return binary_entry<Isa, Op, PlainCodec<Isa, std::make_signed_t<U>>>();
    } else {
        return binary_entry<Isa, Op, PlainCodec<Isa, U>>();
    }
}

template <class Isa, class Op>
const OpKernels* binary_kernels(bcast_dtype dt) {
    switch (dt) {
        case BCAST_DTYPE_F32: return binary_entry<Isa, Op, PlainCodec<Isa, float>>();
        case BCAST_DTYPE_F64: return binary_entry<Isa, Op, PlainCodec<Isa, double>>();
        case BCAST_DTYPE_F16:
            if constexpr (!Isa::kHasF16) return nullptr;
            else if constexpr (Isa::kPairsF16Steps && !Op::kComparison) {
                return binary_entry<Isa, Op, F16PairCodec<Isa>>();
            } else {
                return binary_entry<Isa, Op, F16Codec<Isa>>();
            }
        case BCAST_DTYPE_BF16: return binary_entry<Isa, Op, Bf16Codec<Isa>>();
        case BCAST_DTYPE_I8: return binary_entry<Isa, Op, PlainCodec<Isa, std::int8_t>>();
        case BCAST_DTYPE_U8: return unsigned_entry<Isa, Op, std::uint8_t>();
        case BCAST_DTYPE_I16: return binary_entry<Isa, Op, PlainCodec<Isa, std::int16_t>>();
        case BCAST_DTYPE_U16: return unsigned_entry<Isa, Op, std::uint16_t>();
        case BCAST_DTYPE_I32: return binary_entry<Isa, Op, PlainCodec<Isa, std::int32_t>>();
        case BCAST_DTYPE_U32: return unsigned_entry<Isa, Op, std::uint32_t>();
        case BCAST_DTYPE_I64: return binary_entry<Isa, Op, PlainCodec<Isa, std::int64_t>>();
        case BCAST_DTYPE_U64: return unsigned_entry<Isa, Op, std::uint64_t>();
        case BCAST_DTYPE_BOOL: return binary_entry<Isa, Op, BoolCodec<Isa>>();
        default: return nullptr;
    }
}

template <class Isa, class Op>
const OpKernels* logical_kernels(bcast_dtype dt) {
    return dt == BCAST_DTYPE_BOOL ? binary_kernels<Isa, Op>(dt) : nullptr;
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

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
