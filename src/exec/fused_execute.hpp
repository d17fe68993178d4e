// A fused plan's line runner: the outer loops as exec::walk steps them,
// each inner run in blocks of plan.block elements (or whole, for a chain
// that gathers nothing), or blocks of whole lines where the plan has
// block_rows (each step's 2-D kernel over the block's rows, else its kernel
// row by row). Per block the plan's chain kernel runs the whole
// chain where it has one; otherwise every step runs its op's kernel (vv,
// vs, sv, or the strided/n-ary one) on the leaves in place (contiguous or
// constant) or gathered, and on earlier steps' results in scratch slots on
// this thread's stack; the last step writes the output, with the plan's
// streaming decision: a line streams its whole cache lines unfenced, and
// each run or task fences once at its end. No allocation.
#pragma once

#include "plan/fused_plan.hpp"

#include <cstdint>

namespace bcast::exec {

// Runs the plan, or the flat range [begin, end) of it with streaming stores
// or not (tasks.hpp); buffers must have passed check_buffers (execute.hpp).
void run(const plan::FusedPlan& plan, const void* const* inputs, void* output) noexcept;
void run_range(const plan::FusedPlan& plan, const void* const* inputs, void* output, uint64_t begin,
               uint64_t end, bool stream) noexcept;

}  // namespace bcast::exec
