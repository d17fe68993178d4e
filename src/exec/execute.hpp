// The buffer check every plan runs through, and a single op's line runner:
// its kernels over each call of the walk (exec/walk.hpp). No allocation, no
// shape work: everything was decided by build_plan.
#pragma once

#include "plan/plan.hpp"

#include <cstddef>
#include <cstdint>

namespace bcast::exec {

// Refuses (INVALID_ARGUMENT) NULL pointers for a non-empty output, pointers
// not aligned to their element, strides that leave the address space, and
// any overlap between the output and an input other than exact in-place use.
void check_buffers(const plan::Layout& plan, const void* const* inputs, const void* output);

// Runs the plan, or the flat range [begin, end) of it with streaming stores
// or not (tasks.hpp); buffers must have passed check_buffers.
void run(const plan::Plan& plan, const void* const* inputs, void* output) noexcept;
void run_range(const plan::Plan& plan, const void* const* inputs, void* output, uint64_t begin,
               uint64_t end, bool stream) noexcept;

}  // namespace bcast::exec
