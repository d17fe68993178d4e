// The one walk over a plan's loop nest, whatever runs its lines: an
// odometer over the outer loops (plan::Layout::outer_loops) that hands each
// call's pointers to a line runner, over the whole flat order or any range
// of it (a task). The line runner evaluates the plan's steps or chain
// (fused_execute.cpp). No allocation.
#pragma once

#include "plan/layout.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace bcast::exec {

using plan::kMaxOperands;

// The kernel operands' pointers at element 0: reads in kernel order, then
// the output.
inline void operand_pointers(const plan::Layout& l, const void* const* inputs, void* output,
                             char** ptr) noexcept {
    for (std::size_t k = 0; k < l.num_reads; ++k) {
        ptr[k] = static_cast<char*>(const_cast<void*>(inputs[l.input_order[k]]));
    }
    ptr[l.num_reads] = static_cast<char*>(output);
}

// Steps the odometer (index[0..outer_loops), innermost fastest) and ptr to
// the next call; false after the last.
inline bool next_call(const plan::Layout& l, int64_t* index, char** ptr) noexcept {
    const std::size_t out = l.num_reads;
    for (std::size_t d = l.outer_loops; d-- > 0;) {
        const int64_t extent = l.nest.loops[d].extent;
        if (++index[d] < extent) {
            for (std::size_t o = 0; o <= out; ++o) ptr[o] += l.byte_stride[d][o];
            return true;
        }
        index[d] = 0;
        for (std::size_t o = 0; o <= out; ++o) ptr[o] -= l.byte_stride[d][o] * (extent - 1);
    }
    return false;
}

// Elements [begin, end) of the flat order (end <= l.total_elems): per call,
// run(ptr, off, len) with ptr at the call's first element and [off, off +
// len) the part of its call_elems elements in the range.
template <class Runner>
void walk(const plan::Layout& l, const void* const* inputs, void* output, uint64_t begin,
          uint64_t end, Runner& run) noexcept {
    char* ptr[kMaxOperands];
    operand_pointers(l, inputs, output, ptr);
    int64_t index[kMaxRank];  // only the first outer_loops: zeroing all 32 costs a rep stos
    const uint64_t per_call = l.call_elems;
    uint64_t off = 0;
    if (begin == 0) {
        std::fill(index, index + l.outer_loops, int64_t{0});
    } else {  // seek the call holding begin
        uint64_t call = begin / per_call;
        off = begin % per_call;
        for (std::size_t d = l.outer_loops; d-- > 0;) {
            const auto extent = static_cast<uint64_t>(l.nest.loops[d].extent);
            index[d] = static_cast<int64_t>(call % extent);
            call /= extent;
            for (std::size_t o = 0; o <= l.num_reads; ++o) ptr[o] += index[d] * l.byte_stride[d][o];
        }
    }
    for (uint64_t at = begin;;) {
        const uint64_t len = std::min(per_call - off, end - at);
        run(static_cast<char* const*>(ptr), off, len);
        at += len;
        if (at >= end || !next_call(l, index, ptr)) return;
        off = 0;
    }
}

// Elements [off, off + len) of a call over two loops (rows of n elements,
// the row loop `row_loop`, the line `row_loop + 1`): a partial first row
// and a partial last one through line(q, m), the whole rows between through
// rows(q, count). The whole call (every row: the untasked case) is one
// rows() call, without a division.
template <class Line, class Rows>
void split_rows(const plan::Layout& l, char* const* ptr, uint64_t off, uint64_t len, uint64_t n,
                std::size_t row_loop, Line&& line, Rows&& rows) {
    if (off == 0 && len == l.call_elems) {
        rows(ptr, static_cast<uint64_t>(l.nest.loops[row_loop].extent));
        return;
    }
    const std::size_t out = l.num_reads;
    char* q[kMaxOperands];
    uint64_t r = off / n, left = len;
    const uint64_t col = off % n;
    const auto at = [&](uint64_t row, uint64_t c) {
        for (std::size_t o = 0; o <= out; ++o) {
            q[o] = ptr[o] + static_cast<int64_t>(row) * l.byte_stride[row_loop][o] +
                   static_cast<int64_t>(c) * l.byte_stride[row_loop + 1][o];
        }
    };
    if (col != 0) {
        const uint64_t m = std::min(n - col, left);
        at(r, col);
        line(static_cast<char* const*>(q), m);
        left -= m;
        ++r;
    }
    if (left >= n) {
        const uint64_t count = left / n;
        at(r, 0);
        rows(static_cast<char* const*>(q), count);
        r += count;
        left -= count * n;
    }
    if (left > 0) {
        at(r, 0);
        line(static_cast<char* const*>(q), left);
    }
}

}  // namespace bcast::exec
