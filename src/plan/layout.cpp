#include "plan/layout.hpp"

#include "core/checked.hpp"
#include "core/error.hpp"
#include "kernels/simd/stream_threshold.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace bcast::plan {

std::array<int64_t, kMaxRank> contiguous_strides(const Shape& s) {
    std::array<int64_t, kMaxRank> st{};
    int64_t step = 1;
    for (std::size_t k = s.rank; k-- > 0;) {
        st[k] = step;
        step = checked_mul(step, std::max<int64_t>(s[k], 1), "contiguous stride");
    }
    return st;
}

namespace {

// Input strides laid along the output axes: broadcast axes get stride 0.
void align_input(const Shape& in, const int64_t* user_strides, const rules::Placement& place,
                 const Shape& out, std::size_t operand, AlignedStrides& aligned) {
    const std::array<int64_t, kMaxRank> own =
        user_strides ? std::array<int64_t, kMaxRank>{} : contiguous_strides(in);
    for (std::size_t k = 0; k < in.rank; ++k) {
        if (in[k] == 1) continue;
        const int axis = place.out_axis[k];
        if (axis < 0 || static_cast<std::size_t>(axis) >= out.rank || out[axis] != in[k]) {
            fail(BCAST_ERROR_INTERNAL, "plan: rule placed input axis " + std::to_string(k) +
                                           " of " + to_string(in) + " badly in " + to_string(out));
        }
        const int64_t stride = user_strides ? user_strides[k] : own[k];
        int64_t& slot = aligned.axis[static_cast<std::size_t>(axis)][operand];
        slot = checked_add(slot, stride, "input stride");
    }
}

void align_output(const Shape& out, const int64_t* user_strides, std::size_t operand,
                  AlignedStrides& aligned) {
    const std::array<int64_t, kMaxRank> own = contiguous_strides(out);
    for (std::size_t k = 0; k < out.rank; ++k) {
        aligned.axis[k][operand] = user_strides ? user_strides[k] : own[k];
    }
}

// Distinct output elements must not share memory. The test is sufficient,
// not exact (the header documents it): with the axes sorted by |stride|,
// each |stride| must step past everything the smaller axes reach. Row-major,
// column-major, permuted and padded layouts all pass; interleavings that
// happen not to collide, such as (3,2) with strides (2,3), are refused.
// Runs after byte_range, so every |stride| * (extent - 1) and their sum fit.
void check_output_does_not_self_overlap(const Shape& out, const AlignedStrides& aligned,
                                        std::size_t operand) {
    std::vector<std::pair<uint64_t, int64_t>> axes;  // |stride|, extent
    for (std::size_t k = 0; k < out.rank; ++k) {
        if (out[k] > 1) axes.emplace_back(magnitude(aligned.axis[k][operand]), out[k]);
    }
    std::sort(axes.begin(), axes.end());
    uint64_t reach = 0;  // largest offset the smaller axes span
    for (const auto& [stride, extent] : axes) {
        if (stride <= reach) {
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "output strides may make distinct elements share memory: |stride| " +
                     std::to_string(stride) + " (axis of extent " + std::to_string(extent) +
                     ") does not exceed " + std::to_string(reach) +
                     ", the largest offset of the axes with smaller strides");
        }
        reach += stride * static_cast<uint64_t>(extent - 1);
    }
}

// Byte range [lo, hi) an operand touches over the whole output index space.
void byte_range(const Shape& out, const AlignedStrides& aligned, std::size_t operand,
                std::size_t elem_size, int64_t& lo, int64_t& hi) {
    int64_t min_off = 0, max_off = 0;
    for (std::size_t k = 0; k < out.rank; ++k) {
        const int64_t span = checked_mul(aligned.axis[k][operand], out[k] - 1, "offset");
        if (span < 0) {
            min_off = checked_add(min_off, span, "offset");
        } else {
            max_off = checked_add(max_off, span, "offset");
        }
    }
    const auto esz = static_cast<int64_t>(elem_size);
    lo = checked_mul(min_off, esz, "byte offset");
    hi = checked_add(checked_mul(max_off, esz, "byte offset"), esz, "byte offset");
}

