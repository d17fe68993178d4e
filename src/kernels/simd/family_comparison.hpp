// The comparison family (kernels/families.hpp): == != < <= > >=, stored as
// BOOL bytes.
// Included by the generated translation unit <isa>_comparison.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// --------------------------------------------------------------- comparisons
// IEEE ordered compares (false with a NaN), NOT_EQUAL unordered (true): it
// is spelled ~(x == y) because xsimd 8.1's != is ordered on AVX/AVX-512.

#define BCAST_SIMD_COMPARISON(Name, SignAgnostic, expr)                    \
    struct Name : OpFlags {                                                \
        static constexpr bool kComparison = true;                          \
        static constexpr bool kSignAgnostic = SignAgnostic;                \
        template <class T, class A> static constexpr bool accepts = kNumeric<T>;    \
        template <class T, class A>                                        \
        static xsimd::batch_bool<T, A> apply(Batch<T, A> x, Batch<T, A> y) { \
            return expr;                                                   \
        }                                                                  \
    };
BCAST_SIMD_COMPARISON(Equal, true, x == y)
BCAST_SIMD_COMPARISON(NotEqual, true, ~(x == y))
BCAST_SIMD_COMPARISON(Less, false, x < y)
BCAST_SIMD_COMPARISON(LessEqual, false, x <= y)
BCAST_SIMD_COMPARISON(Greater, false, x > y)
BCAST_SIMD_COMPARISON(GreaterEqual, false, x >= y)
#undef BCAST_SIMD_COMPARISON

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

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
