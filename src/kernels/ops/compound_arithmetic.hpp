// The compound arithmetic family (kernels/families.hpp): mean and squared
// difference, each two arithmetic steps. Apart from + - *, whose family they
// were, so that a change to either rebuilds in under a minute
// (docs/kernels.md, "The build"). Each op once, for scalars and SIMD batches
// alike (lanes.hpp), and the family's list of ops
// (ops/op_list.hpp).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

// Summed in the compute type, divided once at the end (f16/bf16 round once).
struct Mean : OpDef<BCAST_OP_MEAN>, Fold<Mean> {
    template <class T>
    static T accumulate(T acc, T x) { return acc + x; }
    template <class T>
    static T finish(T acc, std::size_t count) { return acc / static_cast<T>(count); }
    template <class V>
    static V apply(V x, V y) { return quotient(x + y, splat<V>(2)); }
};

struct SquaredDifference : OpDef<BCAST_OP_SQUARED_DIFFERENCE> {
    static constexpr bool kSignAgnostic = true;
    template <class T>
    static constexpr bool kIntProduct = kIsInt<T>;
    template <class V>
    static V apply(V x, V y) {
        const V d = wrap_sub(x, y);
        return wrap_mul(d, d);
    }
};

// The family's ops (ops/op_list.hpp).
using compound_arithmetic_ops = OpList<Mean, SquaredDifference>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
