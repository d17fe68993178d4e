// The primitives every kernel op (kernels/ops/<family>.hpp) is written in, on
// plain C++ scalars: float, double, the integer types and bool (one element,
// one lane). simd/simd_lanes.hpp overloads the same names for xsimd batches,
// so one definition of an op makes the portable kernel and every ISA's
// kernel, and results agree bit for bit by construction (the
// transcendentals: within 2 ulp, see pow_of below).
//
// Also here: what an op declares besides apply (OpDef), and the left fold
// of the variadic ops (Fold).
//
// Ops call these unqualified, so a translation unit that runs ops on batches
// must include simd/simd_lanes.hpp before any ops header (the generated
// family translation units do: kernels/family_kernels.cpp.in). Should one
// not, the scalar forms refuse a batch (static_assert) rather than compute
// something else with it.
#pragma once

#include "core/op_info.hpp"
#include "kernels/isa_namespace.hpp"

#include <bcast/bcast.h>

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::lanes {

// ---------------------------------------------------------------- lane types
// Lane<V>: the element type of V (V itself for a scalar, value_type for a
// batch). The traits below take scalars and batches alike.
template <class V, class = void>
struct LaneOf {
    using type = V;
};
template <class V>
struct LaneOf<V, std::void_t<typename V::value_type>> {
    using type = typename V::value_type;
};
template <class V>
using Lane = typename LaneOf<V>::type;

template <class V>
inline constexpr bool kIsFloat = std::is_floating_point_v<Lane<V>>;
template <class V>
inline constexpr bool kIsInt = std::is_integral_v<Lane<V>> && !std::is_same_v<Lane<V>, bool>;
template <class V>
inline constexpr bool kIsSignedInt = kIsInt<V> && std::is_signed_v<Lane<V>>;
template <class V>
inline constexpr bool kIsUnsignedInt = kIsInt<V> && std::is_unsigned_v<Lane<V>>;

// A V with t in every lane.
template <class V>
V splat(Lane<V> t) {
    return V(t);
}

// ------------------------------------------------------------ what ops say
// Which C math function an op's vector form replaces (simd_lanes.hpp says
// on which ISAs a vector form pays); None for the ops that are plain lane
// arithmetic.
enum class VectorMath { None, Pow, Atan2, Logaddexp };

// Every op derives from OpDef<its kernel opcode> and redefines what differs:
//   kOp               the dtypes it takes come from op_info, nothing else;
//   kVectorized<T>    lane types whose apply also runs on batches (integer
//                     division has no vector instruction: false there);
//   kComparison       apply returns a mask (bool, batch_bool): BOOL bytes out;
//   kSignAgnostic     the same bits for signed and unsigned lanes (wrapping
//                     + - *, == !=, & | ^): unsigned dtypes may run the
//                     signed kernels;
//   kIntProduct<T>    apply multiplies lanes of the integer type T
//                     (wrap_mul): ISAs with no vector multiply for T leave
//                     the op portable;
//   kMath             the C math function its vector form replaces.
template <bcast_opcode Op>
struct OpDef {
    static constexpr bcast_opcode kOp = Op;
    template <class T>
    static constexpr bool kVectorized = true;
    static constexpr bool kComparison = false;
    static constexpr bool kSignAgnostic = false;
    template <class T>
    static constexpr bool kIntProduct = false;
    static constexpr VectorMath kMath = VectorMath::None;
};

// Whether op_info lists the dtype: the only place dtype support is decided.
template <class Op>
constexpr bool supports(bcast_dtype dt) {
    return op_supports(Op::kOp, dt);
}

// The variadic ops (ADD, MUL, MAX, MIN, MEAN) also derive from Fold: inputs
// fold left to right with accumulate, then finish (MEAN divides by the
// count). Scalar only: the n-ary kernels are the portable ones.
template <class Self>
struct Fold {
    template <class T>
    static T accumulate(T acc, T x) { return Self::apply(acc, x); }
    template <class T>
    static T finish(T acc, std::size_t /*count*/) { return acc; }
};

template <class Op>
inline constexpr bool kIsVariadic = std::is_base_of_v<Fold<Op>, Op>;

// ------------------------------------------------------- lane primitives
// Scalar forms. Masks are bool.

template <class T>
inline constexpr bool kScalar = std::is_arithmetic_v<T>;
#define BCAST_SCALAR_ONLY(T) \
    static_assert(kScalar<T>, "a batch reached a scalar lane primitive: include simd_lanes.hpp first")

template <class T>
T if_else(bool mask, T a, T b) {
    BCAST_SCALAR_ONLY(T);
    return mask ? a : b;
}
inline bool logical_not(bool mask) { return !mask; }

// x is a NaN (any x != x; false for integers).
template <class T>
bool is_nan(T x) {
    BCAST_SCALAR_ONLY(T);
    return x != x;
}

// For integers (floats use if_else, which keeps NaN and -0 rules explicit).
template <class T>
T maximum(T a, T b) {
    BCAST_SCALAR_ONLY(T);
    return a >= b ? a : b;
}
template <class T>
T minimum(T a, T b) {
    BCAST_SCALAR_ONLY(T);
    return a <= b ? a : b;
}

// Wrapping integer arithmetic without UB: computed in an unsigned type at
// least as wide as unsigned int (narrower types would promote to int, where
// 65535 * 65535 overflows), then narrowed back (modular, as g++ defines it).
// Floats: the plain operation.
template <class T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

template <class T, class F>
T wrapping(T a, T b, F f) {
    BCAST_SCALAR_ONLY(T);
    if constexpr (std::is_floating_point_v<T>) {
        return f(a, b);
    } else {
        using U = WrapType<T>;
        return static_cast<T>(static_cast<U>(f(static_cast<U>(a), static_cast<U>(b))));
    }
}
template <class T>
T wrap_add(T a, T b) {
    return wrapping(a, b, [](auto p, auto q) { return p + q; });
}
template <class T>
T wrap_sub(T a, T b) {
    return wrapping(a, b, [](auto p, auto q) { return p - q; });
}
template <class T>
T wrap_mul(T a, T b) {
    return wrapping(a, b, [](auto p, auto q) { return p * q; });
}
template <class T>
T wrap_neg(T a) {
    return wrap_sub(T{0}, a);
}

// The IEEE quotient of floats.
template <class T>
T quotient(T x, T y) {
    BCAST_SCALAR_ONLY(T);
    return x / y;
}

// ---- C math in the argument's own precision (float must not go through
// double: F32 results must be those of powf, fmodf, ...). Scalar only.
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

// ---- The transcendentals of floats. Here they are the definition: libm
// (correctly rounded or nearly so). The vector forms (simd_lanes.hpp) are
// different algorithms held to 2 ulp of these (decisions.md), not bit for
// bit.

// C's pow(x, 0) and pow(1, y) are 1 even for a NaN, but glibc answers NaN
// for a signalling one; numpy and the vector forms say 1.
template <class T>
T pow_of(T x, T y) {
    BCAST_SCALAR_ONLY(T);
    if (y == 0 || x == 1) return T{1};
    return c_pow(x, y);
}

// atan2(x, y): x is the numerator.
template <class T>
T atan2_of(T x, T y) {
    BCAST_SCALAR_ONLY(T);
    return c_atan2(x, y);
}

// log(exp(x) + exp(y)) without overflow, as numpy: equal arguments (also
// equal infinities) give x + log 2; a NaN falls through to NaN. x + ln 2 and
// x + log1p(exp(-d)) cancel when the result is near zero, so the sum is
// formed in long double: 2 ulp then holds for f32 down to results near
// 1e-13 and for f64 where the cancellation loses fewer than 11 bits.
template <class T>
T logaddexp_of(T x, T y) {
    BCAST_SCALAR_ONLY(T);
    using W = long double;
    const W wx = x, wy = y;
    if (x == y) return static_cast<T>(wx + 0.693147180559945309417232121458176568L);
    const W d = wx - wy;
    if (d > 0) return static_cast<T>(wx + std::log1p(std::exp(-d)));
    return static_cast<T>(wy + std::log1p(std::exp(d)));  // d <= 0, or NaN -> NaN
}

#undef BCAST_SCALAR_ONLY

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::lanes
