// The data_movement family (kernels/families.hpp): SELECT and COPY. They
// move element bytes without computing on them, so there is no op to define:
// each table builder has them by element size (portable/moves.cpp,
// simd/simd_table.hpp), and their entries in the family's list name the
// builder's function.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {

struct Copy : Moves {
    static constexpr bcast_opcode kOp = BCAST_OP_COPY;
    template <class Tables>
    static const OpKernels* kernels(bcast_dtype dt) { return Tables::copy(dt); }
};

struct Select : Moves {
    static constexpr bcast_opcode kOp = BCAST_OP_SELECT;
    template <class Tables>
    static const OpKernels* kernels(bcast_dtype dt) { return Tables::select(dt); }
};

// The family's ops (ops/op_list.hpp).
using data_movement_ops = OpList<Copy, Select>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
