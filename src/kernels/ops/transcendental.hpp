// The transcendental family (kernels/families.hpp): pow, atan2, logaddexp.
// Each op once (lanes.hpp), and the family's list of ops. For floats they are
// lanes' pow_of, atan2_of and logaddexp_of: libm in the portable kernels,
// vector algorithms within 2 ulp where simd_lanes.hpp says they pay.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"
#include "kernels/ops/op_list.hpp"

#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {
using namespace lanes;

// Integers: exact, by squaring with wrapping (scalar only); a negative
// exponent gives 0 except for the bases 1 and -1.
struct Pow : OpDef<BCAST_OP_POW> {
    static constexpr VectorMath kMath = VectorMath::Pow;
    template <class T>
    static constexpr bool kVectorized = kIsFloat<T>;
    template <class V>
    static V apply(V x, V y) {
        if constexpr (kIsFloat<V>) {
            return pow_of(x, y);
        } else {  // a scalar integer
            if constexpr (kIsSignedInt<V>) {
                if (y < 0) {
                    if (x == 1) return V{1};
                    if (x == -1) return (y & 1) != 0 ? V{-1} : V{1};
                    return V{0};
                }
            }
            using U = WrapType<V>;
            auto e = static_cast<std::make_unsigned_t<V>>(y);
            U base = static_cast<U>(x);
            U result = 1;
            while (e != 0) {
                if ((e & 1u) != 0) result = static_cast<U>(result * base);
                e = static_cast<decltype(e)>(e >> 1);
                base = static_cast<U>(base * base);
            }
            return static_cast<V>(result);
        }
    }
};

struct Atan2 : OpDef<BCAST_OP_ATAN2> {
    static constexpr VectorMath kMath = VectorMath::Atan2;
    template <class V>
    static V apply(V x, V y) { return atan2_of(x, y); }
};

struct Logaddexp : OpDef<BCAST_OP_LOGADDEXP> {
    static constexpr VectorMath kMath = VectorMath::Logaddexp;
    template <class V>
    static V apply(V x, V y) { return logaddexp_of(x, y); }
};

// The family's ops (ops/op_list.hpp).
using transcendental_ops = OpList<Pow, Atan2, Logaddexp>;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
