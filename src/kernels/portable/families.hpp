// The portable kernel table, split by op family (kernels/families.hpp) so
// that each family compiles in its own translation unit (in parallel). Each
// returns the kernels of its own ops for dt, nullptr for any other op;
// portable_kernels() asks them all.
#pragma once

#include "kernels/families.hpp"
#include "kernels/kernel_table.hpp"

namespace bcast::kernels::portable {

#define BCAST_DECLARE_FAMILY(family) const OpKernels* family##_kernels(bcast_opcode op, bcast_dtype dt);
BCAST_KERNEL_FAMILIES(BCAST_DECLARE_FAMILY)
#undef BCAST_DECLARE_FAMILY

}  // namespace bcast::kernels::portable
