#include "exec/tasks.hpp"

#include "core/op_info.hpp"
#include "exec/execute.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace bcast::exec {
namespace {

using plan::InnerKind;
using plan::kMaxOperands;

// Work per task, in bytes moved (weighted by the op's cost per element):
// below this a second thread's wake-up costs more than its share saves.
constexpr uint64_t kMinTaskBytes = 256 * 1024;

__extension__ typedef unsigned __int128 wide_uint;

bool is_periodic(const plan::Plan& p) {
    return p.kind == InnerKind::PeriodicX || p.kind == InnerKind::PeriodicY;
}

// Output elements per kernel call (rows x inner_count for a rows plan), and
// all of them: the nest covers the output once.
uint64_t call_elems(const plan::Plan& p) {
    return static_cast<uint64_t>(p.inner_count) * static_cast<uint64_t>(p.rows > 0 ? p.rows : 1);
}

uint64_t total_elems(const plan::Plan& p) {
    if (p.kind == InnerKind::Empty) return 0;
    uint64_t total = call_elems(p);
    for (std::size_t d = 0; d < p.outer_loops; ++d) {
        total *= static_cast<uint64_t>(p.nest.loops[d].extent);
    }
    return total;
}

// Output elements per cache line.
uint64_t line_elems(const plan::Plan& p) {
    return std::max<uint64_t>(1, kLineBytes / p.elem_size[p.num_inputs]);
}

// Range ends are multiples of this many elements (past the head): a line of
// output, and whole periods of a periodic pattern.
uint64_t grain(const plan::Plan& p) {
    const uint64_t line = line_elems(p);
    if (!is_periodic(p)) return line;
    return std::lcm(line, static_cast<uint64_t>(p.period));
}

// Where range ends start counting grains: the elements before the output's
// first line boundary, for a contiguous output (0 otherwise). A periodic
// plan's ranges must also start at the pattern's phase 0: its head is the
// first multiple of the period on a line boundary, where there is one.
uint64_t head_elems(const plan::Plan& p, const void* output, uint64_t grain_elems) {
    if (!flat_output_contiguous(p.nest, p.num_inputs)) return 0;
    const uint64_t es = p.elem_size[p.num_inputs];
    const uint64_t line = line_elems(p);
    const uint64_t to_line = elems_to_line(output, es);
    if (!is_periodic(p)) return to_line % grain_elems;
    const auto period = static_cast<uint64_t>(p.period);
    for (uint64_t h = 0; h < grain_elems; h += period) {
        if (h % line == to_line % line) return h;
    }
    return 0;
}

// Elements [off, off + len) of the kernel call at ptr.
void call_part(const plan::Plan& p, char* const* ptr, uint64_t off, uint64_t len, bool stream) {
    const std::size_t out = p.num_inputs;
    const std::size_t inner = p.nest.num_loops - 1;
    char* q[kMaxOperands];
    if (p.rows == 0) {
        for (std::size_t o = 0; o <= out; ++o) {
            int64_t step = p.byte_stride[inner][o];
            // Periodic: the full operand and the output run on, the pattern
            // restarts (off is a whole number of periods).
            if (is_periodic(p)) {
                const std::size_t pattern = p.kind == InnerKind::PeriodicX ? 0 : 1;
                step = o == pattern ? 0 : static_cast<int64_t>(p.elem_size[o]);
            }
            q[o] = ptr[o] + static_cast<int64_t>(off) * step;
        }
        call_run(p, q, len, stream);
        return;
    }
    // A rows plan: a part of a row through the 1-D kernel, whole rows
    // through the 2-D one.
    const auto n = static_cast<uint64_t>(p.inner_count);
    const std::size_t row_loop = p.outer_loops;
    uint64_t r = off / n, col = off % n, left = len;
    const auto at = [&](uint64_t row, uint64_t c) {
        for (std::size_t o = 0; o <= out; ++o) {
            q[o] = ptr[o] + static_cast<int64_t>(row) * p.byte_stride[row_loop][o] +
                   static_cast<int64_t>(c) * p.byte_stride[inner][o];
        }
    };
    if (col != 0) {
        const uint64_t m = std::min(n - col, left);
        at(r, col);
        call_run(p, q, m, stream);
        left -= m;
        ++r;
    }
    if (left >= n) {
        const uint64_t rows = left / n;
        at(r, 0);
        call_rows(p, q, rows, stream);
        r += rows;
        left -= rows * n;
    }
    if (left > 0) {
        at(r, 0);
        call_run(p, q, left, stream);
    }
}

// The flat range [begin, end): the odometer seeks the call holding begin,
// then walks as run() does.
void run_range(const plan::Plan& p, const void* const* inputs, void* output, uint64_t begin,
               uint64_t end, bool stream) {
    const std::size_t out = p.num_inputs;
    char* ptr[kMaxOperands];
    operand_pointers(p, inputs, output, ptr);
    const uint64_t per_call = call_elems(p);
    int64_t index[kMaxRank];
    uint64_t call = begin / per_call;
    for (std::size_t d = p.outer_loops; d-- > 0;) {
        const auto extent = static_cast<uint64_t>(p.nest.loops[d].extent);
        index[d] = static_cast<int64_t>(call % extent);
        call /= extent;
        for (std::size_t o = 0; o <= out; ++o) ptr[o] += index[d] * p.byte_stride[d][o];
    }
    uint64_t off = begin % per_call, at = begin;
    for (;;) {
        const uint64_t len = std::min(per_call - off, end - at);
        call_part(p, ptr, off, len, stream);
        at += len;
        if (at >= end || !next_call(p, index, ptr)) return;
        off = 0;
    }
}

}  // namespace

