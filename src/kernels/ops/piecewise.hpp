// The piecewise family (kernels/families.hpp): max and min, one of two
// values per lane picked by a compare. Each op once, for scalars and SIMD
// batches alike (lanes.hpp), and the family's list of ops.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

// numpy's maximum/minimum: a NaN on either side wins (x if both are), and
// ">=" picks x for max(-0, +0), the earlier input (numpy picks y there; the
// header documents x).
struct Max : OpDef<BCAST_OP_MAX>, Fold<Max> {
    template <class V>
    static V apply(V x, V y) {
        if constexpr (kIsFloat<V>) return if_else((x >= y) | is_nan(x), x, y);
        else return maximum(x, y);
    }
};

struct Min : OpDef<BCAST_OP_MIN>, Fold<Min> {
    template <class V>
    static V apply(V x, V y) {
        if constexpr (kIsFloat<V>) return if_else((x <= y) | is_nan(x), x, y);
        else return minimum(x, y);
    }
};

// The family's ops (ops/op_list.hpp).
using piecewise_ops = OpList<Max, Min>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
