// The arithmetic family (kernels/families.hpp): + - * (wrapping for
// integers). Each op once, for scalars and SIMD batches alike (lanes.hpp),
// and the family's list of ops (the table builders build them:
// portable/loops.hpp, simd/simd_table.hpp).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

struct Add : OpDef<BCAST_OP_ADD>, Fold<Add> {
    static constexpr bool kSignAgnostic = true;
    template <class V>
    static V apply(V x, V y) { return wrap_add(x, y); }
};

struct Sub : OpDef<BCAST_OP_SUB> {
    static constexpr bool kSignAgnostic = true;
    template <class V>
    static V apply(V x, V y) { return wrap_sub(x, y); }
};

struct Mul : OpDef<BCAST_OP_MUL>, Fold<Mul> {
    static constexpr bool kSignAgnostic = true;
    template <class T>
    static constexpr bool kIntProduct = kIsInt<T>;
    template <class V>
    static V apply(V x, V y) { return wrap_mul(x, y); }
};

// The family's ops (ops/op_list.hpp).
using arithmetic_ops = OpList<Add, Sub, Mul>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
