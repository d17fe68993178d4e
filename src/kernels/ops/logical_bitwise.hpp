// The logical_bitwise family (kernels/families.hpp): logical and/or/xor of
// BOOL, bitwise & | ^ of integers and BOOL, shifts. Each op once (lanes.hpp),
// and the family's list of ops. BOOL computes as 0/1 (bool scalars, 0/1 bytes in
// batches), so & | ^ are the logical ops too.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

#define BCAST_BITWISE(Name, Code, op)                                        \
    struct Name : OpDef<Code> {                                              \
        static constexpr bool kSignAgnostic = true;                          \
        template <class V>                                                   \
        static V apply(V x, V y) { return static_cast<V>(x op y); }          \
    };
BCAST_BITWISE(LogicalAnd, BCAST_OP_LOGICAL_AND, &)
BCAST_BITWISE(LogicalOr, BCAST_OP_LOGICAL_OR, |)
BCAST_BITWISE(LogicalXor, BCAST_OP_LOGICAL_XOR, ^)
BCAST_BITWISE(BitwiseAnd, BCAST_OP_BITWISE_AND, &)
BCAST_BITWISE(BitwiseOr, BCAST_OP_BITWISE_OR, |)
BCAST_BITWISE(BitwiseXor, BCAST_OP_BITWISE_XOR, ^)
#undef BCAST_BITWISE

// Shifts (scalar only): a count < 0 or >= the bit width gives 0. Left
// shifts in the unsigned type (wrap); right shifts of negative values are
// arithmetic, written as ~(~x >> n) so no negative value is ever shifted.
struct ShiftLeft : OpDef<BCAST_OP_SHIFT_LEFT> {
    template <class T>
    static constexpr bool kVectorized = false;
    template <class T>
    static T apply(T x, T n) {
        if constexpr (kIsSignedInt<T>) {
            if (n < 0) return T{0};
        }
        if (n >= static_cast<T>(8 * sizeof(T))) return T{0};
        using U = WrapType<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(x) << static_cast<unsigned>(n)));
    }
};

struct ShiftRight : OpDef<BCAST_OP_SHIFT_RIGHT> {
    template <class T>
    static constexpr bool kVectorized = false;
    template <class T>
    static T apply(T x, T n) {
        if constexpr (kIsSignedInt<T>) {
            if (n < 0) return T{0};
        }
        if (n >= static_cast<T>(8 * sizeof(T))) return T{0};
        const auto count = static_cast<unsigned>(n);
        if constexpr (kIsSignedInt<T>) {
            if (x < 0) return static_cast<T>(~(~x >> count));
        }
        return static_cast<T>(x >> count);
    }
};

// The family's ops (ops/op_list.hpp).
using logical_bitwise_ops = OpList<
    LogicalAnd, LogicalOr, LogicalXor, BitwiseAnd, BitwiseOr, BitwiseXor, ShiftLeft, ShiftRight>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
