// Broadcast-to-target: OpenVINO Broadcast-1/3 modes and ONNX Expand
// (BIDIRECTIONAL). One data input; the Resolution has num_inputs == 1.
#include "core/op_info.hpp"
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules {
namespace detail {
namespace {

std::string data_target_text(const Shape& data, const Shape& target) {
    return "data shape " + to_string(data) + ", target shape " + to_string(target);
}

Resolution one_input(const Shape& out, const Placement& p) {
    Resolution r;
    r.out = out;
    r.num_inputs = 1;
    r.inputs[0] = p;
    return r;
}

// One-directional numpy: the output is exactly the target (target 1 vs data 5
// is refused, unlike BIDIRECTIONAL).
Resolution expand_numpy(const std::string& who, const Shape& data, const Shape& target) {
    if (data.rank > target.rank)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             who + ": data rank " + std::to_string(data.rank) + " exceeds target rank " +
                 std::to_string(target.rank) + " (" + data_target_text(data, target) + ")");
    const std::ptrdiff_t bad = first_misfit_into(target, data);
    if (bad >= 0) {
        const std::size_t a = static_cast<std::size_t>(bad);
        refuse_dim(who, a, data[a - (target.rank - data.rank)], target[a],
                   data_target_text(data, target),
                   "data must be 1 or equal to the target; the output is exactly the target");
    }
    return one_input(target, right_aligned(data.rank, target.rank));
}

// ONNX Expand: numpy.array(data) * numpy.ones(target).
Resolution expand_bidirectional(const std::string& who, const Shape& data,
                                const Shape& target) {
    const Shape pair[2] = {data, target};
    const Resolution both = numpy_merge(who, pair, 2);
    return one_input(both.out, both.inputs[0]);
}

// OpenVINO: a rank-0 data with a one-entry mapping counts as rank 1 whose
// target extent must be 1.
Resolution expand_explicit_scalar(const std::string& who, const Shape& data,
                                  const Shape& target, const int64_t* axes,
                                  std::size_t count) {
    if (count > 1)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axes_mapping has " + std::to_string(count) +
                 " entries for rank-0 data (0 or 1 allowed)");
    if (count == 1) {
        check_mapping_entry(who, axes, 0, target.rank, [&] { return to_string(target); });
        const std::size_t a = static_cast<std::size_t>(axes[0]);
        if (target[a] != 1)
            refuse_dim(who, a, 1, target[a], data_target_text(data, target),
                       "rank-0 data needs a target extent of 1 on its mapped axis");
    }
    return one_input(target, Placement{});
}

Resolution expand_explicit(const std::string& who, const Shape& data, const Shape& target,
                           const int64_t* axes, std::size_t count) {
    if (count > 0 && axes == nullptr)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axes_mapping is NULL but axes_count is " + std::to_string(count));
    if (data.rank == 0) return expand_explicit_scalar(who, data, target, axes, count);
    if (count != data.rank)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axes_mapping has " + std::to_string(count) +
                 " entries but the data rank is " + std::to_string(data.rank));
    // The whole mapping first: a bad argument is reported before a shape misfit.
    for (std::size_t i = 0; i < count; ++i)
        check_mapping_entry(who, axes, i, target.rank, [&] { return to_string(target); });
    Placement p;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t a = static_cast<std::size_t>(axes[i]);
        if (data[i] != 1 && data[i] != target[a])
            refuse_dim(who, a, data[i], target[a], data_target_text(data, target),
                       "data axis " + std::to_string(i) + " is mapped to target axis " +
                           std::to_string(a));
        p.out_axis[i] = static_cast<int>(a);
    }
    return one_input(target, p);
}

// The Broadcast op's own PDPD: a data 1 keeps the target extent, a target 1
// takes the data extent (so the output may differ from the target), which is
// exactly merge_dim. Data axes past the target's end must be 1.
Resolution expand_pdpd(const std::string& who, const Shape& data, const Shape& target,
                       int64_t axis) {
    check_axis_argument(who, axis);
    const int64_t rd = static_cast<int64_t>(data.rank), rt = static_cast<int64_t>(target.rank);
    const int64_t first = axis == -1 ? rt - rd : axis;
    if (first < 0)
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             who + ": data rank " + std::to_string(rd) + " exceeds target rank " +
                 std::to_string(rt) + " with the default axis (" +
                 data_target_text(data, target) + ")");
    // Clamped so that a huge axis cannot overflow; every data axis then lands
    // past the end, which the loop below handles.
    const std::size_t start = static_cast<std::size_t>(std::min(first, rt));
    Shape out = target;
    for (std::size_t i = start; i < target.rank; ++i) {
        const int64_t d = i - start < data.rank ? data[i - start] : 1;
        if (!merge_dim(target[i], d, &out[i]))
            refuse_dim(who, i, d, target[i], data_target_text(data, target),
                       "data placed at axis " + std::to_string(start));
    }
    for (std::size_t j = target.rank - start; j < data.rank; ++j)
        if (data[j] != 1)
            fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
                 who + ": data axis " + std::to_string(j) + " (extent " +
                     std::to_string(data[j]) +
                     ") lands past the end of the target; only 1s may (data placed at axis " +
                     std::to_string(first) + "; " + data_target_text(data, target) + ")");
    return one_input(out, offset_placement(data.rank, static_cast<std::ptrdiff_t>(start),
                                           target.rank));
}

}  // namespace
}  // namespace detail

Resolution resolve_expand(bcast_expand_mode mode, const Shape& data, const Shape& target,
                          const int64_t* axes_mapping, std::size_t axes_count, int64_t axis) {
    const char* name = expand_mode_name(mode);
    if (!name)
        fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown broadcast mode " + std::to_string(mode));
    const std::string who = std::string("broadcast ") + name;
    make_shape(data.rank, data.dims.data(), "data");  // validation only
    make_shape(target.rank, target.dims.data(), "target");
    if (mode != BCAST_EXPAND_EXPLICIT && axes_count > 0)
        fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": axes_mapping is only taken by explicit mode");
    switch (mode) {
        case BCAST_EXPAND_NUMPY: return detail::expand_numpy(who, data, target);
        case BCAST_EXPAND_BIDIRECTIONAL: return detail::expand_bidirectional(who, data, target);
        case BCAST_EXPAND_EXPLICIT:
            return detail::expand_explicit(who, data, target, axes_mapping, axes_count);
        default: return detail::expand_pdpd(who, data, target, axis);
    }
}

}  // namespace bcast::rules
