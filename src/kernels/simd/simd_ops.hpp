// The kernel ops on xsimd batches: the vector twins of scalar_ops.hpp, which
// stays the definition. Each functor lists the compute types it vectorises
// (a subset of what the scalar functor accepts: anything left out keeps the
// portable kernel) and applies the op to one batch pair, giving a batch or,
// for comparisons, a batch_bool. Results are bit-identical to the scalar
// functors: no reassociation, no FMA (the ISA files build with
// -ffp-contract=off), no reciprocal approximations.
//
// Included only by an ISA's kernel translation unit, after it has defined
// BCAST_KERNEL_ISA; everything lands in that ISA's namespace.
#pragma once

#include "kernels/isa_namespace.hpp"

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <class T>
inline constexpr bool kFloat = std::is_floating_point_v<T>;
// Integer compute types; BOOL computes as 0/1 uint8_t bytes here.
template <class T>
inline constexpr bool kInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool kNumeric = kFloat<T> || kInt<T>;

template <class T, class A>
using Batch = xsimd::batch<T, A>;

// ---------------------------------------------------------------- arithmetic
// Integer +, -, * wrap, as the scalar wrap_* helpers define: signed lanes are
// computed as unsigned ones, because where an ISA has no instruction (SSE2's
// 32-bit or any 64-bit multiply) xsimd 8.1 falls back to scalar C++, where a
// signed overflow would be undefined.

template <class T, class A, class F>
Batch<T, A> wrapping(Batch<T, A> x, Batch<T, A> y, F f) {
    if constexpr (kInt<T> && std::is_signed_v<T>) {
        using U = Batch<std::make_unsigned_t<T>, A>;
        return xsimd::bitwise_cast<Batch<T, A>>(
            f(xsimd::bitwise_cast<U>(x), xsimd::bitwise_cast<U>(y)));
    } else {
        return f(x, y);
    }
}

template <class T, class A>
Batch<T, A> wrap_add(Batch<T, A> x, Batch<T, A> y) {
    return wrapping(x, y, [](auto a, auto b) { return a + b; });
}
template <class T, class A>
Batch<T, A> wrap_sub(Batch<T, A> x, Batch<T, A> y) {
    return wrapping(x, y, [](auto a, auto b) { return a - b; });
}
template <class T, class A>
Batch<T, A> wrap_mul(Batch<T, A> x, Batch<T, A> y) {
    return wrapping(x, y, [](auto a, auto b) { return a * b; });
}

struct Add {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return wrap_add(x, y); }
};

struct Sub {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return wrap_sub(x, y); }
};

struct Mul {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return wrap_mul(x, y); }
};

// x is a NaN. Not x != x: xsimd 8.1's AVX and AVX-512 != is the ordered
// compare (false with a NaN), unlike C's.
template <class T, class A>
xsimd::batch_bool<T, A> is_nan(Batch<T, A> x) {
    return ~(x == x);
}

// numpy maximum/minimum: (x >= y || isnan(x)) ? x : y, as ops::Max; plain
// max/min for integers.
struct Max {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        if constexpr (kFloat<T>) return xsimd::select((x >= y) | is_nan(x), x, y);
        else return xsimd::max(x, y);
    }
};

struct Min {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        if constexpr (kFloat<T>) return xsimd::select((x <= y) | is_nan(x), x, y);
        else return xsimd::min(x, y);
    }
};

// The IEEE quotient x / y. An ISA policy header specialises this for its
// arch where xsimd's operator/ is not correctly rounded (neon_isa.hpp).
template <class A>
struct Quotient {
    template <class T>
    static Batch<T, A> of(Batch<T, A> x, Batch<T, A> y) { return x / y; }
};

// Two inputs: (x + y) / 2, one division as ops::Mean::finish.
struct Mean {
    template <class T> static constexpr bool accepts = kFloat<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        return Quotient<A>::of(x + y, Batch<T, A>(T{2}));
    }
};

struct SquaredDifference {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        const Batch<T, A> d = wrap_sub(x, y);
        return wrap_mul(d, d);
    }
};

// x < 0 ? x * slope : x; unsigned x is never negative. Signed integers as
// max(x, 0) + min(x, 0) * slope (the same value, wrapping included): xsimd
// 8.1's 8- and 16-bit AVX-512 select does not compile at -O0.
struct Prelu {
    template <class T> static constexpr bool accepts = kNumeric<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) {
        const Batch<T, A> zero(T{0});
        if constexpr (std::is_unsigned_v<T>) return x;
        else if constexpr (kInt<T>) return wrap_add(xsimd::max(x, zero), wrap_mul(xsimd::min(x, zero), y));
        else return xsimd::select(x < zero, x * y, x);
    }
};

// Floats only: integer division has the by-zero and INT_MIN / -1 rules.
struct Div {
    template <class T> static constexpr bool accepts = kFloat<T>;
    template <class T, class A>
    static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return Quotient<A>::of(x, y); }
};

// --------------------------------------------------------------- comparisons
// IEEE ordered compares (false with a NaN), NOT_EQUAL unordered (true): it
// is spelled ~(x == y) because xsimd 8.1's != is ordered on AVX/AVX-512.

#define BCAST_SIMD_COMPARISON(Name, expr)                                  \
    struct Name {                                                          \
        template <class T> static constexpr bool accepts = kNumeric<T>;    \
        template <class T, class A>                                        \
        static xsimd::batch_bool<T, A> apply(Batch<T, A> x, Batch<T, A> y) { \
            return expr;                                                   \
        }                                                                  \
    };
BCAST_SIMD_COMPARISON(Equal, x == y)
BCAST_SIMD_COMPARISON(NotEqual, ~(x == y))
BCAST_SIMD_COMPARISON(Less, x < y)
BCAST_SIMD_COMPARISON(LessEqual, x <= y)
BCAST_SIMD_COMPARISON(Greater, x > y)
BCAST_SIMD_COMPARISON(GreaterEqual, x >= y)
#undef BCAST_SIMD_COMPARISON

// ---------------------------------------------------------- bitwise, logical
// Integers, and BOOL as 0/1 bytes: & | ^ of 0/1 are the logical ops too.

#define BCAST_SIMD_BITWISE(Name, op)                                       \
    struct Name {                                                          \
        template <class T> static constexpr bool accepts = kInt<T>;        \
        template <class T, class A>                                        \
        static Batch<T, A> apply(Batch<T, A> x, Batch<T, A> y) { return x op y; } \
    };
BCAST_SIMD_BITWISE(BitwiseAnd, &)
BCAST_SIMD_BITWISE(BitwiseOr, |)
BCAST_SIMD_BITWISE(BitwiseXor, ^)
#undef BCAST_SIMD_BITWISE

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
