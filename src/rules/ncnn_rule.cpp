// NCNN: ncnn BinaryOp's alignment (ncnn notes 3.2, numpy order), then the
// usual equal-or-1 check per axis, which ncnn itself skips (it writes garbage
// or reads out of bounds there).
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::detail {
namespace {

constexpr std::size_t kNcnnMaxRank = 4;

// The output axis where ncnn puts the first axis of the lower-rank operand x
// (y has the output rank). The lower-rank operand sits on the OUTER axes,
// except a 1-D x that differs from y's outermost extent, which goes innermost.
// A rank-0 x (ncnn's scalar) has no axes and fits anything; equal ranks: 0.
std::size_t ncnn_start(const Shape& x, const Shape& y) {
    if (x.rank == 1 && x[0] != y[0]) return y.rank - 1;
    return 0;
}

Shape aligned(const Shape& s, std::size_t start, std::size_t rank) {
    Shape out;
    out.rank = rank;
    for (std::size_t a = 0; a < rank; ++a) out[a] = 1;
    for (std::size_t i = 0; i < s.rank; ++i) out[start + i] = s[i];
    return out;
}

void check_ranks(const Shape* inputs, std::size_t n) {
    if (n != 2)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             "ncnn: takes exactly 2 inputs, got " + std::to_string(n));
    for (std::size_t j = 0; j < n; ++j)
        if (inputs[j].rank > kNcnnMaxRank)
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "ncnn: input " + std::to_string(j) + " has rank " +
                     std::to_string(inputs[j].rank) + "; ncnn's maximum rank is 4");
}

}  // namespace

Resolution resolve_ncnn(const Shape* inputs, std::size_t n) {
    check_ranks(inputs, n);
    const Shape& a = inputs[0];
    const Shape& b = inputs[1];
    const std::size_t rank = std::max(a.rank, b.rank);
    // The rule is symmetric: whichever operand has the lower rank moves.
    const std::size_t start_a = a.rank < b.rank ? ncnn_start(a, b) : 0;
    const std::size_t start_b = b.rank < a.rank ? ncnn_start(b, a) : 0;
    const Shape xa = aligned(a, start_a, rank);
    const Shape xb = aligned(b, start_b, rank);
    Resolution r;
    r.num_inputs = 2;
    r.out.rank = rank;
    for (std::size_t i = 0; i < rank; ++i)
        if (!merge_dim(xa[i], xb[i], &r.out[i]))
            refuse_dim("ncnn", i, xa[i], xb[i], pair_text(a, b),
                       "ncnn aligns them as " + to_string(xa) + " and " + to_string(xb));
    r.inputs[0] = offset_placement(a.rank, static_cast<std::ptrdiff_t>(start_a), rank);
    r.inputs[1] = offset_placement(b.rank, static_cast<std::ptrdiff_t>(start_b), rank);
    return r;
}

}  // namespace bcast::rules::detail
