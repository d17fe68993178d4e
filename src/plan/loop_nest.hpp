// Aligned operand strides -> a coalesced loop nest. Pure shape/stride work:
// no rules, no kernels.
#pragma once

#include "core/shape.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace bcast::plan {

// Inputs then the output (always last).
constexpr std::size_t kMaxOperands = kMaxInputs + 1;

using OperandStrides = std::array<int64_t, kMaxOperands>;

struct Loop {
    int64_t extent = 1;
    OperandStrides stride{};  // element strides, one per operand
};

// Strides of every operand along every output axis (0 where it broadcasts).
struct AlignedStrides {
    std::size_t num_operands = 0;
    std::array<OperandStrides, kMaxRank> axis{};  // axis[k][operand]
};

struct LoopNest {
    std::size_t num_operands = 0;
    std::size_t num_loops = 0;     // >= 1 unless empty; innermost is last
    bool empty = false;            // some output extent is 0: nothing to do
    std::array<Loop, kMaxRank> loops{};
};

// Drops extent-1 axes, orders the rest so the output's largest stride is
// outermost, then merges neighbours wherever every operand's strides allow it
// (stride-0 runs merge with stride-0 runs, contiguous with contiguous). A
// rank-0 or all-ones shape gives one loop of extent 1.
LoopNest coalesce(const Shape& out, const AlignedStrides& strides);

}  // namespace bcast::plan
