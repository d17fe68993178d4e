// Portable kernels: / // fmod % remainder (the ops with a division inside).
#include "kernels/portable/families.hpp"
#include "kernels/portable/loops.hpp"

namespace bcast::kernels::portable {

const OpKernels* division_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_DIV: return binary_kernels<ops::Div>(dt);
        case BCAST_OP_FLOOR_DIVIDE: return binary_kernels<ops::FloorDivide>(dt);
        case BCAST_OP_FMOD: return binary_kernels<ops::Fmod>(dt);
        case BCAST_OP_MOD: return binary_kernels<ops::Mod>(dt);
        case BCAST_OP_REMAINDER: return binary_kernels<ops::Remainder>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::portable
