// Portable kernels: the six comparisons, any input dtype -> BOOL.
#include "kernels/portable/families.hpp"
#include "kernels/portable/loops.hpp"

namespace bcast::kernels::portable {

const OpKernels* comparison_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_EQUAL: return binary_kernels<ops::Equal>(dt);
        case BCAST_OP_NOT_EQUAL: return binary_kernels<ops::NotEqual>(dt);
        case BCAST_OP_LESS: return binary_kernels<ops::Less>(dt);
        case BCAST_OP_LESS_EQUAL: return binary_kernels<ops::LessEqual>(dt);
        case BCAST_OP_GREATER: return binary_kernels<ops::Greater>(dt);
        case BCAST_OP_GREATER_EQUAL: return binary_kernels<ops::GreaterEqual>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::portable
