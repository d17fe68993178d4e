// An ISA's kernel table, assembled from the loop templates: each family's
// lookup (arithmetic_kernels<Isa> ...) returns the OpKernels an ISA fills for
// (kernel op, dtype), nullptr where it has nothing faster than the portable
// kernels. Slots left null (strided, and for some pairs everything) are the
// portable ones; dispatch merges.
//
// Vectorised: + - * max min mean squared_difference prelu / (floats),
// comparisons, bitwise and logical ops, COPY, and the transcendentals where
// simd_transcendental_ops.hpp says (atan2, logaddexp of f32, f16, bf16
// everywhere and of f64 on AVX2 and AVX-512; pow of f32, f16, bf16 on AVX2
// and AVX-512 and of f64 on AVX-512). Left portable, because a vector form
// would not be bit-identical with scalar_ops.hpp, not accurate enough, or
// not faster: integer / // % fmod, remainder, shifts, integer pow, the
// transcendentals elsewhere, SELECT, and every op's strided / n-ary kernel.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/simd_loops.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_transcendental_ops.hpp"

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

template <class Op>
inline constexpr bool kIsComparison =
    std::is_same_v<Op, Equal> || std::is_same_v<Op, NotEqual> || std::is_same_v<Op, Less> ||
    std::is_same_v<Op, LessEqual> || std::is_same_v<Op, Greater> ||
    std::is_same_v<Op, GreaterEqual>;

template <class Op>
inline constexpr bool kIsBitwise = std::is_same_v<Op, BitwiseAnd> ||
                                   std::is_same_v<Op, BitwiseOr> || std::is_same_v<Op, BitwiseXor>;

template <class Isa, class Op, class Codec>
const OpKernels* binary_entry() {
    constexpr bool is_bool = std::is_same_v<Codec, BoolCodec<Isa>>;
    constexpr bool fits = Op::template accepts<typename Codec::Compute, typename Isa::arch> &&
                          (!kIsComparison<Op> || Codec::kCompares) &&
                          (!is_bool || kIsComparison<Op> || kIsBitwise<Op>);
    if constexpr (fits) return &kBinaryKernels<Isa, Op, Codec>;
    else return nullptr;
}

// Ops whose result bits do not depend on the integers' signedness (wrapping
// + - *, ==, !=, & | ^): unsigned dtypes run the signed dtype's kernels, one
// instantiation per element size instead of two.
template <class Op>
inline constexpr bool kSignAgnostic = std::is_same_v<Op, Add> || std::is_same_v<Op, Sub> ||
                                      std::is_same_v<Op, Mul> || std::is_same_v<Op, Equal> ||
                                      std::is_same_v<Op, NotEqual> || kIsBitwise<Op>;

template <class Isa, class Op, class U>
const OpKernels* unsigned_entry() {
    if constexpr (kSignAgnostic<Op>) {
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
            else if constexpr (Isa::kPairsF16Steps && !kIsComparison<Op>) {
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

// One lookup per op family (kernels/families.hpp): each generated
// translation unit instantiates its own family's alone.
template <class Isa>
const OpKernels* arithmetic_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_ADD: return binary_kernels<Isa, Add>(dt);
        case BCAST_OP_SUB: return binary_kernels<Isa, Sub>(dt);
        case BCAST_OP_MUL: return binary_kernels<Isa, Mul>(dt);
        case BCAST_OP_MEAN: return binary_kernels<Isa, Mean>(dt);
        case BCAST_OP_SQUARED_DIFFERENCE: return binary_kernels<Isa, SquaredDifference>(dt);
        default: return nullptr;
    }
}

template <class Isa>
const OpKernels* piecewise_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_MAX: return binary_kernels<Isa, Max>(dt);
        case BCAST_OP_MIN: return binary_kernels<Isa, Min>(dt);
        case BCAST_OP_PRELU: return binary_kernels<Isa, Prelu>(dt);
        default: return nullptr;
    }
}

template <class Isa>
const OpKernels* division_kernels(bcast_opcode op, bcast_dtype dt) {
    return op == BCAST_OP_DIV ? binary_kernels<Isa, Div>(dt) : nullptr;
}

template <class Isa>
const OpKernels* transcendental_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_POW: return binary_kernels<Isa, Pow>(dt);
        case BCAST_OP_ATAN2: return binary_kernels<Isa, Atan2>(dt);
        case BCAST_OP_LOGADDEXP: return binary_kernels<Isa, Logaddexp>(dt);
        default: return nullptr;
    }
}

template <class Isa>
const OpKernels* comparison_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_EQUAL: return binary_kernels<Isa, Equal>(dt);
        case BCAST_OP_NOT_EQUAL: return binary_kernels<Isa, NotEqual>(dt);
        case BCAST_OP_LESS: return binary_kernels<Isa, Less>(dt);
        case BCAST_OP_LESS_EQUAL: return binary_kernels<Isa, LessEqual>(dt);
        case BCAST_OP_GREATER: return binary_kernels<Isa, Greater>(dt);
        case BCAST_OP_GREATER_EQUAL: return binary_kernels<Isa, GreaterEqual>(dt);
        default: return nullptr;
    }
}

template <class Isa>
const OpKernels* logical_bitwise_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_BITWISE_AND: return binary_kernels<Isa, BitwiseAnd>(dt);
        case BCAST_OP_BITWISE_OR: return binary_kernels<Isa, BitwiseOr>(dt);
        case BCAST_OP_BITWISE_XOR: return binary_kernels<Isa, BitwiseXor>(dt);
        // BOOL only: & | ^ of the 0/1 bytes BoolCodec loads.
        case BCAST_OP_LOGICAL_AND: return logical_kernels<Isa, BitwiseAnd>(dt);
        case BCAST_OP_LOGICAL_OR: return logical_kernels<Isa, BitwiseOr>(dt);
        case BCAST_OP_LOGICAL_XOR: return logical_kernels<Isa, BitwiseXor>(dt);
        default: return nullptr;
    }
}

template <class Isa>
const OpKernels* data_movement_kernels(bcast_opcode op, bcast_dtype dt) {
    return op == BCAST_OP_COPY ? copy_kernels<Isa>(dt) : nullptr;
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
