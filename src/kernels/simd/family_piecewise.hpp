// The piecewise family (kernels/families.hpp): max, min and prelu: one of two
// values per lane, picked by a compare.
// Included by the generated translation unit <isa>_piecewise.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// numpy maximum/minimum: (x >= y || isnan(x)) ? x : y, as ops::Max; plain
// max/min for integers.
struct Max : OpFlags {
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        if constexpr (kFloat<T>) return xsimd::select((x >= y) | is_nan(x), x, y);
        else return xsimd::max(x, y);
    }
};

struct Min : OpFlags {
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        if constexpr (kFloat<T>) return xsimd::select((x <= y) | is_nan(x), x, y);
        else return xsimd::min(x, y);
    }
};

// x < 0 ? x * slope : x; unsigned x is never negative. Signed integers as
// max(x, 0) + min(x, 0) * slope (the same value, wrapping included): xsimd
// 8.1's 8- and 16-bit AVX-512 select does not compile at -O0.
struct Prelu : OpFlags {
    template <class T, class A> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        const Batch<T, A> zero(T{0});
        if constexpr (std::is_unsigned_v<T>) return x;
        else if constexpr (kInt<T>) return wrap_add(xsimd::max(x, zero), wrap_mul(xsimd::min(x, zero), y));
        else return xsimd::select(x < zero, x * y, x);
    }
};

template <class Isa>
const OpKernels* piecewise_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_MAX: return binary_kernels<Isa, Max>(dt);
        case BCAST_OP_MIN: return binary_kernels<Isa, Min>(dt);
        case BCAST_OP_PRELU: return binary_kernels<Isa, Prelu>(dt);
        default: return nullptr;
    }
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
