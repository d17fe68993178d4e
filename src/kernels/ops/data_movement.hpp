// The data_movement family (kernels/families.hpp): SELECT and COPY. They
// move element bytes without computing on them, so there is no op to define:
// each table builder has them by element size (portable/moves.cpp,
// simd/simd_table.hpp).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {

template <class Tables>
const OpKernels* data_movement_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_COPY: return Tables::copy(dt);
        case BCAST_OP_SELECT: return Tables::select(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
