// How much an op costs per element, for the task split.
#pragma once

#include <bcast/bcast.h>

namespace bcast {

// Cost per element of a kernel op relative to a plain + (what the task
// split weighs: 4 for division-like ops, 16 for transcendentals).
constexpr unsigned op_weight(bcast_opcode kernel_op) {
    switch (kernel_op) {
        case BCAST_OP_POW:
        case BCAST_OP_ATAN2:
        case BCAST_OP_LOGADDEXP: return 16;
        case BCAST_OP_DIV:
        case BCAST_OP_FMOD:
        case BCAST_OP_FLOOR_DIVIDE:
        case BCAST_OP_REMAINDER:
        case BCAST_OP_MOD: return 4;
        default: return 1;
    }
}

}  // namespace bcast
