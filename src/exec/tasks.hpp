// One execute split into tasks that callers run on their own threads: task
// i of n writes a disjoint range of the output, and the n tasks together
// write exactly what a whole run writes, bit for bit. For every plan kind:
// the split is over the flat order that exec::walk steps through.
//
// Range ends fall on multiples of a grain: a cache line of output elements
// (no two tasks write one line of a contiguous output, so no false sharing
// and no streaming store into a line another task writes), times the
// plan's task period where the output's address allows (short lines in
// blocks: each task starts at a line's start).
// Where a range starts or ends inside a call, the line runner runs the part.
#pragma once

#include "exec/check_buffers.hpp"
#include "exec/fused_execute.hpp"
#include "plan/layout.hpp"

#include <cstddef>
#include <cstdint>

namespace bcast::exec {

// Into how many tasks the plan splits, at most max_tasks (>= 1): 1 when it
// moves too little for a second thread to pay (tuning in tasks.cpp).
std::size_t task_count(const plan::Layout& plan, std::size_t max_tasks) noexcept;

// The flat range [begin, end) of task `task` of `count` (any count >= 1,
// also more than task_count gives); false where it is empty.
bool task_range(const plan::Layout& plan, const void* output, std::size_t task, std::size_t count,
                uint64_t& begin, uint64_t& end) noexcept;

// Runs task `task` of `count` of a plan with its run_range
// (fused_execute.hpp). Several tasks run side by side, as a rule: their
// stores decide streaming on the split threshold (stream_threshold.hpp).
// Buffers must have passed check_buffers.
template <class Plan>
void run_task(const Plan& p, const void* const* inputs, void* output, std::size_t task,
              std::size_t count) noexcept {
    uint64_t begin = 0, end = 0;
    if (task < count && task_range(p, output, task, count, begin, end)) {
        run_range(p, inputs, output, begin, end, count > 1 ? p.stream_split : p.stream);
    }
}

}  // namespace bcast::exec
