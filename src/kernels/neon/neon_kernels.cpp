// The NEON kernel table (AArch64). Advanced SIMD is part of the AArch64
// baseline, so this object needs no flag beyond -ffp-contract=off; it still
// runs only once cpu::cpu_features() has reported neon.
#define BCAST_KERNEL_ISA neon  // before any kernel header: this ISA's namespace
#include "kernels/neon/neon_isa.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/simd_table.hpp"

namespace bcast::kernels::neon {

const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    return simd::simd_kernels<NeonIsa>(kernel_op, dtype);
}

}  // namespace bcast::kernels::neon
