// One functor per kernel op, on one element of the compute type (float,
// double, the integer types, bool): the definition of the semantics
// (decisions.md, "Element-wise math"). The portable kernels run them; the
// SIMD ops (simd/family_*.hpp) are their vector twins, which
// test_simd_kernels holds bit for bit to these on every ISA (the
// transcendentals to 2 ulp).
//
// Each functor has
//   accepts<T>     the compute types it is defined for (the kernel tables build
//                  only these; op_supports still decides what is exposed),
//   apply(x, y)    the binary result: T, or bool for comparisons/logical ops.
// Variadic ops (ADD, MUL, MAX, MIN, MEAN) derive from Fold and also have
//   accumulate(acc, x) and finish(acc, count): inputs are folded left to
//   right, then finished (MEAN divides by the count).
#pragma once

#include "kernels/isa_namespace.hpp"

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {

template <class T>
inline constexpr bool kIsFloat = std::is_floating_point_v<T>;
template <class T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool kIsNumeric = kIsFloat<T> || kIsInt<T>;
template <class T>
inline constexpr bool kIsSignedInt = kIsInt<T> && std::is_signed_v<T>;

// ---- C math in the argument's own precision (float must not go through
// double: F32 results must be those of powf, fmodf, ...).
inline float c_pow(float x, float y) { return ::powf(x, y); }
inline double c_pow(double x, double y) { return std::pow(x, y); }
inline float c_atan2(float x, float y) { return ::atan2f(x, y); }
inline double c_atan2(double x, double y) { return std::atan2(x, y); }
inline float c_fmod(float x, float y) { return ::fmodf(x, y); }
inline double c_fmod(double x, double y) { return std::fmod(x, y); }
inline float c_remainder(float x, float y) { return ::remainderf(x, y); }
inline double c_remainder(double x, double y) { return std::remainder(x, y); }
inline float c_floor(float x) { return ::floorf(x); }
inline double c_floor(double x) { return std::floor(x); }
inline float c_copysign(float x, float y) { return ::copysignf(x, y); }
inline double c_copysign(double x, double y) { return std::copysign(x, y); }
inline float c_exp(float x) { return ::expf(x); }
inline double c_exp(double x) { return std::exp(x); }
inline float c_log1p(float x) { return ::log1pf(x); }
inline double c_log1p(double x) { return std::log1p(x); }
template <class T>
inline bool c_isnan(T x) { return x != x; }

// ---- Wrapping integer arithmetic without UB: compute in an unsigned type at
// least as wide as unsigned int (narrower types would promote to int, where
// 65535 * 65535 overflows), then narrow back (modular, as g++ defines it).
template <class T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

template <class T>
inline T wrap_add(T a, T b) {
    using U = WrapType<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
inline T wrap_sub(T a, T b) {
    using U = WrapType<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
inline T wrap_mul(T a, T b) {
    using U = WrapType<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}
template <class T>
inline T wrap_neg(T a) {
    return wrap_sub(T{0}, a);
}

// Base of the variadic ops: a plain left fold of apply, finished as is.
template <class Self>
struct Fold {
    template <class T>
    static T accumulate(T acc, T x) { return Self::apply(acc, x); }
    template <class T>
    static T finish(T acc, std::size_t /*count*/) { return acc; }
};

template <class Op>
inline constexpr bool kIsVariadic = std::is_base_of_v<Fold<Op>, Op>;

// ---------------------------------------------------------------- arithmetic

struct Add : Fold<Add> {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) return x + y;
        else return wrap_add(x, y);
    }
};

struct Sub {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) return x - y;
        else return wrap_sub(x, y);
    }
};

struct Mul : Fold<Mul> {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) return x * y;
        else return wrap_mul(x, y);
    }
};

// numpy's maximum/minimum: a NaN on either side wins, and the ">=" picks x
// for max(-0, +0) the way numpy does.
struct Max : Fold<Max> {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) return (x >= y || c_isnan(x)) ? x : y;
        else return x >= y ? x : y;
    }
};

struct Min : Fold<Min> {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) return (x <= y || c_isnan(x)) ? x : y;
        else return x <= y ? x : y;
    }
};

// Sum in the compute type, divided once at the end (f16/bf16 round once).
struct Mean : Fold<Mean> {
    template <class T> static constexpr bool accepts = kIsFloat<T>;
    template <class T>
    static T accumulate(T acc, T x) { return acc + x; }
    template <class T>
    static T finish(T acc, std::size_t count) { return acc / static_cast<T>(count); }
    template <class T>
    static T apply(T x, T y) { return finish(accumulate(x, y), 2); }
};

