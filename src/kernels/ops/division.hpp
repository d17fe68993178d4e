// The division family (kernels/families.hpp): / // fmod % remainder. Each op
// once (lanes.hpp), and the family's list of ops. Only float / has a vector form:
// integer division has no vector instruction, and the rest are built on C's
// fmod and remainder.
// Integers: by zero gives 0; a divisor of -1 is handled apart so that
// INT_MIN / -1 wraps instead of trapping.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

struct Div : OpDef<BCAST_OP_DIV> {
    template <class T>
    static constexpr bool kVectorized = kIsFloat<T>;
    template <class V>
    static V apply(V x, V y) {
        if constexpr (kIsFloat<V>) {
            return quotient(x, y);
        } else {  // a scalar integer
            if (y == 0) return V{0};
            if constexpr (kIsSignedInt<V>) {
                if (y == -1) return wrap_neg(x);
            }
            return static_cast<V>(x / y);  // truncates
        }
    }
};

// numpy's floor_divide: the floor of the exact quotient, computed from fmod so
// that (x - mod) / y is exact, then snapped to the nearest integer.
struct FloorDivide : OpDef<BCAST_OP_FLOOR_DIVIDE> {
    template <class T>
    static constexpr bool kVectorized = false;
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
struct Fmod : OpDef<BCAST_OP_FMOD> {
    template <class T>
    static constexpr bool kVectorized = false;
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
struct Mod : OpDef<BCAST_OP_MOD> {
    template <class T>
    static constexpr bool kVectorized = false;
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
struct Remainder : OpDef<BCAST_OP_REMAINDER> {
    template <class T>
    static constexpr bool kVectorized = false;
    template <class T>
    static T apply(T x, T y) { return c_remainder(x, y); }
};

// The family's ops (ops/op_list.hpp).
using division_ops = OpList<Div, FloorDivide, Fmod, Mod, Remainder>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
