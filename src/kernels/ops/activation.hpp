// The activation family (kernels/families.hpp): prelu. Apart from max and
// min, whose family it was, so that a change to either rebuilds in under a
// minute (docs/kernels.md, "The build"). The op once, for scalars and SIMD
// batches alike (lanes.hpp), and the family's list of ops.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

// x < 0 ? x * slope : x. -0.0 is not < 0 (stays -0.0); unsigned x never is.
// Signed integers as max(x, 0) + min(x, 0) * slope, the same value with the
// product wrapping (and no select: xsimd 8.1's 8- and 16-bit AVX-512 select
// does not compile at -O0).
struct Prelu : OpDef<BCAST_OP_PRELU> {
    template <class T>
    static constexpr bool kIntProduct = kIsSignedInt<T>;
    template <class V>
    static V apply(V x, V y) {
        if constexpr (kIsUnsignedInt<V>) {
            return x;
        } else {
            const V zero = splat<V>(0);
            if constexpr (kIsInt<V>) return wrap_add(maximum(x, zero), wrap_mul(minimum(x, zero), y));
            else return if_else(x < zero, x * y, x);
        }
    }
};

// The family's ops (ops/op_list.hpp).
using activation_ops = OpList<Prelu>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
