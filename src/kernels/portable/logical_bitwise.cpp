// Portable kernels: logical and/or/xor (BOOL), bitwise and/or/xor, shifts.
#include "kernels/portable/families.hpp"
#include "kernels/portable/loops.hpp"

namespace bcast::kernels::portable {

const OpKernels* logical_bitwise_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_LOGICAL_AND: return binary_kernels<ops::LogicalAnd>(dt);
        case BCAST_OP_LOGICAL_OR: return binary_kernels<ops::LogicalOr>(dt);
        case BCAST_OP_LOGICAL_XOR: return binary_kernels<ops::LogicalXor>(dt);
        case BCAST_OP_BITWISE_AND: return binary_kernels<ops::BitwiseAnd>(dt);
        case BCAST_OP_BITWISE_OR: return binary_kernels<ops::BitwiseOr>(dt);
        case BCAST_OP_BITWISE_XOR: return binary_kernels<ops::BitwiseXor>(dt);
        case BCAST_OP_SHIFT_LEFT: return binary_kernels<ops::ShiftLeft>(dt);
        case BCAST_OP_SHIFT_RIGHT: return binary_kernels<ops::ShiftRight>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::portable
