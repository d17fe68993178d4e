// Portable kernels: max, min, prelu.
#include "kernels/portable/families.hpp"
#include "kernels/portable/loops.hpp"

namespace bcast::kernels::portable {

const OpKernels* piecewise_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_MAX: return binary_kernels<ops::Max>(dt);
        case BCAST_OP_MIN: return binary_kernels<ops::Min>(dt);
        case BCAST_OP_PRELU: return binary_kernels<ops::Prelu>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::portable
