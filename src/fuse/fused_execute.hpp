// Runs a planned expression: the outer loops as a single op's executor walks
// them, each inner run in blocks of plan.block elements (or whole, for a
// chain that gathers nothing). Per block the plan's chain kernel runs the
// whole chain where it has one; otherwise every step runs its op's kernel
// (vv, vs, sv, or the strided/n-ary one) on the leaves in place (contiguous
// or constant) or gathered, and on earlier steps' results in scratch slots
// on this thread's stack; the last step writes the output, with the plan's
// streaming decision: a line streams its whole cache lines unfenced, and
// each run or task fences once at its end. No allocation.
#pragma once

#include "exec/execute.hpp"
#include "fuse/fused_plan.hpp"

namespace bcast::fuse {

// The buffer check's view of the plan (exec::check_buffers).
exec::BufferLayout buffer_layout(const FusedPlan& plan);

// Runs the plan; buffers must have passed exec::check_buffers.
void run(const FusedPlan& plan, const void* const* inputs, void* output) noexcept;

// Tasks as for a single op (exec/tasks.hpp): task i of n writes a disjoint
// range of the flat order, cut at output lines; together they write what
// run writes.
std::size_t task_count(const FusedPlan& plan, std::size_t max_tasks) noexcept;
void run_task(const FusedPlan& plan, const void* const* inputs, void* output, std::size_t task,
              std::size_t count) noexcept;

}  // namespace bcast::fuse
