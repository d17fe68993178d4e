// The division family (kernels/families.hpp): / of floats (integer division
// and the other division ops stay portable).
// Included by the generated translation unit <isa>_division.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// Floats only: integer division has the by-zero and INT_MIN / -1 rules.
struct Div : OpFlags {
    template <class T, class A> static constexpr bool accepts = kFloat<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return Quotient<A>::of(x, y); }
};

template <class Isa>
const OpKernels* division_kernels(bcast_opcode op, bcast_dtype dt) {
    return op == BCAST_OP_DIV ? binary_kernels<Isa, Div>(dt) : nullptr;
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
