// The portable loop templates: one per kernel shape (vv, vs, sv, periodic_y,
// periodic_x, strided, strided fold), each written once and instantiated per
// (op, dtype) by the table builder at the bottom (Tables, which the family
// lookups in kernels/ops/ take). Plain C++: the compiler may auto-vectorise,
// nothing more.
//
// In-place calls (out == an input with the same element size and layout) are
// fine: every loop reads element i of all inputs before writing element i.
#pragma once

#include "kernels/dtype_traits.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/lanes.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bcast::kernels::portable {

// An op bound to a dtype: load to the compute type, apply, store. Comparisons
// and logical ops return bool, stored as a BOOL byte.
template <class Op, class D>
struct Bound {
    using In = typename D::Storage;
    using C = typename D::Compute;
    using R = decltype(Op::apply(C{}, C{}));
    using Out = std::conditional_t<std::is_same_v<R, bool>, std::uint8_t, In>;

    static C load(In v) { return D::load(v); }
    static Out store(R r) {
        if constexpr (std::is_same_v<R, bool>) return static_cast<std::uint8_t>(r ? 1 : 0);
        else return D::store(r);
    }
    static Out apply(C x, C y) { return store(Op::apply(x, y)); }
};

// Element i of a strided operand; the offset is computed per element so that
// no pointer is ever formed outside the operand (negative strides included).
template <class T>
inline T& at(T* base, std::size_t i, std::ptrdiff_t stride) {
    return base[static_cast<std::ptrdiff_t>(i) * stride];
}

template <class E>
void vv(std::size_t n, const void* x, const void* y, void* out, Stores /*stores*/) {
    const auto* a = static_cast<const typename E::In*>(x);
    const auto* b = static_cast<const typename E::In*>(y);
    auto* o = static_cast<typename E::Out*>(out);
    for (std::size_t i = 0; i < n; ++i) o[i] = E::apply(E::load(a[i]), E::load(b[i]));
}

template <class E>
void vs(std::size_t n, const void* x, const void* y, void* out, Stores /*stores*/) {
    const auto* a = static_cast<const typename E::In*>(x);
    auto* o = static_cast<typename E::Out*>(out);
    if (n == 0) return;  // y may be NULL for an empty output
    const auto s = E::load(*static_cast<const typename E::In*>(y));
    for (std::size_t i = 0; i < n; ++i) o[i] = E::apply(E::load(a[i]), s);
}

template <class E>
void sv(std::size_t n, const void* x, const void* y, void* out, Stores /*stores*/) {
    const auto* b = static_cast<const typename E::In*>(y);
    auto* o = static_cast<typename E::Out*>(out);
    if (n == 0) return;
    const auto s = E::load(*static_cast<const typename E::In*>(x));
    for (std::size_t i = 0; i < n; ++i) o[i] = E::apply(s, E::load(b[i]));
}

// out[i] = x[i] op y[i % period], as whole periods plus a partial last one,
// so there is no division per element. (A zero period with n > 0 is a caller
// bug; it writes nothing rather than looping forever.)
template <class E>
void periodic_y(std::size_t n, std::size_t period, const void* x, const void* y, void* out,
                Stores /*stores*/) {
    const auto* a = static_cast<const typename E::In*>(x);
    const auto* b = static_cast<const typename E::In*>(y);
    auto* o = static_cast<typename E::Out*>(out);
    if (period == 0) return;
    for (std::size_t start = 0; start < n; start += period) {
        const std::size_t len = n - start < period ? n - start : period;
        for (std::size_t j = 0; j < len; ++j)
            o[start + j] = E::apply(E::load(a[start + j]), E::load(b[j]));
    }
}

template <class E>
void periodic_x(std::size_t n, std::size_t period, const void* x, const void* y, void* out,
                Stores /*stores*/) {
    const auto* a = static_cast<const typename E::In*>(x);
    const auto* b = static_cast<const typename E::In*>(y);
    auto* o = static_cast<typename E::Out*>(out);
    if (period == 0) return;
    for (std::size_t start = 0; start < n; start += period) {
        const std::size_t len = n - start < period ? n - start : period;
        for (std::size_t j = 0; j < len; ++j)
            o[start + j] = E::apply(E::load(a[j]), E::load(b[start + j]));
    }
}

// Binary op, any strides (num_inputs is 2).
template <class E>
void strided_binary(std::size_t n, std::size_t /*num_inputs*/, const void* const* in,
                    const std::ptrdiff_t* in_strides, void* out, std::ptrdiff_t out_stride) {
    if (n == 0) return;
    const auto* a = static_cast<const typename E::In*>(in[0]);
    const auto* b = static_cast<const typename E::In*>(in[1]);
    auto* o = static_cast<typename E::Out*>(out);
    for (std::size_t i = 0; i < n; ++i)
        at(o, i, out_stride) = E::apply(E::load(at(a, i, in_strides[0])),
                                        E::load(at(b, i, in_strides[1])));
}

// Variadic op, 2..16 inputs, any strides: inputs folded left to right in the
// compute type, finished and stored once.
template <class Op, class E>
void strided_fold(std::size_t n, std::size_t num_inputs, const void* const* in,
                  const std::ptrdiff_t* in_strides, void* out, std::ptrdiff_t out_stride) {
    using In = typename E::In;
    auto* o = static_cast<typename E::Out*>(out);
    for (std::size_t i = 0; i < n; ++i) {
        auto acc = E::load(at(static_cast<const In*>(in[0]), i, in_strides[0]));
        for (std::size_t k = 1; k < num_inputs; ++k)
            acc = Op::accumulate(acc, E::load(at(static_cast<const In*>(in[k]), i, in_strides[k])));
        at(o, i, out_stride) = E::store(Op::finish(acc, num_inputs));
    }
}

template <class Op, class D>
constexpr OpKernels make_binary_kernels() {
    using E = Bound<Op, D>;
    OpKernels k;
    k.vv = &vv<E>;
    k.vs = &vs<E>;
    k.sv = &sv<E>;
    k.periodic_y = &periodic_y<E>;
    k.periodic_x = &periodic_x<E>;
    if constexpr (lanes::kIsVariadic<Op>) k.strided = &strided_fold<Op, E>;
    else k.strided = &strided_binary<E>;
    return k;
}

template <class Op, class D>
inline constexpr OpKernels kBinaryKernels = make_binary_kernels<Op, D>();

// The table entry of a binary (or variadic) op for dtype dt: nullptr where
// op_info does not list the pair.
template <class Op>
const OpKernels* binary_kernels(bcast_dtype dt) {
    return visit_dtype(dt, static_cast<const OpKernels*>(nullptr),
                       [](auto d) -> const OpKernels* {
                           using D = decltype(d);
                           if constexpr (lanes::supports<Op>(D::kId))
                               return &kBinaryKernels<Op, D>;
                           else
                               return nullptr;
                       });
}

// COPY and SELECT move element bytes: one kernel set per element size
// (moves.cpp).
const OpKernels* copy_kernels(bcast_dtype dt);
const OpKernels* select_kernels(bcast_dtype dt);

// The portable table builder, for the family lookups (kernels/ops/).
struct Tables {
    template <class Op>
    static const OpKernels* binary(bcast_dtype dt) { return binary_kernels<Op>(dt); }
    static const OpKernels* copy(bcast_dtype dt) { return copy_kernels(dt); }
    static const OpKernels* select(bcast_dtype dt) { return select_kernels(dt); }
};

}  // namespace bcast::kernels::portable
