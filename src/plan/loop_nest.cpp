#include "plan/loop_nest.hpp"

#include "core/checked.hpp"

#include <algorithm>

namespace bcast::plan {
namespace {

// Outer continues inner for every operand. A product past int64 cannot equal
// any stride, so it only means "not mergeable".
bool mergeable(const Loop& outer, const Loop& inner, std::size_t num_operands) {
    for (std::size_t o = 0; o < num_operands; ++o) {
        int64_t span;
        if (__builtin_mul_overflow(inner.stride[o], inner.extent, &span)) return false;
        if (outer.stride[o] != span) return false;
    }
    return true;
}

}  // namespace

LoopNest coalesce(const Shape& out, const AlignedStrides& strides) {
    LoopNest nest;
    nest.num_operands = strides.num_operands;
    const std::size_t out_op = strides.num_operands - 1;

    std::array<Loop, kMaxRank> axes{};
    std::size_t count = 0;
    for (std::size_t k = 0; k < out.rank; ++k) {
        if (out[k] == 0) nest.empty = true;
        if (out[k] == 1) continue;
        axes[count].extent = out[k];
        axes[count].stride = strides.axis[k];
        ++count;
    }
    if (nest.empty) return nest;

    // Output-stride order keeps the store stream contiguous when the caller
    // hands a permuted output layout; for row-major outputs this is a no-op.
    std::stable_sort(axes.begin(), axes.begin() + static_cast<std::ptrdiff_t>(count),
                     [out_op](const Loop& a, const Loop& b) {
                         return magnitude(a.stride[out_op]) > magnitude(b.stride[out_op]);
                     });

    for (std::size_t k = 0; k < count; ++k) {
        if (nest.num_loops > 0 &&
            mergeable(nest.loops[nest.num_loops - 1], axes[k], nest.num_operands)) {
            Loop& merged = nest.loops[nest.num_loops - 1];
            merged.extent *= axes[k].extent;
            merged.stride = axes[k].stride;
        } else {
            nest.loops[nest.num_loops++] = axes[k];
        }
    }
    if (nest.num_loops == 0) nest.num_loops = 1;  // one element, strides 0
    return nest;
}

}  // namespace bcast::plan
