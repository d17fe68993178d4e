// Broadcast rules: input shapes -> output shape plus where each input axis
// lands in the output, or a precise bcast::Error naming the rule, the axis and
// both extents. No strides and no data here; src/plan turns a Resolution into
// loops.
#pragma once

#include "core/shape.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace bcast::rules {

// Where one input sits in the output: out_axis[i] is the output axis that
// input axis i runs along, or -1 when the rule drops that axis (only axes of
// extent 1 are ever dropped). Several input axes may share an output axis
// (EXPLICIT with repeated entries). An input axis of extent 1 broadcasts;
// any other extent equals the output extent on its axis.
struct Placement {
    std::array<int, kMaxRank> out_axis{};
};

struct Resolution {
    Shape out;
    std::size_t num_inputs = 0;
    std::array<Placement, kMaxInputs> inputs{};
};

// Element-wise rules (bcast_infer_shape, bcast_op_plan). `primary` is the
// operand that the others go into for UNIDIRECTIONAL, PDPD and ONNX_LEGACY
// (0 normally; SELECT passes 1, its x). Throws Error: INVALID_ARGUMENT for an
// unknown rule, a bad axis, a rank the rule does not take or a wrong input
// count; INCOMPATIBLE_SHAPES when the rule refuses the shapes.
Resolution resolve(bcast_rule rule, int64_t axis, const Shape* inputs, std::size_t num_inputs,
                   std::size_t primary = 0);

// Broadcast-to-target (bcast_infer_expand_shape, bcast_op_plan_to): one data
// input; the Resolution has num_inputs == 1.
Resolution resolve_expand(bcast_expand_mode mode, const Shape& data, const Shape& target,
                          const int64_t* axes_mapping, std::size_t axes_count, int64_t axis);

}  // namespace bcast::rules
