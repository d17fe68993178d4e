// Run-time kernel selection: the best kernel table the CPU supports, capped by
// bcast_set_max_isa / BCAST_MAX_ISA, with the portable kernels filling every
// slot a faster table leaves empty.
#pragma once

#include "kernels/kernel_table.hpp"
#include "kernels/quantize.hpp"

namespace bcast::kernels {

struct Selection {
    OpKernels kernels;
    const char* isa;  // name of the table the fast slots came from
};

// Kernels for (kernel_op, dtype) under the current ISA cap; every slot the
// portable table has is filled. kernels.strided is null when unsupported.
Selection select_kernels(bcast_opcode kernel_op, bcast_dtype dtype);

// The active ISA's chain kernel for dtype (kernel_table.hpp: Chain), or
// nullptr (the portable table has none: chains then run op by op).
ChainFn select_chain(bcast_dtype dtype);

// The active ISA's quantization kernels for u8 or i8 (the portable ones
// where it has none); both null for any other dtype. `isa` names the table.
struct QuantSelection {
    QuantKernels kernels;
    const char* isa;
};
QuantSelection select_quant_kernels(bcast_dtype dtype);

// The active ISA's register kernels of a quantized binary op (u8/i8), or
// none (the portable table has none: such lines run through f32 slots).
QuantBinaryKernels select_quant_binary(bcast_opcode kernel_op, bcast_dtype dtype);

// Name of the ISA new plans use ("scalar", "sse2", "avx2", "avx512", "neon").
const char* active_isa_name();

// The name of every ISA this library knows, of any architecture, by index:
// "scalar" first, then kernels/isas.hpp's list; nullptr past the last.
const char* isa_name_at(int index);

// Caps the ISA; false for an unknown name (nothing changes then). Plans
// already made keep the kernels they copied.
bool set_max_isa(const char* name);

// For tests: whether this build has the named ISA's kernels and this CPU can
// run them, and that ISA's own entry for (kernel_op, dtype) without portable
// slots merged in (nullptr where it fills none, or the ISA is unavailable).
bool isa_available(const char* name);
const OpKernels* isa_own_kernels(const char* name, bcast_opcode kernel_op, bcast_dtype dtype);
QuantKernels isa_quant_kernels(const char* name, bcast_dtype dtype);
QuantBinaryKernels isa_quant_binary_kernels(const char* name, bcast_opcode kernel_op, bcast_dtype dtype);

}  // namespace bcast::kernels
