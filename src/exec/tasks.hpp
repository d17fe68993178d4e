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
#include <cstdint>

namespace bcast::exec {

// Into how many tasks the plan splits, at most max_tasks (>= 1): 1 when the
// op moves too little for a second thread to pay (tuning in tasks.cpp).
std::size_t task_count(const plan::Plan& plan, std::size_t max_tasks) noexcept;

// Runs task `task` of `count` (task < count; any count >= 1, also more than
// task_count gives: surplus tasks run nothing). Buffers must have passed
// check_buffers.
void run_task(const plan::Plan& plan, const void* const* inputs, void* output, std::size_t task,
              std::size_t count) noexcept;

// The pieces fused expressions split by too (fuse/fused_execute.cpp).
constexpr uint64_t kLineBytes = 64;

// Cost per element of a kernel op relative to a plain + (what the split's
// threshold weighs: 4 for division-like ops, 16 for transcendentals).
uint64_t op_weight(bcast_opcode kernel_op) noexcept;

// Into how many tasks `total` elements of `work_per_elem` weighted bytes
// each split, with range ends on multiples of `grain`: 1 below about 512 KiB.
std::size_t tasks_for_work(uint64_t total, uint64_t work_per_elem, uint64_t grain,
                           std::size_t max_tasks) noexcept;

// Where task k of count starts over [0, total) (k == count: the end): the
// even share, moved back to `head` plus a multiple of `grain`.
uint64_t task_boundary(uint64_t total, std::size_t k, std::size_t count, uint64_t head,
                       uint64_t grain) noexcept;

// Whether the output's addresses follow the nest's flat order one element
// apart (the output being operand `out`).
bool flat_output_contiguous(const plan::LoopNest& nest, std::size_t out) noexcept;

// Elements of elem_size bytes from output to its next 64-byte line (0 on one).
uint64_t elems_to_line(const void* output, std::size_t elem_size) noexcept;

}  // namespace bcast::exec
