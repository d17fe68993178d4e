// NEON's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 4 bytes widened by two vmovl, 4 lanes narrowed by two vmovn (truncating:
// the lanes already hold values of the byte's type); a line of four batches
// is one 16-byte store. xsimd 8.1 converts bytes through memory one lane at
// a time instead. The clamp stays finish's comparisons: FCVTNS turns NaN
// into 0, so NaN cannot be left to the conversion as on x86.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_quantize.hpp"

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <>
struct ByteLanes<xsimd::neon64> {
    using A = xsimd::neon64;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    static constexpr std::size_t kLineSteps = 4;
    template <class Q>
    static I widen(const Q* p) {
        uint32_t four;
        std::memcpy(&four, p, sizeof four);
        const uint8x8_t bytes = vreinterpret_u8_u32(vdup_n_u32(four));
        if constexpr (std::is_signed_v<Q>) {
            return vmovl_s16(vget_low_s16(vmovl_s8(vreinterpret_s8_u8(bytes))));
        } else {
            return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(bytes))));
        }
    }
    template <class Q>
    static void narrow(Q* p, I k) {
        const int16x4_t half = vmovn_s32(k);
        const int8x8_t bytes = vmovn_s16(vcombine_s16(half, half));
        const uint32_t four = vget_lane_u32(vreinterpret_u32_s8(bytes), 0);
        std::memcpy(p, &four, sizeof four);
    }
    template <class Q>
    static void store_line(Q* p, const F* q, const QuantOut<A>& o, bool) {
        const int16x8_t low = vcombine_s16(vmovn_s32(o.finish(q[0])), vmovn_s32(o.finish(q[1])));
        const int16x8_t high = vcombine_s16(vmovn_s32(o.finish(q[2])), vmovn_s32(o.finish(q[3])));
        vst1q_s8(reinterpret_cast<int8_t*>(p), vcombine_s8(vmovn_s16(low), vmovn_s16(high)));
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
