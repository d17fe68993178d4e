// The entry points of each SIMD ISA's kernel table. For each ISA of the list
// (kernels/isas.hpp):
//  - one lookup per op family (kernels/families.hpp), defined in the
//    generated translation unit <isa>_<family>.cpp, built with that ISA's
//    flags (src/CMakeLists.txt, kernels/family_kernels.cpp.in);
//  - chains() and quants(): its chain and quantization kernels (the
//    <isa>_chain and <isa>_quant objects), empty where the build lacks it;
//  - kernels(): the OpKernels that ISA fills for (kernel op, dtype), or
//    nullptr, asking its families in turn (isa_kernels.cpp, baseline code);
//    always nullptr for an ISA this build does not have.
// Slots left null mean "use the portable kernel" (dispatch.cpp merges).
// Call any of them only after cpu::cpu_features() has reported the ISA.
#pragma once

#include "kernels/families.hpp"
#include "kernels/isas.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/quantize.hpp"

namespace bcast::kernels {

#define BCAST_DECLARE_FAMILY(family) \
    const OpKernels* family##_kernels(bcast_opcode kernel_op, bcast_dtype dtype);
#define BCAST_DECLARE_ISA(isa, arch)                                   \
    namespace isa {                                                            \
    BCAST_KERNEL_FAMILIES(BCAST_DECLARE_FAMILY)                                \
    const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);       \
    ChainFn chain_kernel(bcast_dtype dtype);                                   \
    ChainFn chains(bcast_dtype dtype);                                         \
    QuantKernels quant_kernels(bcast_dtype dtype);                             \
    QuantKernels quants(bcast_dtype dtype);                                    \
    QuantBinaryKernels quant_binary_kernels(bcast_opcode kernel_op, bcast_dtype dtype); \
    QuantBinaryKernels quant_binaries(bcast_opcode kernel_op, bcast_dtype dtype);       \
    }
BCAST_SIMD_ISAS(BCAST_DECLARE_ISA)
#undef BCAST_DECLARE_ISA
#undef BCAST_DECLARE_FAMILY

// Quantized table-row kernels (kernels/quantize.hpp), where the CPU has
// AVX512-VBMI on top of avx512.
namespace avx512vbmi {
QuantBinaryFn quant_row_kernel(bool x_scalar);
}

// f16 + - * / only (nullptr for everything else); consulted before avx512's
// own table where the CPU has AVX512-FP16. Hand-written, not by family.
namespace avx512fp16 {
const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);
}

}  // namespace bcast::kernels
