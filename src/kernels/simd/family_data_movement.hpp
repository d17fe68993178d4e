// The data_movement family (kernels/families.hpp): COPY, one kernel per
// element size.
// Included by the generated translation unit <isa>_data_movement.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// COPY moves bytes: copy_kernels in simd_table.hpp.

template <class Isa>
const OpKernels* data_movement_kernels(bcast_opcode op, bcast_dtype dt) {
    return op == BCAST_OP_COPY ? copy_kernels<Isa>(dt) : nullptr;
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
