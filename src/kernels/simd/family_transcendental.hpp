// The transcendental family (kernels/families.hpp): pow, atan2, logaddexp
// where simd_transcendental_ops.hpp vectorises them.
// Included by the generated translation unit <isa>_transcendental.cpp alone, so a
// change here recompiles this family only.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_ops.hpp"
#include "kernels/simd/simd_table.hpp"
#include "kernels/simd/simd_transcendental_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// The ops: simd_transcendental_ops.hpp.

template <class Isa>
const OpKernels* transcendental_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_POW: return binary_kernels<Isa, Pow>(dt);
        case BCAST_OP_ATAN2: return binary_kernels<Isa, Atan2>(dt);
        case BCAST_OP_LOGADDEXP: return binary_kernels<Isa, Logaddexp>(dt);
        default: return nullptr;
    }
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
