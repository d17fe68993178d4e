// The AVX-512 (F, BW, DQ, VL, CD) kernel table. Built with its own flags (-mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx512cd -mavx2 -mfma -mf16c
// -ffp-contract=off) and nothing else in this object: its code runs only
// once cpu::cpu_features() has reported avx512.
#define BCAST_KERNEL_ISA avx512  // before any kernel header: this ISA's namespace
// GCC 12 warns that the _mm512_undefined_* inside its own intrinsics
// (cvtph_ps, slli_epi32, ...) are used uninitialized (GCC bug 105593, fixed
// in GCC 13): noise from the compiler's headers, silenced for this file.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "kernels/avx512/avx512_isa.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/simd_table.hpp"

namespace bcast::kernels::avx512 {

const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    return simd::simd_kernels<Avx512Isa>(kernel_op, dtype);
}

}  // namespace bcast::kernels::avx512