struct SquaredDifference {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) {
            const T d = x - y;
            return d * d;
        } else {
            const T d = wrap_sub(x, y);
            return wrap_mul(d, d);
        }
    }
};

// x < 0 ? x * slope : x. -0.0 is not < 0 (stays -0.0); unsigned x never is.
struct Prelu {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) return x < 0 ? x * y : x;
        else if constexpr (kIsSignedInt<T>) return x < 0 ? wrap_mul(x, y) : x;
        else return x;
    }
};

// ------------------------------------------------------------------ division
// Integers: by zero gives 0; a divisor of -1 is handled apart so that
// INT_MIN / -1 wraps instead of trapping.

struct Div {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) {
            return x / y;
        } else {
            if (y == 0) return T{0};
            if constexpr (kIsSignedInt<T>) {
                if (y == -1) return wrap_neg(x);
            }
            return static_cast<T>(x / y);  // truncates
        }
    }
};

// numpy's floor_divide: the floor of the exact quotient, computed from fmod so
// that (x - mod) / y is exact, then snapped to the nearest integer.
struct FloorDivide {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) {
            if (y == 0) return x / y;
            const T mod = c_fmod(x, y);
            T div = (x - mod) / y;
            if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1;
            if (div == 0) return c_copysign(T{0}, x / y);
            T fl = c_floor(div);
            if (div - fl > T{0.5}) fl += 1;
            return fl;
        } else {
            if (y == 0) return T{0};
            if constexpr (kIsSignedInt<T>) {
                if (y == -1) return wrap_neg(x);
                T q = static_cast<T>(x / y);
                const T r = static_cast<T>(x % y);
                // q - 1 cannot overflow: r != 0 needs |y| >= 2.
                if (r != 0 && ((r < 0) != (y < 0))) q = static_cast<T>(q - 1);
                return q;
            } else {
                return static_cast<T>(x / y);
            }
        }
    }
};

// C fmod / %: the sign of the dividend.
struct Fmod {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) {
            return c_fmod(x, y);
        } else {
            if (y == 0) return T{0};
            if constexpr (kIsSignedInt<T>) {
                if (y == -1) return T{0};
            }
            return static_cast<T>(x % y);
        }
    }
};

// numpy %: the floor remainder, with the sign of the divisor (a zero result
// takes the divisor's sign too).
struct Mod {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) {
            T mod = c_fmod(x, y);
            if (y == 0) return mod;  // NaN
            if (mod != 0) {
                if ((y < 0) != (mod < 0)) mod += y;
            } else {
                mod = c_copysign(T{0}, y);
            }
            return mod;
        } else {
            if (y == 0) return T{0};
            if constexpr (kIsSignedInt<T>) {
                if (y == -1) return T{0};
                T r = static_cast<T>(x % y);
                // |r| < |y| with opposite signs: r + y stays in range.
                if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<T>(r + y);
                return r;
            } else {
                return static_cast<T>(x % y);
            }
        }
    }
};

// IEEE remainder (quotient rounded to nearest even).
struct Remainder {
    template <class T> static constexpr bool accepts = kIsFloat<T>;
    template <class T>
    static T apply(T x, T y) { return c_remainder(x, y); }
};

// ------------------------------------------------------------ transcendental

// Floats: C pow. Integers: exact, by squaring with wrapping; a negative
// exponent gives 0 except for the bases 1 and -1.
struct Pow {
    template <class T> static constexpr bool accepts = kIsNumeric<T>;
    template <class T>
    static T apply(T x, T y) {
        if constexpr (kIsFloat<T>) {
            // C's pow(x, 0) and pow(1, y) are 1 even for a NaN, but glibc
            // answers NaN for a signalling one; numpy and the SIMD kernels say 1.
            if (y == 0 || x == 1) return T{1};
            return c_pow(x, y);
        } else {
            if constexpr (kIsSignedInt<T>) {
                if (y < 0) {
                    if (x == 1) return T{1};
                    if (x == -1) return (y & 1) != 0 ? T{-1} : T{1};
                    return T{0};
                }
            }
            using U = WrapType<T>;
            auto e = static_cast<std::make_unsigned_t<T>>(y);
            U base = static_cast<U>(x);
            U result = 1;
            while (e != 0) {
                if ((e & 1u) != 0) result = static_cast<U>(result * base);
                e = static_cast<decltype(e)>(e >> 1);
                base = static_cast<U>(base * base);
            }
            return static_cast<T>(result);
        }
    }
};

