#include "plan/layout.hpp"

#include "core/checked.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace bcast::plan {

// Row-major element strides for a shape.
std::array<int64_t, kMaxRank> contiguous_strides(const Shape& s) {
    std::array<int64_t, kMaxRank> st{};
    int64_t step = 1;
    for (std::size_t k = s.rank; k-- > 0;) {
        st[k] = step;
        step = checked_mul(step, std::max<int64_t>(s[k], 1), "contiguous stride");
    }
    return st;
}

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

uint64_t touched_bytes(const int64_t* lo, const int64_t* hi, std::size_t count) {
    uint64_t touched = 0;
    for (std::size_t o = 0; o < count; ++o) {
        // hi >= lo; unsigned, since the difference may exceed int64_t.
        const uint64_t bytes = static_cast<uint64_t>(hi[o]) - static_cast<uint64_t>(lo[o]);
        touched = bytes > UINT64_MAX - touched ? UINT64_MAX : touched + bytes;
    }
    return touched;
}

}  // namespace bcast::plan
