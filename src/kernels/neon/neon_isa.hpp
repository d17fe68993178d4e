// The NEON (AArch64 Advanced SIMD) policy for the shared SIMD loops (see
// simd/simd_codec.hpp): 128-bit xsimd::neon64 batches, f16 through the NEON
// conversions, comparison masks narrowed to BOOL bytes, and an IEEE f32
// division in place of xsimd's estimate.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/simd_ops.hpp"

#include <xsimd/xsimd.hpp>

#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA {
namespace simd {
namespace {

// xsimd 8.1 divides f32 batches on neon64 with a reciprocal estimate and two
// Newton steps (its armv7 code), which is not correctly rounded; FDIV is.
template <>
struct Quotient<xsimd::neon64> {
    template <class T>
    static Batch<T, xsimd::neon64> of(Batch<T, xsimd::neon64> x, Batch<T, xsimd::neon64> y) {
        if constexpr (std::is_same_v<T, float>) return Batch<float, xsimd::neon64>(vdivq_f32(x, y));
        else return x / y;
    }
};

}  // namespace
}  // namespace simd

namespace {

struct NeonIsa {
    using arch = xsimd::neon64;
    template <class T>
    using B = xsimd::batch<T, arch>;
    static constexpr bool kHasF16 = true;
    static constexpr bool kPairsF16Steps = false;

    // No streaming store: AArch64 cores switch to write streaming by
    // themselves on runs of full-line writes, and STNP is only a hint.
    template <bool NT, class T>
    static void put(T* p, B<T> v) { v.store_unaligned(p); }
    static void fence() {}

    // FCVT widens exactly and narrows with FPCR's rounding, round to nearest
    // even under Linux's default FPCR; NaNs come out quiet with their top
    // payload kept (FPCR.DN clear), as half.hpp does.
    static B<float> load_f16(const std::uint16_t* p) {
        return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
    }
    template <bool NT>
    static void store_f16(std::uint16_t* p, B<float> v) {
        vst1_u16(p, vreinterpret_u16_f16(vcvt_f16_f32(v)));
    }

    // Lanes are all-ones or zero: narrowing keeps their low bytes, & 1 makes
    // them BOOL bytes.
    template <class T>
    static void store_bools(std::uint8_t* out, xsimd::batch_bool<T, arch> m) {
        const auto lanes = static_cast<typename xsimd::batch_bool<T, arch>::register_type>(m);
        if constexpr (sizeof(T) == 1) {
            vst1q_u8(out, vandq_u8(lanes, vdupq_n_u8(1)));
        } else {
            store_low_bytes(out, to_bytes(lanes), sizeof(T));
        }
    }

private:
    // 16 / lane-size bytes, one per lane, in the low end of the result.
    static uint8x8_t to_bytes(uint16x8_t m) { return vmovn_u16(m); }
    static uint8x8_t to_bytes(uint32x4_t m) {
        const uint16x4_t h = vmovn_u32(m);
        return vmovn_u16(vcombine_u16(h, h));
    }
    static uint8x8_t to_bytes(uint64x2_t m) {
        const uint32x2_t w = vmovn_u64(m);
        return to_bytes(vcombine_u32(w, w));
    }
    static void store_low_bytes(std::uint8_t* out, uint8x8_t bytes, std::size_t lane_size) {
        const std::uint64_t packed = vget_lane_u64(vreinterpret_u64_u8(vand_u8(bytes, vdup_n_u8(1))), 0);
        std::memcpy(out, &packed, 16 / lane_size);  // little-endian: lane 0 first
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA
