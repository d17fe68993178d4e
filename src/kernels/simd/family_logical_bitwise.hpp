// The logical_bitwise family (kernels/families.hpp): & | ^ of integers, and of
// BOOL bytes for the logical ops.
// Included by the generated translation unit <isa>_logical_bitwise.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// ---------------------------------------------------------- bitwise, logical
// Integers, and BOOL as 0/1 bytes: & | ^ of 0/1 are the logical ops too.

#define BCAST_SIMD_BITWISE(Name, op)                                       \
    struct Name : OpFlags {                                                \
        static constexpr bool kBitwise = true;                             \
        static constexpr bool kSignAgnostic = true;                        \
        template <class T, class A> static constexpr bool accepts = kInt<T>;        \
        template <class T, class A>                                        \
        static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return x op y; } \
    };
BCAST_SIMD_BITWISE(BitwiseAnd, &)
BCAST_SIMD_BITWISE(BitwiseOr, |)
BCAST_SIMD_BITWISE(BitwiseXor, ^)
#undef BCAST_SIMD_BITWISE

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

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
