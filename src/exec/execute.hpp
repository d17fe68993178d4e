// Walks a plan's outer loops and calls its inner kernel. No allocation, no
// shape work: everything was decided by build_plan.
#pragma once

#include "plan/plan.hpp"

#include <cstddef>
#include <cstdint>

namespace bcast::exec {

// What the buffer check needs of a plan (or a fused plan): operand k < n
// reads user input input_order[k]; operand n is the output. Per operand its
// element size and the bytes [lo, hi) it touches from its pointer; per user
// input whether every read of it has the output's layout.
struct BufferLayout {
    std::size_t num_inputs;
    bool empty;  // nothing is read or written
    const std::size_t* input_order;
    const std::size_t* elem_size;
    const int64_t* lo_byte;
    const int64_t* hi_byte;
    const bool* same_layout_as_output;
};

// Refuses (INVALID_ARGUMENT) NULL pointers for a non-empty output, pointers
// not aligned to their element, strides that leave the address space, and
// any overlap between the output and an input other than exact in-place use.
void check_buffers(const BufferLayout& layout, const void* const* inputs, const void* output);
void check_buffers(const plan::Plan& plan, const void* const* inputs, const void* output);

// Runs the plan; buffers must have passed check_buffers.
void run(const plan::Plan& plan, const void* const* inputs, void* output) noexcept;

// The kernel calls run() makes, for the task split (tasks.cpp). ptr: the
// kernel operands' pointers (inputs in kernel order, then the output).
// call_run: the inner kernel over n elements (for a rows plan, its 1-D
// kernel over part of a row); call_rows: a rows plan's 2-D kernel over
// `rows` rows of n = inner_count. stream: the plan's stream or stream_split.
void call_run(const plan::Plan& plan, char* const* ptr, std::size_t n, bool stream) noexcept;
void call_rows(const plan::Plan& plan, char* const* ptr, std::size_t rows, bool stream) noexcept;

// The kernel operands' pointers of the first call.
void operand_pointers(const plan::Plan& plan, const void* const* inputs, void* output,
                      char** ptr) noexcept;

// Steps the odometer over the outer loops (index[0..outer_loops), innermost
// fastest) and ptr to the next kernel call; false after the last.
inline bool next_call(const plan::Plan& p, int64_t* index, char** ptr) noexcept {
    const std::size_t out = p.num_inputs;
    for (std::size_t d = p.outer_loops; d-- > 0;) {
        const int64_t extent = p.nest.loops[d].extent;
        if (++index[d] < extent) {
            for (std::size_t o = 0; o <= out; ++o) ptr[o] += p.byte_stride[d][o];
            return true;
        }
        index[d] = 0;
        for (std::size_t o = 0; o <= out; ++o) ptr[o] -= p.byte_stride[d][o] * (extent - 1);
    }
    return false;
}

}  // namespace bcast::exec
