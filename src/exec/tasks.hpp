// One execute split into tasks that callers run on their own threads: task
// i of n writes a disjoint range of the output, and the n tasks together
// write exactly what exec::run writes, bit for bit.
//
// The split is over the plan's flat iteration order (the outer loops'
// odometer, then the elements of each kernel call). Range ends fall on
// multiples of a grain: a cache line of output elements (no two tasks write
// one line of a contiguous output, so no false sharing and no streaming
// store into a line another task writes), times the pattern's period for a
// periodic plan (each task starts at phase 0). Where a range starts or ends
// inside a kernel call, the task calls the same kernels over the part.
#pragma once

#include "plan/plan.hpp"

#include <cstddef>

namespace bcast::exec {

// Into how many tasks the plan splits, at most max_tasks (>= 1): 1 when the
// op moves too little for a second thread to pay (tuning in tasks.cpp).
std::size_t task_count(const plan::Plan& plan, std::size_t max_tasks) noexcept;

// Runs task `task` of `count` (task < count; any count >= 1, also more than
// task_count gives: surplus tasks run nothing). Buffers must have passed
// check_buffers.
void run_task(const plan::Plan& plan, const void* const* inputs, void* output, std::size_t task,
              std::size_t count) noexcept;

}  // namespace bcast::exec