// atan2(x, y): x (input 0) is the numerator.
struct Atan2 {
    template <class T> static constexpr bool accepts = kIsFloat<T>;
    template <class T>
    static T apply(T x, T y) { return c_atan2(x, y); }
};

// log(exp(x) + exp(y)) without overflow, as numpy: equal arguments (also
// equal infinities) give x + log 2; a NaN falls through to NaN.
struct Logaddexp {
    template <class T> static constexpr bool accepts = kIsFloat<T>;
    // x + ln 2 and x + log1p(exp(-d)) cancel when the result is near zero
    // (exp(x) + exp(y) close to 1), so the sum is formed in long double:
    // 2 ulp then holds for f32 down to results near 1e-13 and for f64 where
    // the cancellation loses fewer than the 11 extra bits.
    template <class T>
    static T apply(T x, T y) {
        using W = long double;
        const W wx = x, wy = y;
        if (x == y) return static_cast<T>(wx + 0.693147180559945309417232121458176568L);
        const W d = wx - wy;
        if (d > 0) return static_cast<T>(wx + std::log1p(std::exp(-d)));
        return static_cast<T>(wy + std::log1p(std::exp(d)));  // d <= 0, or NaN -> NaN
    }
};

// --------------------------------------------------------------- comparisons
// IEEE for floats (NaN: false, except NOT_EQUAL); BOOL compares as 0/1.

#define BCAST_COMPARISON(Name, expr)                                             \
    struct Name {                                                                \
        template <class T> static constexpr bool accepts = std::is_arithmetic_v<T>; \
        template <class T>                                                       \
        static bool apply(T x, T y) { return expr; }                             \
    };
BCAST_COMPARISON(Equal, x == y)
BCAST_COMPARISON(NotEqual, x != y)
BCAST_COMPARISON(Less, x < y)
BCAST_COMPARISON(LessEqual, x <= y)
BCAST_COMPARISON(Greater, x > y)
BCAST_COMPARISON(GreaterEqual, x >= y)
#undef BCAST_COMPARISON

// ------------------------------------------------------------------- logical

struct LogicalAnd {
    template <class T> static constexpr bool accepts = std::is_same_v<T, bool>;
    static bool apply(bool x, bool y) { return x && y; }
};
struct LogicalOr {
    template <class T> static constexpr bool accepts = std::is_same_v<T, bool>;
    static bool apply(bool x, bool y) { return x || y; }
};
struct LogicalXor {
    template <class T> static constexpr bool accepts = std::is_same_v<T, bool>;
    static bool apply(bool x, bool y) { return x != y; }
};

// ------------------------------------------------------------------- bitwise
// Integers and bool; bool operands are already 0/1, so the result is too.

#define BCAST_BITWISE(Name, op)                                                  \
    struct Name {                                                                \
        template <class T> static constexpr bool accepts = std::is_integral_v<T>; \
        template <class T>                                                       \
        static T apply(T x, T y) { return static_cast<T>(x op y); }              \
    };
BCAST_BITWISE(BitwiseAnd, &)
BCAST_BITWISE(BitwiseOr, |)
BCAST_BITWISE(BitwiseXor, ^)
#undef BCAST_BITWISE

// Shifts: a count < 0 or >= the bit width gives 0. Left shifts in the
// unsigned type (wrap); right shifts of negative values are arithmetic,
// written as ~(~x >> n) so no negative value is ever shifted.
struct ShiftLeft {
    template <class T> static constexpr bool accepts = kIsInt<T>;
    template <class T>
    static T apply(T x, T n) {
        if constexpr (kIsSignedInt<T>) {
            if (n < 0) return T{0};
        }
        if (n >= static_cast<T>(8 * sizeof(T))) return T{0};
        using U = WrapType<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(x) << static_cast<unsigned>(n)));
    }
};

struct ShiftRight {
    template <class T> static constexpr bool accepts = kIsInt<T>;
    template <class T>
    static T apply(T x, T n) {
        if constexpr (kIsSignedInt<T>) {
            if (n < 0) return T{0};
        }
        if (n >= static_cast<T>(8 * sizeof(T))) return T{0};
        const auto count = static_cast<unsigned>(n);
        if constexpr (kIsSignedInt<T>) {
            if (x < 0) return static_cast<T>(~(~x >> count));
        }
        return static_cast<T>(x >> count);
    }
};

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
