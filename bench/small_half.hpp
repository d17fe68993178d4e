// An f16 element for the bench's operands and oracle. The bench only stores
// small integers (|v| <= 2048), which binary16 holds exactly, so encoding
// needs no rounding. Used instead of _Float16, which not every compiler
// offers on x86 (clang 14 does not).
#pragma once

#include <cmath>
#include <cstdint>

namespace bench {

struct SmallHalf {
    std::uint16_t bits = 0;

    SmallHalf() = default;
    explicit SmallHalf(float v) {  // v: an integer with |v| <= 2048
        const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
        if (v == 0) {
            bits = sign;
            return;
        }
        int e = 0;
        const float m = std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1)
        bits = static_cast<std::uint16_t>(sign | (e - 1 + 15) << 10 |
                                          static_cast<int>((2 * m - 1) * 1024));
    }
    explicit operator double() const {
        const int exponent = bits >> 10 & 0x1f, mantissa = bits & 0x3ff;
        const double magnitude =
            exponent == 0    ? std::ldexp(mantissa, -24)
            : exponent == 31 ? (mantissa ? NAN : INFINITY)
                             : std::ldexp(1024 + mantissa, exponent - 25);
        return bits & 0x8000 ? -magnitude : magnitude;
    }
};

inline float operator+(SmallHalf x, SmallHalf y) {
    return static_cast<float>(static_cast<double>(x) + static_cast<double>(y));
}

}  // namespace bench
