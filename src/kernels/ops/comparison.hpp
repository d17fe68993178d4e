// The comparison family (kernels/families.hpp): == != < <= > >=, written as
// BOOL bytes. Each op once (lanes.hpp), and the family's lookup.
// IEEE for floats (NaN: false, except NOT_EQUAL); BOOL compares as 0/1.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"

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

template <class Tables>
const OpKernels* comparison_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_EQUAL: return Tables::template binary<Equal>(dt);
        case BCAST_OP_NOT_EQUAL: return Tables::template binary<NotEqual>(dt);
        case BCAST_OP_LESS: return Tables::template binary<Less>(dt);
        case BCAST_OP_LESS_EQUAL: return Tables::template binary<LessEqual>(dt);
        case BCAST_OP_GREATER: return Tables::template binary<Greater>(dt);
        case BCAST_OP_GREATER_EQUAL: return Tables::template binary<GreaterEqual>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
