// Operand layouts on the output's axes: what a plan holds for the walk, the
// task split and the buffer check (Layout), the one function that lays the
// operands out (fused_plan.cpp calls it), and the pieces it uses.
#pragma once

#include "core/shape.hpp"
#include "plan/loop_nest.hpp"
#include "rules/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace bcast::plan {

// What every plan shares, whatever runs its lines (exec/walk.hpp): the
// output shape, the kernel operands (the reads of the user inputs, then the
// output), the coalesced loop nest in elements and bytes, the bytes each
// operand touches (the buffer check), the streaming decision and the walk.
struct Layout {
    Shape out;
    // Reads of the user inputs (a fused plan may read one input along several
    // placements, or not at all); the output is operand num_reads.
    std::size_t num_reads = 0;
    std::array<std::size_t, kMaxInputs> input_order{};  // read k: user input
    std::array<std::size_t, kMaxOperands> elem_size{};  // per operand
    LoopNest nest;                                       // element strides
    std::array<OperandStrides, kMaxRank> byte_stride{};  // per loop, per operand
    // Overlap check: the bytes [lo, hi) each operand touches from its
    // pointer, and per user input whether every read of it has exactly the
    // output's layout (the only overlap allowed: in place).
    std::array<int64_t, kMaxOperands> lo_byte{}, hi_byte{};
    std::array<bool, kMaxInputs> same_layout_as_output{};
    // Non-temporal stores when run whole, and when run as several tasks
    // (kernels/simd/stream_threshold.hpp).
    bool stream = false;
    bool stream_split = false;
    const char* isa = "";
    // The walk: an odometer over loops [0, outer_loops), one call of the
    // plan's line runner per step over the rest (call_elems elements).
    std::size_t outer_loops = 0;
    uint64_t call_elems = 0;
    uint64_t total_elems = 0;     // 0: nothing to do
    uint64_t task_period = 0;     // tasks start at whole periods of this (0: anywhere)
    uint64_t work_per_elem = 0;   // bytes moved per element, weighted by cost (tasks)
};

// One read of a user input by the kernels.
struct Read {
    std::size_t input = 0;              // user input
    const Shape* shape = nullptr;
    const int64_t* strides = nullptr;   // NULL: contiguous
    rules::Placement placement;         // its axes on the output's
    std::size_t elem_size = 0;
};

// Lays reads [0, n) and the output (strides NULL: contiguous) out on l.out,
// which the caller sets: the fields from num_reads to stream_split (for an
// empty output only the operands and an empty nest: nothing is touched). Throws INVALID_ARGUMENT for output strides
// that make elements share memory, SIZE_OVERFLOW for offsets that do not fit.
void lay_out(Layout& l, const Read* reads, std::size_t n, const int64_t* out_strides,
             std::size_t out_elem_size);

// The walk's fields, with the odometer over loops [0, outer_loops).
void set_walk(Layout& l, std::size_t outer_loops, uint64_t task_period, uint64_t work_per_elem);

// Row-major element strides for a shape.
std::array<int64_t, kMaxRank> contiguous_strides(const Shape& s);

}  // namespace bcast::plan
