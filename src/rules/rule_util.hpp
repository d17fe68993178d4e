// Private to src/rules: the helpers every rule shares (numpy dimension merge,
// placements, refusal messages) and each rule family's entry point, so that
// rules.cpp stays a dispatcher and no rule re-implements another's pieces.
#pragma once

#include "core/error.hpp"
#include "rules/rules.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace bcast::rules::detail {

// numpy's merge of two aligned extents: equal, or one of them is 1 (so 0 vs 1
// gives 0). Returns false when they conflict.
bool merge_dim(int64_t a, int64_t b, int64_t* out);

// Input axis i runs along output axis start + i; axes that land outside
// [0, rank_out) get -1 (callers only let extent-1 axes land there).
Placement offset_placement(std::size_t rank_in, std::ptrdiff_t start, std::size_t rank_out);

// numpy alignment: the input's last axis on the output's last axis.
Placement right_aligned(std::size_t rank_in, std::size_t rank_out);

// Every extent is 1 (so exactly one element); true for rank 0.
bool all_ones(const Shape& s);

// "shapes (2,3) and (4)".
std::string pair_text(const Shape& a, const Shape& b);

// "<who>: cannot broadcast dimension <axis>: <x> vs <y> (<shapes>)[; <hint>]".
// x and y are listed in the same order as the shapes in `shapes`.
[[noreturn]] void refuse_dim(const std::string& who, std::size_t axis, int64_t x, int64_t y,
                             const std::string& shapes, const std::string& hint = {});
// The same with the extents as text ("N", "2..8"; partial shapes).
[[noreturn]] void refuse_dim(const std::string& who, std::size_t axis, const std::string& x,
                             const std::string& y, const std::string& shapes,
                             const std::string& hint = {});

// The first output axis where `other`, right-aligned, does not broadcast one
// way into `into` (other's extent must be 1 or equal), or -1 if it fits.
// rank(other) <= rank(into) is the caller's check.
std::ptrdiff_t first_misfit_into(const Shape& into, const Shape& other);

// Rejects the axis arguments no shape can make valid: only -1 (the default)
// may be negative.
void check_axis_argument(const std::string& who, int64_t axis);

// EXPLICIT's axes_mapping[i]: inside the target's rank and not below the
// entry before it (INVALID_ARGUMENT otherwise). target_text() names the
// target in the message; it is only called on a refusal.
[[noreturn]] void refuse_mapping_entry(const std::string& who, const int64_t* axes, std::size_t i,
                                       std::size_t target_rank, const std::string& target_text);
template <class TargetText>
void check_mapping_entry(const std::string& who, const int64_t* axes, std::size_t i,
                         std::size_t target_rank, TargetText target_text) {
    if (axes[i] < 0 || axes[i] >= static_cast<int64_t>(target_rank) ||
        (i > 0 && axes[i] < axes[i - 1]))
        refuse_mapping_entry(who, axes, i, target_rank, target_text());
}

// Multidirectional numpy merge of n shapes (NUMPY, Expand BIDIRECTIONAL);
// `who` names the rule in refusals.
Resolution numpy_merge(const std::string& who, const Shape* inputs, std::size_t n);

// Rules where every other input goes into the primary one (output = primary):
// `fit` checks one other input and returns its placement.
using FitFn = Placement (*)(const Shape& primary, const Shape& other, int64_t axis);
Resolution fit_into_primary(const Shape* inputs, std::size_t n, std::size_t primary,
                            int64_t axis, FitFn fit);

// Rule families (inputs already validated by resolve()).
Resolution resolve_none(const Shape* inputs, std::size_t n);
Resolution resolve_unidirectional(const Shape* inputs, std::size_t n, std::size_t primary);
Resolution resolve_pdpd(int64_t axis, const Shape* inputs, std::size_t n, std::size_t primary);
Resolution resolve_onnx_legacy(int64_t axis, const Shape* inputs, std::size_t n,
                               std::size_t primary);
Resolution resolve_ncnn(const Shape* inputs, std::size_t n);

}  // namespace bcast::rules::detail
