// The chain walker (kernel_table.hpp: Chain): a fused expression's linear
// chain of binary ops, evaluated for U steps at a time in registers (256
// bytes). Each link loads (or takes the splat of) its leaf and applies its op
// to the accumulators; only the last result is stored. The op is chosen once
// per link and U steps, so the choice costs little beside the work, and the
// ops are the ones their own kernels apply (ops/), so the bits are theirs.
// Chains of two f32 links stream their body through loops compiled for both
// links (PairLoop). The ops are the op table's chain ops (core/op_info.hpp:
// chain_op), found by opcode in the families' lists of ops
// (ops/op_list.hpp) that the translation unit passes in.
#pragma once

#include "core/op_info.hpp"
#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/ops/op_list.hpp"
#include "kernels/simd/prefetch_hint.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/simd_loops.hpp"
#include "kernels/simd/tuning.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// The chain ops are numbered by their kernel opcodes' order: the k-th kernel
// op the op table marks chain_op (reversed ops run as their kernel op).
constexpr bool chain_kernel_op(int op) {
    return chain_op(static_cast<bcast_opcode>(op)) && op_tables::kOps[op].base == op;
}
constexpr std::size_t count_chain_ops() {
    std::size_t n = 0;
    for (int op = 0; op < kNumOpcodes; ++op) n += chain_kernel_op(op) ? 1 : 0;
    return n;
}
inline constexpr std::size_t kNumChainOps = count_chain_ops();
constexpr bcast_opcode chain_opcode(std::size_t index) {
    for (int op = 0; op < kNumOpcodes; ++op) {
        if (chain_kernel_op(op) && index-- == 0) return static_cast<bcast_opcode>(op);
    }
    return -1;
}
// Each kernel opcode's number (kNumChainOps where it is no chain op).
struct ChainIndex {
    unsigned of[kNumOpcodes];
};
constexpr ChainIndex chain_indexes() {
    ChainIndex index{};
    for (std::size_t k = 0; k < static_cast<std::size_t>(kNumOpcodes); ++k) index.of[k] = kNumChainOps;
    for (std::size_t k = 0; k < kNumChainOps; ++k) index.of[chain_opcode(k)] = static_cast<unsigned>(k);
    return index;
}
inline constexpr ChainIndex kChainIndex = chain_indexes();

// The chain ops' definitions in that order, taken from KernelOps (every
// family's ops, ops::OpList): what chain() takes.
template <class KernelOps, std::size_t... Index>
std::tuple<ops::OpOf<chain_opcode(Index), KernelOps>...> chain_ops_of(std::index_sequence<Index...>);
template <class KernelOps>
using ChainOps = decltype(chain_ops_of<KernelOps>(std::make_index_sequence<kNumChainOps>{}));

template <class Codec, class OpTuple>
struct ChainRun {
    using T = typename Codec::Storage;
    using V = typename Codec::Value;
    static constexpr std::size_t S = Codec::kStep;
    // Steps in registers at once: 256 bytes of output, at most eight. On
    // AVX2 four steps measured slower than eight and sixteen spill; on
    // AVX-512 four ran faster than eight (docs/fusion.md).
    static constexpr std::size_t U = std::min<std::size_t>(8, 256 / (S * sizeof(T)));
    static_assert(U >= 1, "a step wider than 256 bytes");
    // Elements per 64-byte output line, a whole number of steps.
    static constexpr std::size_t L = 64 / sizeof(T);
    static_assert(L % S == 0, "a step that does not divide a line");

    // A link's leaf and what to do with it: code = the op's number (above)
    // * 4 + acc_is_y * 2 + scalar, one jump per link and U steps.
    struct Operand {
        const T* p;
        bool scalar;
        unsigned code;
        V splat;
        std::ptrdiff_t row;  // elements from one run's p to the next's
    };

    const Chain* chain;
    Operand first;                   // link 0's x
    Operand operand[kMaxChainLinks];  // each link's leaf
    // The ChainLeaf::kStream operands' p, copied (read through the operand,
    // the prefetch ran a third slower when memory was busy: docs/fusion.md),
    // and the operands themselves.
    const T* runs[kMaxChainLinks + 1];
    const Operand* run_of[kMaxChainLinks + 1];
    std::size_t num_runs = 0;
    Prefetch pf;  // chain_prefetch(), when streamed (prefetch_hint.hpp)

