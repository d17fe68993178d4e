// The AVX2 (+FMA, F16C) kernel table. Built with its own flags (-mavx2 -mfma -mf16c
// -ffp-contract=off) and nothing else in this object: its code runs only
// once cpu::cpu_features() has reported avx2.
#define BCAST_KERNEL_ISA avx2  // before any kernel header: this ISA's namespace
#include "kernels/avx2/avx2_isa.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/simd_table.hpp"

namespace bcast::kernels::avx2 {

const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    return simd::simd_kernels<Avx2Isa>(kernel_op, dtype);
}

}  // namespace bcast::kernels::avx2
