#include "rules/rule_util.hpp"

namespace bcast::rules::detail {

bool merge_dim(int64_t a, int64_t b, int64_t* out) {
    if (a == b || b == 1) {
        *out = a;
        return true;
    }
    if (a == 1) {
        *out = b;
        return true;
    }
    return false;
}

Placement offset_placement(std::size_t rank_in, std::ptrdiff_t start, std::size_t rank_out) {
    Placement p;
    for (std::size_t i = 0; i < rank_in; ++i) {
        const std::ptrdiff_t axis = start + static_cast<std::ptrdiff_t>(i);
        const bool inside = axis >= 0 && axis < static_cast<std::ptrdiff_t>(rank_out);
        p.out_axis[i] = inside ? static_cast<int>(axis) : -1;
    }
    return p;
}

Placement right_aligned(std::size_t rank_in, std::size_t rank_out) {
    return offset_placement(rank_in,
                            static_cast<std::ptrdiff_t>(rank_out) -
                                static_cast<std::ptrdiff_t>(rank_in),
                            rank_out);
}

bool all_ones(const Shape& s) {
    for (std::size_t i = 0; i < s.rank; ++i)
        if (s[i] != 1) return false;
    return true;
}

std::string pair_text(const Shape& a, const Shape& b) {
    return "shapes " + to_string(a) + " and " + to_string(b);
}

void refuse_dim(const std::string& who, std::size_t axis, int64_t x, int64_t y,
                const std::string& shapes, const std::string& hint) {
    refuse_dim(who, axis, std::to_string(x), std::to_string(y), shapes, hint);
}

void refuse_dim(const std::string& who, std::size_t axis, const std::string& x,
                const std::string& y, const std::string& shapes, const std::string& hint) {
    std::string msg = who + ": cannot broadcast dimension " + std::to_string(axis) + ": " + x +
                      " vs " + y + " (" + shapes + ")";
    if (!hint.empty()) msg += "; " + hint;
    fail(BCAST_ERROR_INCOMPATIBLE_SHAPES, msg);
}

void refuse_mapping_entry(const std::string& who, const int64_t* axes, std::size_t i,
                          std::size_t target_rank, const std::string& target_text) {
    if (axes[i] < 0 || axes[i] >= static_cast<int64_t>(target_rank))
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axes_mapping[" + std::to_string(i) + "] = " + std::to_string(axes[i]) +
                 " is outside [0, " + std::to_string(target_rank) + ") for target shape " +
                 target_text);
    // Non-decreasing, as OpenVINO's std::is_sorted: repeated entries pass.
    fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axes_mapping is not sorted (entry " + std::to_string(i) + " = " +
                 std::to_string(axes[i]) + " after " + std::to_string(axes[i - 1]) +
                 "): broadcast doesn't permit transposes");
}

std::ptrdiff_t first_misfit_into(const Shape& into, const Shape& other) {
    const std::size_t lead = into.rank - other.rank;
    for (std::size_t i = 0; i < other.rank; ++i) {
        const int64_t d = other[i];
        if (d != 1 && d != into[lead + i]) return static_cast<std::ptrdiff_t>(lead + i);
    }
    return -1;
}

void check_axis_argument(const std::string& who, int64_t axis) {
    if (axis < -1)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axis " + std::to_string(axis) +
                 " is invalid (only -1, the default, may be negative)");
}

Resolution fit_into_primary(const Shape* inputs, std::size_t n, std::size_t primary,
                            int64_t axis, FitFn fit) {
    Resolution r;
    r.out = inputs[primary];
    r.num_inputs = n;
    for (std::size_t j = 0; j < n; ++j) {
        r.inputs[j] = j == primary ? offset_placement(r.out.rank, 0, r.out.rank)
                                   : fit(inputs[primary], inputs[j], axis);
    }
    return r;
}

}  // namespace bcast::rules::detail
