// PDPD (OpenVINO auto_broadcast="pdpd", Paddle): each other input B goes into
// the primary A at `axis`; only B broadcasts and the output is A.
//
// Status policy (shared with onnx_legacy_rule.cpp): an axis that no shapes
// could make valid (< -1) is INVALID_ARGUMENT; a B that does not fit A at a
// valid-looking axis (rank too high, runs past A's end, extent mismatch) is
// INCOMPATIBLE_SHAPES, because it depends on the shapes.
#include "rules/rule_util.hpp"

namespace bcast::rules::detail {
namespace {

// B's rank without its trailing 1s: the spec ignores them for the
// subsequence check (decisions.md: (2,3) + (3,1) at axis 1 is accepted,
// unlike OpenVINO's shape inference).
std::size_t trimmed_rank(const Shape& b) {
    std::size_t r = b.rank;
    while (r > 0 && b[r - 1] == 1) --r;
    return r;
}

Placement fit_pdpd(const Shape& a, const Shape& b, int64_t axis) {
    if (b.rank > a.rank)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             "pdpd: B's rank " + std::to_string(b.rank) + " exceeds A's rank " +
                 std::to_string(a.rank) + " (" + pair_text(a, b) + ")");
    // The default axis uses B's full rank, trailing 1s included.
    const std::size_t start = axis == -1 ? a.rank - b.rank : static_cast<std::size_t>(axis);
    const std::size_t used = trimmed_rank(b);
    if (start > a.rank || used > a.rank - start)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             "pdpd: B does not fit into A at axis " + std::to_string(start) + " (" +
                 pair_text(a, b) + "; B's trailing 1s ignored)");
    for (std::size_t i = 0; i < used; ++i) {
        // A 1 in B broadcasts, even against a 0 in A (OpenVINO refuses 1 vs 0).
        if (b[i] != 1 && b[i] != a[start + i])
            refuse_dim("pdpd", start + i, a[start + i], b[i], pair_text(a, b),
                       "B must be 1 or equal to A at axis " + std::to_string(start) +
                           ", only B broadcasts");
    }
    // The trimmed trailing 1s are dropped (-1): extent 1, nothing to place.
    Placement p = offset_placement(used, static_cast<std::ptrdiff_t>(start), a.rank);
    for (std::size_t i = used; i < b.rank; ++i) p.out_axis[i] = -1;
    return p;
}

}  // namespace

Resolution resolve_pdpd(int64_t axis, const Shape* inputs, std::size_t n, std::size_t primary) {
    check_axis_argument("pdpd", axis);
    return fit_into_primary(inputs, n, primary, axis, fit_pdpd);
}

}  // namespace bcast::rules::detail
