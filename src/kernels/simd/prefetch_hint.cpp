#include "kernels/simd/prefetch_hint.hpp"

#include "kernels/cpu/cpu_features.hpp"

namespace bcast::kernels {

bool prefetch_non_temporal() {
    static const bool non_temporal = !cpu::cpu_features().intel;
    return non_temporal;
}

}  // namespace bcast::kernels
