// The fence after unfenced streaming calls (kernel_table.hpp: Stores): what
// the SIMD kernels' own fence does, in baseline code. SFENCE is SSE, which
// every x86-64 has; elsewhere no kernel streams, and a full fence is enough.
#include "kernels/kernel_table.hpp"

#if defined(__SSE__)
#include <xmmintrin.h>
#else
#include <atomic>
#endif

namespace bcast::kernels {

void stream_fence() noexcept {
#if defined(__SSE__)
    _mm_sfence();
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace bcast::kernels