std::size_t task_count(const plan::Plan& p, std::size_t max_tasks) noexcept {
    const uint64_t total = total_elems(p);
    if (max_tasks <= 1 || total == 0) return 1;
    uint64_t bytes_per_elem = 0;
    for (std::size_t o = 0; o <= p.num_inputs; ++o) bytes_per_elem += p.elem_size[o];
    return tasks_for_work(total, bytes_per_elem * op_weight(p.kernel_op), grain(p), max_tasks);
}

void run_task(const plan::Plan& p, const void* const* inputs, void* output, std::size_t task,
              std::size_t count) noexcept {
    const uint64_t total = total_elems(p);
    if (total == 0 || task >= count) return;
    const uint64_t g = grain(p);
    const uint64_t head = head_elems(p, output, g);
    const uint64_t begin = task_boundary(total, task, count, head, g);
    const uint64_t end = task_boundary(total, task + 1, count, head, g);
    // Several tasks run side by side, as a rule: their stores decide
    // streaming on the split threshold (stream_threshold.hpp).
    if (begin < end) run_range(p, inputs, output, begin, end, count > 1 ? p.stream_split : p.stream);
}

// Cost per element relative to a plain + (what the grain of work weighs).
uint64_t op_weight(bcast_opcode kernel_op) noexcept {
    const OpInfo* info = op_info(kernel_op);
    return info ? info->weight : 1;
}

std::size_t tasks_for_work(uint64_t total, uint64_t work_per_elem, uint64_t grain,
                           std::size_t max_tasks) noexcept {
    if (max_tasks <= 1 || total == 0) return 1;
    uint64_t work = 0;  // saturating: any op that large splits as far as it may
    if (__builtin_mul_overflow(total, work_per_elem, &work)) work = UINT64_MAX;
    if (work < 2 * kMinTaskBytes) return 1;  // the common small op: no more arithmetic
    const uint64_t tasks = std::min({work / kMinTaskBytes, (total + grain - 1) / grain,
                                     static_cast<uint64_t>(max_tasks)});
    return static_cast<std::size_t>(std::max<uint64_t>(tasks, 1));
}

uint64_t task_boundary(uint64_t total, std::size_t k, std::size_t count, uint64_t head,
                       uint64_t grain) noexcept {
    if (k >= count) return total;
    const auto ideal = static_cast<uint64_t>(static_cast<wide_uint>(total) * k / count);
    if (ideal < head) return 0;
    return std::min(total, head + (ideal - head) / grain * grain);
}

bool flat_output_contiguous(const plan::LoopNest& nest, std::size_t out) noexcept {
    int64_t expected = 1;
    for (std::size_t l = nest.num_loops; l-- > 0;) {
        const plan::Loop& loop = nest.loops[l];
        if (loop.extent > 1 && loop.stride[out] != expected) return false;
        expected *= loop.extent;
    }
    return true;
}

uint64_t elems_to_line(const void* output, std::size_t elem_size) noexcept {
    const uint64_t misalign = reinterpret_cast<std::uintptr_t>(output) % kLineBytes;
    return (kLineBytes - misalign) % kLineBytes / elem_size;
}

}  // namespace bcast::exec
