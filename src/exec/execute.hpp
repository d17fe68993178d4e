// Walks a plan's outer loops and calls its inner kernel. No allocation, no
// shape work: everything was decided by build_plan.
#pragma once

#include "plan/plan.hpp"

namespace bcast::exec {

// Refuses (INVALID_ARGUMENT) NULL pointers for a non-empty output, and any
// overlap between the output and an input other than exact in-place use.
void check_buffers(const plan::Plan& plan, const void* const* inputs, const void* output);

// Runs the plan; buffers must have passed check_buffers.
void run(const plan::Plan& plan, const void* const* inputs, void* output) noexcept;

}  // namespace bcast::exec