    // Streamed iterations prefetch each kStream run for a later one
    // (tuning/builtin_tuning.cpp).
    void prefetch(std::size_t i) const {
        for (std::size_t r = 0; r < num_runs; ++r) {
            prefetch_ahead<U * S>(runs[r], i, pf);
        }
    }

    // The operands of the next run: only pointers move and scalars splat.
    void next_row() {
        const auto advance = [](Operand& o) {
            o.p += o.row;
            if (o.scalar) o.splat = Codec::splat(o.p);
        };
        advance(first);
        for (std::size_t k = 0; k < chain->num_links; ++k) advance(operand[k]);
        for (std::size_t r = 0; r < num_runs; ++r) runs[r] = run_of[r]->p;
    }

    template <std::size_t N>
    static void take(const Operand& o, std::size_t i, V (&v)[N]) {
        if (o.scalar) {
            for (std::size_t u = 0; u < N; ++u) v[u] = o.splat;
        } else {
            for (std::size_t u = 0; u < N; ++u) v[u] = Codec::load(o.p + i + u * S);
        }
    }

    // acc = acc op leaf (or leaf op acc), the leaf loaded or splat per step
    // (no leaf array: acc alone fills the registers).
    template <class Op, bool AccIsY, bool Scalar, std::size_t N>
    [[gnu::always_inline]] static void apply(V (&acc)[N], const Operand& o, std::size_t i) {
        for (std::size_t u = 0; u < N; ++u) {
            const V leaf = Scalar ? o.splat : Codec::load(o.p + i + u * S);
            acc[u] = AccIsY ? Codec::template apply<Op>(leaf, acc[u])
                            : Codec::template apply<Op>(acc[u], leaf);
        }
    }

    // The chain ops, in the order of Operand::code.
    using Ops = OpTuple;
    template <unsigned Index>
    using OpAt = std::tuple_element_t<Index, Ops>;
    // An op's own kernels apply its vector form to these lanes; a vector
    // transcendental may give way to libm there (simd_vector_math.hpp), so
    // a chain of it would not write their bits.
    template <class Op>
    static constexpr bool kChainable = Op::template kVectorized<T> && !Op::kComparison &&
                                       Op::kMath == ops::VectorMath::None;
    template <std::size_t... I>
    static constexpr bool all_chainable(std::index_sequence<I...>) {
        return (kChainable<OpAt<I>> && ...);
    }
    static_assert(all_chainable(std::make_index_sequence<kNumChainOps>{}),
                  "a chain op (op_info.hpp) with no plain vector form for f32 and f64");

    // apply() for an Operand::code known at compile time: the one place
    // that reads the code's fields, for eval and the pair loops alike.
    template <unsigned Code, std::size_t N>
    [[gnu::always_inline]] static void apply_code(V (&acc)[N], const Operand& o, std::size_t i) {
        apply<OpAt<Code / 4>, (Code & 2) != 0, (Code & 1) != 0>(acc, o, i);
    }

    // Steps i, i + S, ... (N of them) of the chain into acc; inlined so
    // that acc stays in registers.
    template <std::size_t N>
    [[gnu::always_inline]] void eval(std::size_t i, V (&acc)[N]) const {
        take(first, i, acc);
        for (std::size_t k = 0; k < chain->num_links; ++k) {
            const Operand& o = operand[k];
            // A case per code, so that the switch is one jump through a
            // table; the cases past the last op's are unreachable, so the
            // table ends at the last op's. chain() sets no other code. No
            // default: with an unreachable one GCC 12 counted the links
            // apart, and chains in cache ran 10-20% slower (docs/fusion.md).
#define BCAST_CHAIN_CASE(code)                         \
    case code:                                         \
        if constexpr (code < kCodes) {                 \
            apply_code<code>(acc, o, i);               \
            break;                                     \
        } else {                                       \
            __builtin_unreachable();                   \
        }
#define BCAST_CHAIN_CASES(index)          \
    BCAST_CHAIN_CASE(index * 4 + 0)       \
    BCAST_CHAIN_CASE(index * 4 + 1)       \
    BCAST_CHAIN_CASE(index * 4 + 2)       \
    BCAST_CHAIN_CASE(index * 4 + 3)
            static_assert(kNumChainOps <= 16, "more chain ops than eval has cases for");
            switch (o.code) {
                BCAST_CHAIN_CASES(0) BCAST_CHAIN_CASES(1) BCAST_CHAIN_CASES(2) BCAST_CHAIN_CASES(3)
                BCAST_CHAIN_CASES(4) BCAST_CHAIN_CASES(5) BCAST_CHAIN_CASES(6) BCAST_CHAIN_CASES(7)
                BCAST_CHAIN_CASES(8) BCAST_CHAIN_CASES(9) BCAST_CHAIN_CASES(10) BCAST_CHAIN_CASES(11)
                BCAST_CHAIN_CASES(12) BCAST_CHAIN_CASES(13) BCAST_CHAIN_CASES(14) BCAST_CHAIN_CASES(15)
            }
#undef BCAST_CHAIN_CASES
#undef BCAST_CHAIN_CASE
        }
    }

