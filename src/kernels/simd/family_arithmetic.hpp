// The arithmetic family (kernels/families.hpp): + - * (wrapping for integers),
// mean, squared difference.
// Included by the generated translation unit <isa>_arithmetic.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

struct Add : OpFlags {
    static constexpr bool kSignAgnostic = true;
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return wrap_add(x, y); }
};

struct Sub : OpFlags {
    static constexpr bool kSignAgnostic = true;
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return wrap_sub(x, y); }
};

struct Mul : OpFlags {
    static constexpr bool kSignAgnostic = true;
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return wrap_mul(x, y); }
};

// Two inputs: (x + y) / 2, one division as ops::Mean::finish.
struct Mean : OpFlags {
    template <class T, class A> static constexpr bool accepts = kFloat<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        return Quotient<A>::of(x + y, Batch<T, A>(T{2}));
    }
};

struct SquaredDifference : OpFlags {
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        const Batch<T, A> d = wrap_sub(x, y);
        return wrap_mul(d, d);
    }
};

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

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
