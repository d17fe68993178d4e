// ONNX_LEGACY (ONNX opset < 7, broadcast=1, optional axis) as Caffe2 ran it,
// which is what exported models rely on: a one-element B always fits;
// otherwise B, minus its leading and trailing 1s, must equal A's dims exactly
// at `axis`. Output = A. Status policy as in pdpd_rule.cpp.
#include "rules/rule_util.hpp"

namespace bcast::rules::detail {
namespace {

Placement fit_legacy(const Shape& a, const Shape& b, int64_t axis) {
    if (b.rank > a.rank)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             "onnx_legacy: B's rank " + std::to_string(b.rank) + " exceeds A's rank " +
                 std::to_string(a.rank) + " (" + pair_text(a, b) + ")");
    // One element: shared by every output element, whatever the axis says;
    // all its axes are dropped (rank_out 0 places every axis at -1).
    if (all_ones(b)) return offset_placement(b.rank, 0, 0);
    const std::size_t room = a.rank - b.rank;  // axis range uses B's full rank
    const std::size_t start = axis == -1 ? room : static_cast<std::size_t>(axis);
    if (start > room)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             "onnx_legacy: axis " + std::to_string(start) + " is outside [0, " +
                 std::to_string(room) + "] (" + pair_text(a, b) + ")");
    std::size_t lo = 0, hi = b.rank;  // B's dims without leading/trailing 1s
    while (b[lo] == 1) ++lo;          // terminates: B is not all ones
    while (b[hi - 1] == 1) --hi;
    for (std::size_t i = lo; i < hi; ++i) {
        if (b[i] != a[start + i])
            refuse_dim("onnx_legacy", start + i, a[start + i], b[i], pair_text(a, b),
                       "B must equal A exactly at axis " + std::to_string(start) +
                           " (only B's leading and trailing 1s are ignored)");
    }
    return offset_placement(b.rank, static_cast<std::ptrdiff_t>(start), a.rank);
}

}  // namespace

Resolution resolve_onnx_legacy(int64_t axis, const Shape* inputs, std::size_t n,
                               std::size_t primary) {
    check_axis_argument("onnx_legacy", axis);
    return fit_into_primary(inputs, n, primary, axis, fit_legacy);
}

}  // namespace bcast::rules::detail
