// IEEE binary16 (f16) and bfloat16 (bf16) <-> f32, bit-exact and independent
// of the FPU rounding mode (integer arithmetic only): f32 -> 16 bits rounds to
// nearest, ties to even; overflow gives inf; f16 subnormals are exact; a NaN
// stays a NaN (made quiet, sign and top payload bits kept). 16 bits -> f32 is
// exact (a signalling NaN comes back quiet).
#pragma once

#include "kernels/isa_namespace.hpp"

#include <cstdint>
#include <cstring>

namespace bcast::kernels::BCAST_KERNEL_ISA {

inline std::uint32_t f32_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

inline float f32_from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// Adds one unit when the dropped bits `rem` are above half of `half_unit * 2`,
// or exactly half and `kept` is odd (ties to even).
inline std::uint32_t round_nearest_even(std::uint32_t kept, std::uint32_t rem,
                                        std::uint32_t half_unit) {
    const bool up = rem > half_unit || (rem == half_unit && (kept & 1u) != 0);
    return kept + (up ? 1u : 0u);
}

inline std::uint16_t f32_to_f16(float f) {
    const std::uint32_t bits = f32_bits(f);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const std::uint32_t exp = (bits >> 23) & 0xffu;  // f32 biased exponent
    const std::uint32_t mant = bits & 0x7fffffu;
    std::uint32_t h;
    if (exp == 0xffu) {
        // inf, or NaN: force the quiet bit so a payload that lives only in the
        // low bits cannot turn into inf.
        h = mant == 0 ? 0x7c00u : (0x7e00u | (mant >> 13));
    } else if (exp >= 143u) {
        h = 0x7c00u;  // >= 2^16: beyond f16 range whatever the rounding
    } else if (exp >= 113u) {
        // f16 normal: rebias (127 -> 15) and drop 13 mantissa bits. A carry
        // out of the mantissa bumps the exponent, up to inf, as it should.
        const std::uint32_t kept = ((exp - 112u) << 10) | (mant >> 13);
        h = round_nearest_even(kept, mant & 0x1fffu, 0x1000u);
    } else {
        // f16 subnormal: count in units of 2^-24. Below half a unit (any f32
        // subnormal included) rounds to zero.
        const std::uint32_t shift = 126u - exp;  // >= 14
        if (shift > 24u) {
            h = 0;
        } else {
            const std::uint32_t full = mant | 0x800000u;
            const std::uint32_t kept = full >> shift;
            const std::uint32_t rem = full & ((1u << shift) - 1u);
            h = round_nearest_even(kept, rem, 1u << (shift - 1u));
        }
    }
    return static_cast<std::uint16_t>(sign | h);
}

inline float f16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = (static_cast<std::uint32_t>(h) & 0x8000u) << 16;
    const std::uint32_t exp = (static_cast<std::uint32_t>(h) >> 10) & 0x1fu;
    const std::uint32_t mant = static_cast<std::uint32_t>(h) & 0x3ffu;
    std::uint32_t bits;
    if (exp == 0x1fu) {
        bits = 0x7f800000u | (mant << 13) | (mant != 0 ? 0x400000u : 0u);
    } else if (exp != 0) {
        bits = ((exp + 112u) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = 0;
    } else {
        // Subnormal: shift the leading one into the implicit position.
        std::uint32_t e = 113u;
        std::uint32_t m = mant;
        while ((m & 0x400u) == 0) {
            m <<= 1;
            --e;
        }
        bits = (e << 23) | ((m & 0x3ffu) << 13);
    }
    return f32_from_bits(sign | bits);
}

inline std::uint16_t f32_to_bf16(float f) {
    const std::uint32_t bits = f32_bits(f);
    if ((bits & 0x7fffffffu) > 0x7f800000u) {
        // NaN: plain rounding could carry a low-payload NaN into inf.
        return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
    }
    // bf16 is the top half of an f32, so round the low half to nearest even;
    // the carry goes into the exponent (and up to inf) by itself.
    const std::uint32_t bias = 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>((bits + bias) >> 16);
}

inline float bf16_to_f32(std::uint16_t h) {
    std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
    if ((h & 0x7fffu) > 0x7f80u) bits |= 0x400000u;  // NaN: quiet
    return f32_from_bits(bits);
}

}  // namespace bcast::kernels::BCAST_KERNEL_ISA
