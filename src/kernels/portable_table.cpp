// bcast::kernels::portable_kernels: the portable table, gated by op_info (the
// one list of supported pairs) and assembled from the per-family lookups.
#include "kernels/kernel_table.hpp"

#include "core/op_info.hpp"
#include "kernels/portable/families.hpp"

namespace bcast::kernels {

const OpKernels* portable_kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    const OpInfo* info = op_info(kernel_op);
    if (info == nullptr || info->swapped || !op_supports(kernel_op, dtype)) return nullptr;
    using Lookup = const OpKernels* (*)(bcast_opcode, bcast_dtype);
#define BCAST_FAMILY_LOOKUP(family) portable::family##_kernels,
    static constexpr Lookup kFamilies[] = {BCAST_KERNEL_FAMILIES(BCAST_FAMILY_LOOKUP)};
#undef BCAST_FAMILY_LOOKUP
    for (Lookup family : kFamilies) {
        if (const OpKernels* k = family(kernel_op, dtype)) return k;
    }
    return nullptr;
}

}  // namespace bcast::kernels