    // One run of n elements: its whole output lines streamed where
    // `stream`, else cached.
    void run(std::size_t n, T* out, bool stream, ChainCarry& carry) {
        const auto addr = reinterpret_cast<std::uintptr_t>(out);
        const std::size_t head = (64 - addr % 64) % 64 / sizeof(T);
        const bool aligns = addr % sizeof(T) == 0;
        if (stream && aligns && n >= head + L) {
            walk_lines(n, head, out, carry);
            return;
        }
        if (carry.size != 0) kernels::flush(carry);
        if (n < S) {
            walk_short(n, out);
        } else if (aligns && head % S != 0 && n >= head + tuning::kRealignMinSteps * S) {
            walk_aligned(n, head % S, out);  // to a step: one step before it
        } else {
            walk(n, out);
        }
    }

    // n >= S elements, cached stores. A last, partial step overlaps the one
    // before it and is computed before anything is stored (out may be a
    // leaf); only then: reading a run's end first, out of order, cost
    // streamed blocks a third of their time.
    void walk(std::size_t n, T* out) const {
        const std::size_t full = n - n % S;
        V last[1] = {};
        if (full != n) eval(n - S, last);
        steps<false>(0, full, out);
        if (full != n) Codec::template store<false>(out + (n - S), last[0]);
    }

    // Streamed body steps of a chain of two links, with both links' op
    // and leaf kind (Operand::code) compiled in: bias + ReLU, scale +
    // shift. The generic loop's two op choices per U steps cost
    // x * scale + shift 2-4% against MUL alone; this loop, eight steps per
    // iteration (512 bytes on AVX-512) and no prefetch (as tight as a
    // single op's, it keeps enough loads in flight), runs 1% faster than
    // MUL (docs/fusion.md). Runs steps [i, end) while P of them fit and
    // returns where it stopped.
    static constexpr std::size_t P = std::min<std::size_t>(8, 512 / (S * sizeof(T)));
    using PairLoop = std::size_t (*)(const ChainRun& self, std::size_t i, std::size_t end, T* out);
    // f32 only, one table generated over the chain ops (pair_loops): 3
    // forms of link 0 by 4 codes of link 1 per pair of ops, so 18 x 24 =
    // 432 loops per ISA for six ops, about 200 KB of code (docs/kernels.md,
    // "Chain kernels"); f64 chains take the generic loop.
    static constexpr bool kPairLoops = std::is_same_v<T, float>;
    static constexpr unsigned kCodes = 4 * kNumChainOps;
    PairLoop pair_loop = nullptr;  // set by chain() for streamed chains it fits

    // Link 0 never has acc_is_y (kernel_table.hpp). Its code here does for
    // a chain that starts from one value, s op x: x becomes the
    // accumulator and s the leaf applied from the left (same operands,
    // same order). So link 0 takes three forms per op: leaf loaded, leaf
    // one value, one value op x; first_index() numbers them.
    static constexpr unsigned kFirstForms = 3;
    static constexpr unsigned first_index(unsigned code) {
        return code / 4 * kFirstForms + ((code & 3) == 3 ? 2 : (code & 1));
    }
    static constexpr unsigned first_code(unsigned index) {
        return index / kFirstForms * 4 + (index % kFirstForms == 2 ? 3 : index % kFirstForms);
    }

