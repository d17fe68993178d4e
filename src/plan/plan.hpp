// A plan: everything bcast_op_execute needs, computed once by bcast_op_plan.
// Holds the output shape, the coalesced loop nest with byte strides in the
// order the kernel sees the operands, the inner kernel kind and the resolved
// kernel pointers, plus what the overlap check needs.
#pragma once

#include "core/shape.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/tuning.hpp"
#include "plan/loop_nest.hpp"
#include "rules/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace bcast::plan {

enum class InnerKind { Empty, VV, VS, SV, PeriodicY, PeriodicX, Copy, Fill, Strided };

const char* inner_kind_name(InnerKind kind, std::size_t num_inputs);

// Inner extents up to this length, repeating along the next loop, run as one
// periodic call instead of one call per short row (the kernels' limit).
constexpr int64_t kMaxPeriod = static_cast<int64_t>(kernels::tuning::kMaxShortPeriod);

struct Plan {
    bcast_opcode opcode = 0;
    // What the kernels compute: the base op of a reversed op (RSUB: SUB), or
    // the exchanged op where the plan exchanged the operands (LESS: GREATER).
    bcast_opcode kernel_op = 0;
    bcast_dtype dtype = 0;
    std::size_t num_inputs = 0;
    Shape out;

    // Kernel operand k is user input input_order[k]; the output is operand
    // num_inputs. Reversed ops swap inputs 0 and 1 here, and so do pairs
    // whose left-broadcast forms run with the operands exchanged.
    std::array<std::size_t, kMaxInputs> input_order{};
    std::array<std::size_t, kMaxOperands> elem_size{};  // per kernel operand

    LoopNest nest;                                     // element strides
    std::array<OperandStrides, kMaxRank> byte_stride{};  // per loop, per operand
    std::size_t outer_loops = 0;   // loops walked by the executor
    int64_t inner_count = 0;       // elements per kernel call
    int64_t period = 0;            // PeriodicX / PeriodicY only
    int64_t rows = 0;              // > 0: VV/VS/SV run as one 2-D call over
                                   // the last two loops (rows x inner_count)
    InnerKind kind = InnerKind::Empty;
    // Non-temporal stores for the whole op: the bytes it touches exceed
    // kernels::stream_threshold_bytes() (see kernels/kernel_table.hpp).
    bool stream = false;
    // The same for the op run as more than one task
    // (kernels::split_stream_threshold_bytes()).
    bool stream_split = false;
    kernels::OpKernels kernels{};
    const char* isa = "";

    // Overlap check: byte range each operand touches relative to its base
    // pointer, and whether a user input has exactly the output's layout (the
    // only overlap allowed: in place).
    std::array<int64_t, kMaxOperands> lo_byte{}, hi_byte{};  // [lo, hi)
    std::array<bool, kMaxInputs> same_layout_as_output{};    // by user input
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
