// The activation family (kernels/families.hpp): prelu. Apart from max and
// min, whose family it was, so that a change to either rebuilds in under a
// minute (docs/kernels.md, "The build"). The op once, for scalars and SIMD
// batches alike (lanes.hpp), and the family's lookup.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"

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

template <class Tables>
const OpKernels* activation_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_PRELU: return Tables::template binary<Prelu>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
