// Portable kernels: + - * mean, squared difference.
#include "kernels/portable/families.hpp"
#include "kernels/portable/loops.hpp"

namespace bcast::kernels::portable {

const OpKernels* arithmetic_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_ADD: return binary_kernels<ops::Add>(dt);
        case BCAST_OP_SUB: return binary_kernels<ops::Sub>(dt);
        case BCAST_OP_MUL: return binary_kernels<ops::Mul>(dt);
        case BCAST_OP_MEAN: return binary_kernels<ops::Mean>(dt);
        case BCAST_OP_SQUARED_DIFFERENCE: return binary_kernels<ops::SquaredDifference>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::portable
