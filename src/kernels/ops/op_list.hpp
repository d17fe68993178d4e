// A family's ops as a list of types (ops/<family>.hpp: `<family>_ops`), the
// one place an op is listed besides its definition: the family's kernel
// lookup finds the op of an opcode in it, and the chain kernels take their
// ops from all families' lists (simd/simd_chain.hpp: the op table's chain
// ops, found here by opcode).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::ops {

template <class... Ops>
struct OpList {
    static constexpr std::size_t kSize = sizeof...(Ops);
};

// An entry that is no op to compute (COPY, SELECT: ops/data_movement.hpp)
// derives from Moves and says which of the builder's functions has its
// kernels.
struct Moves {};

template <class Tables, class Op>
const OpKernels* kernels_of(bcast_dtype dt) {
    if constexpr (std::is_base_of_v<Moves, Op>) {
        return Op::template kernels<Tables>(dt);
    } else {
        return Tables::template binary<Op>(dt);
    }
}

// The kernels that Tables builds for dt of the list's entry whose kernel op
// is op; nullptr if none is. A family's lookup (family_kernels.cpp.in).
template <class Tables, class... Ops>
const OpKernels* find_kernels(OpList<Ops...> /*list*/, bcast_opcode op, bcast_dtype dt) {
    const OpKernels* kernels = nullptr;
    (void)((Ops::kOp == op && ((kernels = kernels_of<Tables, Ops>(dt)), true)) || ...);
    return kernels;
}

// The lists one after the other.
template <class... Lists>
struct ConcatLists {
    using type = OpList<>;
};
template <class... A, class... B, class... Rest>
struct ConcatLists<OpList<A...>, OpList<B...>, Rest...> : ConcatLists<OpList<A..., B...>, Rest...> {};
template <class... A>
struct ConcatLists<OpList<A...>> {
    using type = OpList<A...>;
};
template <class... Lists>
using Concat = typename ConcatLists<Lists...>::type;

// Where the op of kernel op `op` is in the list; its size if nowhere.
template <class... Ops>
constexpr std::size_t position_of(bcast_opcode op, OpList<Ops...> /*list*/) {
    std::size_t at = 0;
    (void)((Ops::kOp == op || (++at, false)) || ...);
    return at;
}

// The op of kernel op Op in List.
template <bcast_opcode Op, class List>
struct FindOp;
template <bcast_opcode Op, class... Ops>
struct FindOp<Op, OpList<Ops...>> {
    static constexpr std::size_t kAt = position_of(Op, OpList<Ops...>{});
    static_assert(kAt < sizeof...(Ops), "no op definition has this kernel op (ops/<family>.hpp: <family>_ops)");
    using type = std::tuple_element_t<kAt < sizeof...(Ops) ? kAt : 0, std::tuple<Ops...>>;
};
template <bcast_opcode Op, class List>
using OpOf = typename FindOp<Op, List>::type;

}  // namespace bcast::kernels::BCAST_KERNEL_ISA::ops
