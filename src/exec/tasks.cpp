#include "exec/tasks.hpp"

#include "tuning/active_tuning.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace bcast::exec {
namespace {

constexpr uint64_t kLineBytes = 64;

__extension__ typedef unsigned __int128 wide_uint;

// Output elements per cache line.
uint64_t line_elems(const plan::Layout& l) {
    return std::max<uint64_t>(1, kLineBytes / l.elem_size[l.num_reads]);
}

// Range ends are multiples of this many elements (past the head): a line of
// output, and whole task periods.
uint64_t grain(const plan::Layout& l) {
    const uint64_t line = line_elems(l);
    return l.task_period == 0 ? line : std::lcm(line, l.task_period);
}

// Whether the output's addresses follow the nest's flat order one element
// apart.
bool flat_output_contiguous(const plan::Layout& l) {
    int64_t expected = 1;
    for (std::size_t d = l.nest.num_loops; d-- > 0;) {
        const plan::Loop& loop = l.nest.loops[d];
        if (loop.extent > 1 && loop.stride[l.num_reads] != expected) return false;
        expected *= loop.extent;
    }
    return true;
}

// Where range ends start counting grains, and the grain: the elements
// before the output's first line boundary, for a contiguous output (0
// otherwise). With a task period, ranges also start at phase 0: the head is
// the first multiple of the period on a line boundary; where there is none
// (an output address no multiple of the period reaches), the grain is a
// line, as without a period: a line is never shared.
uint64_t head_elems(const plan::Layout& l, const void* output, uint64_t& grain_elems) {
    if (!flat_output_contiguous(l)) return 0;
    const uint64_t es = l.elem_size[l.num_reads];
    const uint64_t line = line_elems(l);
    const uint64_t misalign = reinterpret_cast<std::uintptr_t>(output) % kLineBytes;
    const uint64_t to_line = (kLineBytes - misalign) % kLineBytes / es;
    if (l.task_period != 0) {
        for (uint64_t h = 0; h < grain_elems; h += l.task_period) {
            if (h % line == to_line % line) return h;
        }
        grain_elems = line;
    }
    return to_line % grain_elems;
}

// Where task k of count starts over [0, total) (k == count: the end): the
// even share, moved back to `head` plus a multiple of `grain`.
uint64_t task_boundary(uint64_t total, std::size_t k, std::size_t count, uint64_t head,
                       uint64_t grain) {
    if (k >= count) return total;
    const auto ideal = static_cast<uint64_t>(static_cast<wide_uint>(total) * k / count);
    if (ideal < head) return 0;
    return std::min(total, head + (ideal - head) / grain * grain);
}

}  // namespace

std::size_t task_count(const plan::Layout& l, std::size_t max_tasks) noexcept {
    const uint64_t total = l.total_elems;
    if (max_tasks <= 1 || total == 0) return 1;
    uint64_t work = 0;  // saturating: any op that large splits as far as it may
    if (__builtin_mul_overflow(total, l.work_per_elem, &work)) work = UINT64_MAX;
    // Work per task, in bytes moved (weighted by the ops' cost per element):
    // below the tuning's task_min_bytes a second thread's wake-up costs more
    // than its share saves.
    const uint64_t min_task = tuning::active().task_min_bytes;
    if (work < 2 * min_task) return 1;  // the common small op: no more arithmetic
    const uint64_t g = grain(l);
    const uint64_t tasks = std::min({work / min_task, (total + g - 1) / g,
                                     static_cast<uint64_t>(max_tasks)});
    return static_cast<std::size_t>(std::max<uint64_t>(tasks, 1));
}

bool task_range(const plan::Layout& l, const void* output, std::size_t task, std::size_t count,
                uint64_t& begin, uint64_t& end) noexcept {
    const uint64_t total = l.total_elems;
    if (total == 0 || task >= count) return false;
    uint64_t g = grain(l);
    const uint64_t head = head_elems(l, output, g);
    begin = task_boundary(total, task, count, head, g);
    end = task_boundary(total, task + 1, count, head, g);
    return begin < end;
}

}  // namespace bcast::exec
