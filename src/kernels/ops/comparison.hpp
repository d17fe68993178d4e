// The comparison family (kernels/families.hpp): == != < <= > >=, written as
// BOOL bytes. Each op once (lanes.hpp), and the family's list of ops.
// IEEE for floats (NaN: false, except NOT_EQUAL); BOOL compares as 0/1.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

// NOT_EQUAL is spelled !(x == y): xsimd 8.1's != is the ordered compare
// (false with a NaN) on AVX and AVX-512, unlike C's.
#define BCAST_COMPARISON(Name, Code, SignAgnostic, expr)  \
    struct Name : OpDef<Code> {                           \
        static constexpr bool kComparison = true;         \
        static constexpr bool kSignAgnostic = SignAgnostic; \
        template <class V>                                \
        static auto apply(V x, V y) { return expr; }      \
    };
BCAST_COMPARISON(Equal, BCAST_OP_EQUAL, true, x == y)
BCAST_COMPARISON(NotEqual, BCAST_OP_NOT_EQUAL, true, logical_not(x == y))
BCAST_COMPARISON(Less, BCAST_OP_LESS, false, x < y)
BCAST_COMPARISON(LessEqual, BCAST_OP_LESS_EQUAL, false, x <= y)
BCAST_COMPARISON(Greater, BCAST_OP_GREATER, false, x > y)
BCAST_COMPARISON(GreaterEqual, BCAST_OP_GREATER_EQUAL, false, x >= y)
#undef BCAST_COMPARISON

// The family's ops (ops/op_list.hpp).
using comparison_ops = OpList<Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
