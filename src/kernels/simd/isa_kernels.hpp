// The entry point of each SIMD ISA's kernel table: the OpKernels that ISA
// fills for (kernel op, dtype), or nullptr. Slots left null mean "use the
// portable kernel" (dispatch.cpp merges). Each is defined in the ISA's own
// translation units, built with that ISA's flags: call one only after
// cpu::cpu_features() has reported the ISA.
#pragma once

#include "kernels/kernel_table.hpp"

namespace bcast::kernels {

namespace sse2 {
const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);
}
namespace avx2 {
const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);
}
namespace avx512 {
const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);
}
// f16 + - * / only (nullptr for everything else); consulted before avx512's
// own table where the CPU has AVX512-FP16.
namespace avx512fp16 {
const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);
}
namespace neon {
const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype);
}

}  // namespace bcast::kernels
