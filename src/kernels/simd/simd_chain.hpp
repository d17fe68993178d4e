// The chain walker (kernel_table.hpp: Chain): a fused expression's linear
// chain of binary ops, evaluated for eight steps at a time in registers. Each
// link loads (or takes the splat of) its leaf and applies its op to the
// accumulators; only the last result is stored. The op is chosen once per
// link and eight steps, so the choice costs little beside the work, and the
// ops are the ones their own kernels apply (ops/), so the bits are theirs.
// Needs ops::Add, Sub, Mul, Div, Max and Min declared before it.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/simd_codec.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <class Codec>
struct ChainRun {
    using T = typename Codec::Storage;
    using V = typename Codec::Value;
    static constexpr std::size_t S = Codec::kStep;
    // Steps in registers at once: the op's jump per link cost the NCHW tail
    // 1.7x of the roofline at 4, 1.4x at 8; 16 spill (docs/fusion.md).
    static constexpr std::size_t U = 8;

    struct Operand {
        const T* p;
        bool scalar;
        V splat;
    };

    const Chain* chain;
    Operand first;                   // link 0's x
    Operand operand[kMaxChainLinks];  // each link's leaf

    template <std::size_t N>
    static void take(const Operand& o, std::size_t i, V (&v)[N]) {
        if (o.scalar) {
            for (std::size_t u = 0; u < N; ++u) v[u] = o.splat;
        } else {
            for (std::size_t u = 0; u < N; ++u) v[u] = Codec::load(o.p + i + u * S);
        }
    }

    template <class Op, std::size_t N>
    static void apply(V (&acc)[N], const V (&leaf)[N], bool acc_is_y) {
        if (acc_is_y) {
            for (std::size_t u = 0; u < N; ++u) acc[u] = Codec::template apply<Op>(leaf[u], acc[u]);
        } else {
            for (std::size_t u = 0; u < N; ++u) acc[u] = Codec::template apply<Op>(acc[u], leaf[u]);
        }
    }

    // Steps i, i + S, ... (N of them) of the chain into acc.
    template <std::size_t N>
    void eval(std::size_t i, V (&acc)[N]) const {
        take(first, i, acc);
        for (std::size_t k = 0; k < chain->num_links; ++k) {
            const ChainLink& link = chain->link[k];
            V leaf[N];
            take(operand[k], i, leaf);
            switch (link.op) {
                case BCAST_OP_ADD: apply<ops::Add>(acc, leaf, link.acc_is_y); break;
                case BCAST_OP_SUB: apply<ops::Sub>(acc, leaf, link.acc_is_y); break;
                case BCAST_OP_MUL: apply<ops::Mul>(acc, leaf, link.acc_is_y); break;
                case BCAST_OP_DIV: apply<ops::Div>(acc, leaf, link.acc_is_y); break;
                case BCAST_OP_MAX: apply<ops::Max>(acc, leaf, link.acc_is_y); break;
                default: apply<ops::Min>(acc, leaf, link.acc_is_y); break;
            }
        }
    }

    // n >= S elements. A last, partial step overlaps the one before it and
    // is computed before anything is stored (out may be a leaf); only then:
    // reading a block's end first, out of order, cost a third of the time
    // of a streamed chain.
    template <bool NT>
    void walk(std::size_t n, T* out) const {
        const std::size_t full = n - n % S;
        V last[1] = {};
        if (full != n) eval(n - S, last);
        std::size_t i = 0;
        for (; i + U * S <= full; i += U * S) {
            V acc[U];
            eval(i, acc);
            for (std::size_t u = 0; u < U; ++u) Codec::template store<NT>(out + i + u * S, acc[u]);
        }
        for (; i < full; i += S) {
            V acc[1];
            eval(i, acc);
            Codec::template store<NT>(out + i, acc[0]);
        }
        if (full != n) Codec::template store<false>(out + (n - S), last[0]);
    }

    // n < S elements, through zero-padded copies of the runs (this run's
    // operands are redirected to them: it is used once).
    void walk_short(std::size_t n, T* out) {
        T buf[kMaxChainLinks + 1][S] = {};
        const auto pad = [&](Operand& o, T* b) {
            if (o.scalar) return;
            std::memcpy(b, o.p, n * sizeof(T));
            o.p = b;
        };
        pad(first, buf[0]);
        for (std::size_t k = 0; k < chain->num_links; ++k) pad(operand[k], buf[k + 1]);
        V r[1];
        eval(0, r);
        T result[S];
        Codec::template store<false>(result, r[0]);
        std::memcpy(out, result, n * sizeof(T));
    }
};

// ChainFn for the codec. Streams only where the output is aligned to a step
// (the fused executor's blocks start at output lines); the caller fences
// when it asks for no fence.
template <class Isa, class Codec>
void chain(std::size_t n, const Chain& c, const void* const* leaves, const bool* scalar, void* out,
           Stores stores) {
    using Run = ChainRun<Codec>;
    using T = typename Run::T;
    if (n == 0) return;
    Run run;
    run.chain = &c;
    const auto make = [&](std::size_t leaf) {
        const T* p = static_cast<const T*>(leaves[leaf]);
        typename Run::Operand o{p, scalar[leaf], {}};
        if (o.scalar) o.splat = Codec::splat(p);
        return o;
    };
    run.first = make(c.first);
    for (std::size_t k = 0; k < c.num_links; ++k) run.operand[k] = make(c.link[k].leaf);
    T* o = static_cast<T*>(out);
    if (n < Run::S) {
        run.walk_short(n, o);
        return;
    }
    const bool aligned = reinterpret_cast<std::uintptr_t>(o) % (Run::S * sizeof(T)) == 0;
    if (stores.stream && aligned) {
        run.template walk<true>(n, o);
        if (stores.fence) Isa::fence();
    } else {
        run.template walk<false>(n, o);
    }
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
