// NONE, NUMPY (N inputs) and UNIDIRECTIONAL: the right-aligned family.
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::detail {

Resolution resolve_none(const Shape* inputs, std::size_t n) {
    const Shape& first = inputs[0];
    for (std::size_t j = 1; j < n; ++j) {
        const Shape& s = inputs[j];
        // No rank extension: () vs (1) is refused like (2,3) vs (1,2,3).
        if (s.rank != first.rank)
            fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
                 "none: ranks differ: " + std::to_string(first.rank) + " vs " +
                     std::to_string(s.rank) + " (" + pair_text(first, s) +
                     "); rule none needs identical shapes");
        for (std::size_t i = 0; i < s.rank; ++i)
            if (s[i] != first[i])
                refuse_dim("none", i, first[i], s[i], pair_text(first, s),
                           "rule none needs identical shapes");
    }
    Resolution r;
    r.out = first;
    r.num_inputs = n;
    for (std::size_t j = 0; j < n; ++j) r.inputs[j] = offset_placement(first.rank, 0, first.rank);
    return r;
}

Resolution numpy_merge(const std::string& who, const Shape* inputs, std::size_t n) {
    Resolution r;
    r.num_inputs = n;
    for (std::size_t j = 0; j < n; ++j) r.out.rank = std::max(r.out.rank, inputs[j].rank);
    // owner[a]: the first input with a non-1 extent on output axis a, so a
    // conflict names the two inputs that actually disagree.
    constexpr std::size_t kNobody = kMaxInputs;
    std::array<std::size_t, kMaxRank> owner{};
    for (std::size_t a = 0; a < r.out.rank; ++a) {
        r.out[a] = 1;
        owner[a] = kNobody;
    }
    for (std::size_t j = 0; j < n; ++j) {
        const Shape& s = inputs[j];
        const std::size_t lead = r.out.rank - s.rank;
        for (std::size_t i = 0; i < s.rank; ++i) {
            const std::size_t a = lead + i;
            if (!merge_dim(r.out[a], s[i], &r.out[a]))
                refuse_dim(who, a, r.out[a], s[i], pair_text(inputs[owner[a]], s));
            if (s[i] != 1 && owner[a] == kNobody) owner[a] = j;
        }
        r.inputs[j] = right_aligned(s.rank, r.out.rank);
    }
    return r;
}

Placement fit_unidirectional(const Shape& primary, const Shape& other, int64_t) {
    if (other.rank > primary.rank)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             "unidirectional: rank " + std::to_string(other.rank) +
                 " exceeds the primary input's rank " + std::to_string(primary.rank) + " (" +
                 pair_text(primary, other) + ")");
    const std::ptrdiff_t bad = first_misfit_into(primary, other);
    if (bad >= 0) {
        const std::size_t a = static_cast<std::size_t>(bad);
        refuse_dim("unidirectional", a, primary[a], other[a - (primary.rank - other.rank)],
                   pair_text(primary, other),
                   "only the other inputs broadcast; the output is the primary input's shape");
    }
    return right_aligned(other.rank, primary.rank);
}

Resolution resolve_unidirectional(const Shape* inputs, std::size_t n, std::size_t primary) {
    return fit_into_primary(inputs, n, primary, -1, fit_unidirectional);
}

}  // namespace bcast::rules::detail
