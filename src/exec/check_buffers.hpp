// The buffer check every plan runs through before it executes.
#pragma once

#include "plan/layout.hpp"

namespace bcast::exec {

// Refuses (INVALID_ARGUMENT) NULL pointers for a non-empty output, pointers
// not aligned to their element, strides that leave the address space, and
// any overlap between the output and an input other than exact in-place use.
void check_buffers(const plan::Layout& plan, const void* const* inputs, const void* output);

}  // namespace bcast::exec