    template <unsigned Code0, unsigned Code1>
    static std::size_t pair_steps(const ChainRun& self, std::size_t i, std::size_t end, T* out) {
        constexpr bool kFromValue = (Code0 & 2) != 0;  // s op x
        // Copies: the compiler cannot tell the streaming stores from
        // writes to self's members, and would read those again.
        const Operand a = kFromValue ? self.first : self.operand[0];
        const Operand b = self.operand[1];
        const T* const x = kFromValue ? self.operand[0].p : self.first.p;
        for (; i + P * S <= end; i += P * S) {
            V acc[P];
            for (std::size_t u = 0; u < P; ++u) acc[u] = Codec::load(x + i + u * S);
            apply_code<Code0>(acc, a, i);
            apply_code<Code1>(acc, b, i);
            for (std::size_t u = 0; u < P; ++u) Codec::template store<true>(out + i + u * S, acc[u]);
        }
        return i;
    }

    template <std::size_t... Pair>
    static constexpr std::array<PairLoop, sizeof...(Pair)> pair_loops(std::index_sequence<Pair...>) {
        return {{&pair_steps<first_code(Pair / kCodes), Pair % kCodes>...}};
    }

    // The pair loop for this chain, if one fits: two links, one of link
    // 0's operands read from memory.
    PairLoop pair_loop_for() const {
        if constexpr (kPairLoops) {
            constexpr std::size_t kLoops = kFirstForms * kNumChainOps * kCodes;
            static constexpr auto loops = pair_loops(std::make_index_sequence<kLoops>{});
            if (chain->num_links != 2 || (operand[0].code & 2) != 0) return nullptr;
            const unsigned code0 = operand[0].code, code1 = operand[1].code;
            if (!first.scalar) return loops[first_index(code0) * kCodes + code1];
            if (!operand[0].scalar) return loops[first_index(code0 | 3) * kCodes + code1];
        }
        return nullptr;
    }

    // Whole steps [i, end).
    template <bool NT>
    void steps(std::size_t i, std::size_t end, T* out) const {
        if constexpr (NT && kPairLoops) {
            if (pair_loop != nullptr && i + P * S <= end) i = pair_loop(*this, i, end, out);
        }
        for (; i + U * S <= end; i += U * S) {
            if constexpr (NT) prefetch(i);
            V acc[U];
            eval(i, acc);
            for (std::size_t u = 0; u < U; ++u) Codec::template store<NT>(out + i + u * S, acc[u]);
        }
        for (; i < end; i += S) {
            V acc[1];
            eval(i, acc);
            Codec::template store<NT>(out + i, acc[0]);
        }
    }

    // As walk, the body's stores aligned to a step from element head < S on
    // (the unaligned first and last steps are overlapping ordinary stores,
    // computed before the body): a long cached run gains more than the two
    // steps cost.
    void walk_aligned(std::size_t n, std::size_t head, T* out) const {
        const std::size_t end = head + (n - head) / S * S;
        V head_step[1], tail_step[1] = {};
        eval(0, head_step);
        if (end != n) eval(n - S, tail_step);
        steps<false>(head, end, out);
        Codec::template store<false>(out, head_step[0]);
        if (end != n) Codec::template store<false>(out + (n - S), tail_step[0]);
    }

    // Elements [from, from + count) of an n-element run (n >= S) into dst,
    // by whole steps; one that would pass n moves back to end at n.
    void edge(std::size_t n, std::size_t from, std::size_t count, T* dst) const {
        for (std::size_t j = 0; j < count; j += S) {
            const std::size_t at = std::min(from + j, n - S);
            V v[1];
            eval(at, v);
            T step[S];
            Codec::template store<false>(step, v[0]);
            std::memcpy(dst + j, step + (from + j - at), std::min(S, count - j) * sizeof(T));
        }
    }

