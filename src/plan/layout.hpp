// Operand layouts on the output's axes, shared by single-op plans (plan.cpp)
// and fused expressions (fuse/): strides aligned to the output, the bytes
// each operand touches, and the checks on them.
#pragma once

#include "core/shape.hpp"
#include "plan/loop_nest.hpp"
#include "rules/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace bcast::plan {

// Row-major element strides for a shape.
std::array<int64_t, kMaxRank> contiguous_strides(const Shape& s);

// Input strides (NULL: contiguous) laid along the output axes as `place`
// puts them; broadcast axes get stride 0. Adds into aligned.axis[..][operand].
void align_input(const Shape& in, const int64_t* user_strides, const rules::Placement& place,
                 const Shape& out, std::size_t operand, AlignedStrides& aligned);

// The output's strides (NULL: contiguous) as operand `operand`.
void align_output(const Shape& out, const int64_t* user_strides, std::size_t operand,
                  AlignedStrides& aligned);

// INVALID_ARGUMENT where distinct output elements might share memory.
void check_output_does_not_self_overlap(const Shape& out, const AlignedStrides& aligned,
                                        std::size_t operand);

// Byte range [lo, hi) an operand touches over the whole output index space
// (SIZE_OVERFLOW when it does not fit).
void byte_range(const Shape& out, const AlignedStrides& aligned, std::size_t operand,
                std::size_t elem_size, int64_t& lo, int64_t& hi);

// What operands [0, count) touch together, each its [lo, hi) once: the
// bytes the streaming decision weighs. Saturating: any sum that large streams.
uint64_t touched_bytes(const int64_t* lo, const int64_t* hi, std::size_t count);

// Whether operands a and b step alike along every axis of extent > 1.
bool same_layout(const Shape& out, const AlignedStrides& aligned, std::size_t a, std::size_t b);

}  // namespace bcast::plan
