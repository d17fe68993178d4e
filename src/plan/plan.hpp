// A single op's plan: everything bcast_op_execute needs, computed once by
// bcast_op_plan. The layout every plan has (plan/layout.hpp), plus the
// op's inner kernel kind and the resolved kernel pointers.
#pragma once

#include "core/shape.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/tuning.hpp"
#include "plan/fused_plan.hpp"
#include "plan/layout.hpp"
#include "rules/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace bcast::plan {

enum class InnerKind { Empty, VV, VS, SV, PeriodicY, PeriodicX, Copy, Fill, Strided };

const char* inner_kind_name(InnerKind kind, std::size_t num_inputs);

// Inner extents up to this length, repeating along the next loop, run as one
// periodic call instead of one call per short row (the kernels' limit).
constexpr int64_t kMaxPeriod = static_cast<int64_t>(kernels::tuning::kMaxShortPeriod);

// Kernel operand k reads user input input_order[k]: reversed ops swap
// inputs 0 and 1 there, and so do pairs whose left-broadcast forms run with
// the operands exchanged.
struct Plan : Layout {
    bcast_opcode opcode = 0;
    // What the kernels compute: the base op of a reversed op (RSUB: SUB), or
    // the exchanged op where the plan exchanged the operands (LESS: GREATER).
    bcast_opcode kernel_op = 0;
    bcast_dtype dtype = 0;
    int64_t inner_count = 0;       // elements per kernel call
    int64_t period = 0;            // PeriodicX / PeriodicY only
    int64_t rows = 0;              // > 0: VV/VS/SV run as one 2-D call over
                                   // the last two loops (rows x inner_count)
    InnerKind kind = InnerKind::Empty;
    kernels::OpKernels kernels{};
    // A quantized op is the one-node expression dequantize, op, quantize:
    // that expression's plan runs it, and the layout above is that plan's
    // (handles/operator.cpp).
    std::unique_ptr<const FusedPlan> quantized;
};

struct PlanRequest {
    bcast_opcode opcode;
    bcast_dtype dtype;
    std::size_t num_inputs;
    const Shape* inputs;            // user order
    const int64_t* const* strides;  // NULL or per input NULL = contiguous
    const int64_t* out_strides;     // NULL = contiguous
};

// Builds the plan from a rule resolution. Throws Error (INVALID_ARGUMENT for
// self-overlapping output strides, SIZE_OVERFLOW for sizes or byte offsets
// that do not fit, UNSUPPORTED when no kernel exists).
Plan build_plan(const PlanRequest& request, const rules::Resolution& resolution);

// The op and its plan (NULL: not planned) as JSON, for bcast_op_describe.
std::string describe_json(bcast_opcode opcode, bcast_dtype dtype, bcast_rule rule, int64_t axis,
                          const Plan* plan);

}  // namespace bcast::plan