    // Streams the whole output lines [head, end) of an n-element run (head:
    // the elements before out's first line boundary, n >= head + L). The
    // partial lines at either end: the first completes the line `carry`
    // holds when this run continues it (the line is then streamed whole),
    // the last is left in `carry` (ChainCarry). They are computed first:
    // after the body, where out is a leaf, their steps would load lines the
    // body has just streamed (into lanes edge() drops).
    void walk_lines(std::size_t n, std::size_t head, T* out, ChainCarry& carry) const {
        const std::size_t end = head + (n - head) / L * L;
        T head_part[L], tail_part[L];
        if (head != 0) edge(n, 0, head, head_part);
        if (end != n) edge(n, end, n - end, tail_part);
        steps<true>(head, end, out);
        auto* const at = reinterpret_cast<unsigned char*>(out);
        const std::size_t head_bytes = head * sizeof(T);
        if (head != 0 && carry.size + head_bytes == 64 && carry.at + carry.size == at) {
            std::memcpy(carry.bytes + carry.size, head_part, head_bytes);
            const T* line = reinterpret_cast<const T*>(carry.bytes);
            T* to = reinterpret_cast<T*>(carry.at);
            for (std::size_t k = 0; k < L; k += S) Codec::template store<true>(to + k, Codec::load(line + k));
            carry.size = 0;
        } else {
            if (carry.size != 0) kernels::flush(carry);
            if (head != 0) std::memcpy(out, head_part, head_bytes);
        }
        if (end != n) {
            carry.at = at + end * sizeof(T);
            carry.size = (n - end) * sizeof(T);
            std::memcpy(carry.bytes, tail_part, carry.size);
        }
    }

    // n < S elements, through zero-padded copies of the runs (the operands
    // point at them for this run only). Only the rows in use are filled:
    // zeroing all of them cost a streamed line's edges a tenth of its time
    // (docs/fusion.md).
    void walk_short(std::size_t n, T* out) {
        T buf[kMaxChainLinks + 1][S];
        const T* from[kMaxChainLinks + 1];
        const auto pad = [&](Operand& o, std::size_t k) {
            from[k] = o.p;
            if (o.scalar) return;
            std::memcpy(buf[k], o.p, n * sizeof(T));
            std::memset(buf[k] + n, 0, (S - n) * sizeof(T));
            o.p = buf[k];
        };
        pad(first, 0);
        for (std::size_t k = 0; k < chain->num_links; ++k) pad(operand[k], k + 1);
        V r[1];
        eval(0, r);
        T result[S];
        Codec::template store<false>(result, r[0]);
        std::memcpy(out, result, n * sizeof(T));
        first.p = from[0];
        for (std::size_t k = 0; k < chain->num_links; ++k) operand[k].p = from[k + 1];
    }
};

// ChainFn for the codec. Streams whole output lines; the caller fences
// when it asks for no fence.
// OpTuple: ChainOps<every family's ops>.
template <class Isa, class Codec, class OpTuple>
void chain(const Chain& c, const ChainCall& call) {
    using Run = ChainRun<Codec, OpTuple>;
    using T = typename Run::T;
    if (call.n == 0 || call.rows == 0) return;
    Run run;
    run.chain = &c;
    // Filled in place: a built-and-copied Operand cost a store-forwarding
    // stall per field, per call.
    const auto set = [&](typename Run::Operand& o, std::size_t leaf, unsigned code) {
        o.p = static_cast<const T*>(call.leaves[leaf]);
        o.scalar = call.kinds[leaf] == ChainLeaf::kScalar;
        o.code = code + (o.scalar ? 1u : 0u);
        if (o.scalar) o.splat = Codec::splat(o.p);
        o.row = call.rows > 1 ? static_cast<std::ptrdiff_t>(call.leaf_row_bytes[leaf]) /
                                    static_cast<std::ptrdiff_t>(sizeof(T))
                              : 0;
        if (call.kinds[leaf] == ChainLeaf::kStream) {
            run.run_of[run.num_runs] = &o;
            run.runs[run.num_runs++] = o.p;
        }
    };
    set(run.first, c.first, 0);
    for (std::size_t k = 0; k < c.num_links; ++k) {
        const ChainLink& link = c.link[k];
        set(run.operand[k], link.leaf, kChainIndex.of[link.op] * 4 + (link.acc_is_y ? 2u : 0u));
    }
    if (call.stores.stream) {
        run.pf = chain_prefetch();
        run.pair_loop = run.pair_loop_for();
    }
    ChainCarry none;
    none.size = 0;
    ChainCarry& carry = call.carry != nullptr ? *call.carry : none;
    auto* out = static_cast<unsigned char*>(call.out);
    for (std::size_t r = 0;;) {
        run.run(call.n, reinterpret_cast<T*>(out), call.stores.stream, carry);
        if (++r == call.rows) break;
        run.next_row();
        out += call.out_row_bytes;
    }
    if (none.size != 0) kernels::flush(none);
    if (call.stores.stream && call.stores.fence) Isa::fence();
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
