// The SSE2 kernel table. Built with its own flags (-msse2
// -ffp-contract=off) and nothing else in this object: its code runs only
// once cpu::cpu_features() has reported sse2.
#define BCAST_KERNEL_ISA sse2  // before any kernel header: this ISA's namespace
#include "kernels/sse2/sse2_isa.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/simd_table.hpp"

namespace bcast::kernels::sse2 {

const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    return simd::simd_kernels<Sse2Isa>(kernel_op, dtype);
}

}  // namespace bcast::kernels::sse2
