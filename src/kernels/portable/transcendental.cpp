// Portable kernels: pow, atan2, logaddexp (libm calls; integer pow by squaring).
#include "kernels/portable/families.hpp"
#include "kernels/portable/loops.hpp"

namespace bcast::kernels::portable {

const OpKernels* transcendental_kernels(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
        case BCAST_OP_POW: return binary_kernels<ops::Pow>(dt);
        case BCAST_OP_ATAN2: return binary_kernels<ops::Atan2>(dt);
        case BCAST_OP_LOGADDEXP: return binary_kernels<ops::Logaddexp>(dt);
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::portable
