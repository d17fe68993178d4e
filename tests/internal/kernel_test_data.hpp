// Test data shared by the kernel tests: random elements of any dtype with
// the special values mixed in, and a bit-exact comparison that lets any NaN
// match any NaN (and, where asked, finite floats differ by a few ulps).
#pragma once

#include "core/op_info.hpp"
#include "kernels/dispatch.hpp"
#include "kernels/isas.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace bcast_test {

using Bytes = std::vector<unsigned char>;

// The SIMD ISAs this build and CPU run.
inline std::vector<std::string> host_isas() {
    std::vector<std::string> isas;
#define BCAST_ISA_NAME(isa, arch) #isa,
    for (const char* name : {BCAST_SIMD_ISAS(BCAST_ISA_NAME)}) {
        if (bcast::kernels::isa_available(name)) isas.emplace_back(name);
    }
#undef BCAST_ISA_NAME
    return isas;
}


inline std::string pair_name(bcast_opcode op, bcast_dtype dt) {
    return std::string(bcast::op_info(op)->name) + "/" + bcast::dtype_name(dt);
}

template <class T>
inline void put(Bytes& b, std::size_t i, T v) {
    std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
}

// Random elements of dt with special values mixed in: signed zeros, infs,
// NaNs, subnormals, extremes, small integers (exact quotients, shift counts),
// and for BOOL bytes other than 0/1.
inline Bytes random_elems(bcast_dtype dt, std::size_t n, std::mt19937_64& rng) {
    const std::size_t es = bcast::dtype_size(dt);
    Bytes b(n * es);
    std::uniform_int_distribution<int> pick(0, 7);
    std::uniform_int_distribution<int> small(-9, 9);
    for (std::size_t i = 0; i < n; ++i) {
        const int kind = pick(rng);
        const std::uint64_t bits = rng();
        switch (dt) {
            case BCAST_DTYPE_F32:
            case BCAST_DTYPE_F64: {
                static const double specials[] = {
                    0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0,
                    std::numeric_limits<double>::infinity(),
                    -std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::quiet_NaN(),
                    1e-40, -1e-310, 3.4e38, -1e300, 7.0, 2.0};
                double v;
                if (kind <= 1) v = specials[bits % (sizeof specials / sizeof specials[0])];
                else if (kind <= 3) v = small(rng);
                else v = std::uniform_real_distribution<double>(-20.0, 20.0)(rng);
                if (dt == BCAST_DTYPE_F32) put(b, i, static_cast<float>(v));
                else put(b, i, v);
                break;
            }
            case BCAST_DTYPE_F16:
            case BCAST_DTYPE_BF16: {
                static const std::uint16_t f16[] = {0x0000, 0x8000, 0x3C00, 0xBC00,
                                                    0x7C00, 0xFC00, 0x7E00, 0x4000,
                                                    0xC200, 0x0001, 0x7BFF, 0x3800};
                static const std::uint16_t bf16[] = {0x0000, 0x8000, 0x3F80, 0xBF80,
                                                     0x7F80, 0xFF80, 0x7FC0, 0x4000,
                                                     0xC040, 0x0001, 0x7F7F, 0x3F00};
                const std::uint16_t* sp = dt == BCAST_DTYPE_F16 ? f16 : bf16;
                std::uint16_t v;
                if (kind <= 3) v = sp[bits % 12];
                else if (kind <= 5) v = static_cast<std::uint16_t>(bits);  // any pattern, NaNs too
                else  // +-[1, 2): many exact sums and quotients
                    v = static_cast<std::uint16_t>((bits & 0x83FFu) |
                                                   (dt == BCAST_DTYPE_F16 ? 0x3C00u : 0x3F80u));
                put(b, i, v);
                break;
            }
            case BCAST_DTYPE_BOOL: {
                static const unsigned char bools[] = {0, 1, 0, 1, 2, 255, 0, 1};
                b[i] = bools[bits % 8];
                break;
            }
            default: {  // integers: build the value in 64 bits, keep the low es bytes
                const unsigned width = static_cast<unsigned>(8 * es);
                const std::uint64_t top = std::uint64_t{1} << (width - 1);  // INT_MIN bits
                std::uint64_t v;
                switch (kind) {
                    case 0: v = (bits % 2 == 0) ? top : top - 1; break;  // MIN / MAX
                    case 1: v = (bits % 3 == 0) ? 0 : (bits % 3 == 1) ? 1 : ~std::uint64_t{0};
                        break;
                    case 2:
                    case 3:
                        v = static_cast<std::uint64_t>(static_cast<std::int64_t>(small(rng)));
                        break;
                    case 4: v = bits % (width + 3); break;  // shift counts around the width
                    default: v = bits; break;
                }
                std::memcpy(b.data() + i * es, &v, es);  // little-endian
                break;
            }
        }
    }
    return b;
}