bool same_layout(const Shape& out, const AlignedStrides& aligned, std::size_t a, std::size_t b) {
    for (std::size_t k = 0; k < out.rank; ++k) {
        if (out[k] > 1 && aligned.axis[k][a] != aligned.axis[k][b]) return false;
    }
    return true;
}

// What operands [0, count) touch together, each its [lo, hi) once: the
// bytes the streaming decision weighs. Saturating: any sum that large streams.
uint64_t touched_bytes(const int64_t* lo, const int64_t* hi, std::size_t count) {
    uint64_t touched = 0;
    for (std::size_t o = 0; o < count; ++o) {
        // hi >= lo; unsigned, since the difference may exceed int64_t.
        const uint64_t bytes = static_cast<uint64_t>(hi[o]) - static_cast<uint64_t>(lo[o]);
        touched = bytes > UINT64_MAX - touched ? UINT64_MAX : touched + bytes;
    }
    return touched;
}

}  // namespace

void lay_out(Layout& l, const Read* reads, std::size_t n, const int64_t* out_strides,
             std::size_t out_elem_size) {
    const std::size_t out = n;
    l.num_reads = n;
    for (std::size_t k = 0; k < n; ++k) {
        l.input_order[k] = reads[k].input;
        l.elem_size[k] = reads[k].elem_size;
    }
    l.elem_size[out] = out_elem_size;
    l.nest = LoopNest{};
    l.nest.num_operands = out + 1;
    if (element_count(l.out) == 0) {
        // Nothing is touched: no stride or offset is needed, however large
        // the other extents (e.g. (INT64_MAX, 0)).
        l.nest.empty = true;
        return;
    }
    AlignedStrides aligned;
    aligned.num_operands = out + 1;
    for (std::size_t k = 0; k < n; ++k) {
        align_input(*reads[k].shape, reads[k].strides, reads[k].placement, l.out, k, aligned);
    }
    align_output(l.out, out_strides, out, aligned);
    for (std::size_t o = 0; o <= out; ++o) {
        byte_range(l.out, aligned, o, l.elem_size[o], l.lo_byte[o], l.hi_byte[o]);
    }
    check_output_does_not_self_overlap(l.out, aligned, out);
    // In place only where every read of the input has the output's layout.
    std::array<bool, kMaxInputs> read{};
    l.same_layout_as_output.fill(true);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t user = l.input_order[k];
        read[user] = true;
        l.same_layout_as_output[user] = l.same_layout_as_output[user] &&
                                        l.elem_size[k] == l.elem_size[out] &&
                                        same_layout(l.out, aligned, k, out);
    }
    for (std::size_t i = 0; i < kMaxInputs; ++i) l.same_layout_as_output[i] &= read[i];

    l.nest = coalesce(l.out, aligned);
    for (std::size_t loop = 0; loop < l.nest.num_loops; ++loop) {
        for (std::size_t o = 0; o <= out; ++o) {
            l.byte_stride[loop][o] = checked_mul(l.nest.loops[loop].stride[o],
                                                 static_cast<int64_t>(l.elem_size[o]), "byte stride");
        }
    }
    // Every operand's touched bytes once (a broadcast input counts its own
    // size): what the plan moves through the cache.
    const uint64_t touched = touched_bytes(l.lo_byte.data(), l.hi_byte.data(), out + 1);
    // The output's share decides which thresholds (stream_threshold.hpp).
    const uint64_t out_bytes = touched_bytes(&l.lo_byte[out], &l.hi_byte[out], 1);
    const bool one_input = out_bytes >= touched / 5 * 2;
    l.stream = touched >= kernels::stream_threshold_bytes(one_input);
    l.stream_split = touched >= kernels::split_stream_threshold_bytes(one_input);
}

void set_walk(Layout& l, std::size_t outer_loops, uint64_t task_period, uint64_t work_per_elem) {
    l.outer_loops = outer_loops;
    l.task_period = task_period;
    l.work_per_elem = work_per_elem;
    l.call_elems = l.total_elems = 0;
    if (l.nest.empty) return;
    uint64_t call = 1, total = 1;
    for (std::size_t loop = 0; loop < l.nest.num_loops; ++loop) {
        const auto extent = static_cast<uint64_t>(l.nest.loops[loop].extent);
        total *= extent;
        if (loop >= outer_loops) call *= extent;
    }
    l.call_elems = call;
    l.total_elems = total;
}

}  // namespace bcast::plan