// Whether element i of a (logical) byte array of dt is a NaN.
inline bool is_nan_elem(bcast_dtype dt, const Bytes& v, std::size_t i) {
    switch (dt) {
        case BCAST_DTYPE_F32: {
            float f;
            std::memcpy(&f, v.data() + i * 4, 4);
            return std::isnan(f);
        }
        case BCAST_DTYPE_F64: {
            double d;
            std::memcpy(&d, v.data() + i * 8, 8);
            return std::isnan(d);
        }
        case BCAST_DTYPE_F16:
        case BCAST_DTYPE_BF16: {
            std::uint16_t h;
            std::memcpy(&h, v.data() + i * 2, 2);
            return dt == BCAST_DTYPE_F16 ? (h & 0x7FFFu) > 0x7C00u : (h & 0x7FFFu) > 0x7F80u;
        }
        default: return false;
    }
}

// Element i of a float dtype's bytes as an integer that counts ulps: the
// bits, negatives mirrored below zero (-0 and +0 both 0).
inline std::int64_t ulp_index(bcast_dtype dt, const Bytes& v, std::size_t i) {
    const std::size_t es = bcast::dtype_size(dt);
    std::uint64_t bits = 0;
    std::memcpy(&bits, v.data() + i * es, es);  // little-endian hosts
    const std::uint64_t sign = std::uint64_t{1} << (8 * es - 1);
    const auto magnitude = static_cast<std::int64_t>(bits & (sign - 1));
    return (bits & sign) != 0 ? -magnitude : magnitude;
}

inline bool is_float_dtype(bcast_dtype dt) {
    return dt == BCAST_DTYPE_F32 || dt == BCAST_DTYPE_F64 || dt == BCAST_DTYPE_F16 ||
           dt == BCAST_DTYPE_BF16;
}

// "" if got and want hold the same elements of dt, bit for bit, except that
// any NaN matches any NaN: the sign and payload of a NaN result are not
// specified (the compiler may commute x + y, and x86 and Arm make different
// default NaNs). With ulps > 0, finite float elements may also differ by up
// to that many ulps (infinities and zeros must still match exactly).
// Otherwise a description of the first difference.
inline std::string mismatch(bcast_dtype dt, const Bytes& got, const Bytes& want, int ulps = 0) {
    const std::size_t es = bcast::dtype_size(dt);
    if (got.size() != want.size()) return "sizes differ";
    for (std::size_t i = 0; i * es < got.size(); ++i) {
        if (std::memcmp(got.data() + i * es, want.data() + i * es, es) == 0) continue;
        if (is_nan_elem(dt, got, i) && is_nan_elem(dt, want, i)) continue;
        if (ulps > 0 && is_float_dtype(dt) && !is_nan_elem(dt, got, i) &&
            !is_nan_elem(dt, want, i)) {
            const std::int64_t g = ulp_index(dt, got, i), w = ulp_index(dt, want, i);
            const std::int64_t inf = es == 8 ? 0x7FF0000000000000 : es == 4 ? 0x7F800000
                                   : dt == BCAST_DTYPE_F16 ? 0x7C00 : 0x7F80;
            const auto zero_or_infinite = [inf](std::int64_t v) {
                return v == 0 || v == inf || v == -inf;
            };
            const bool exact_only = zero_or_infinite(w) || zero_or_infinite(g);
            if (!exact_only && g - w <= ulps && w - g <= ulps) continue;
        }
        std::string msg = "element " + std::to_string(i) + ": got";
        for (std::size_t b = 0; b < es; ++b) msg += " " + std::to_string(got[i * es + b]);
        msg += ", want";
        for (std::size_t b = 0; b < es; ++b) msg += " " + std::to_string(want[i * es + b]);
        return msg;
    }
    return "";
}

}  // namespace bcast_test
