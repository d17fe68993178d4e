// bcast_infer_shape / bcast_infer_expand_shape: argument checks and copying
// around rules::resolve.
#include "guard.hpp"

#include "core/op_info.hpp"
#include "rules/rules.hpp"

#include <algorithm>
#include <vector>

namespace {

using bcast::fail;

void write_shape(const bcast::Shape& s, std::size_t capacity, std::size_t* out_rank,
                 int64_t* out_dims) {
    if (s.rank > capacity) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "out_capacity " + std::to_string(capacity) +
                                               " is below the output rank " +
                                               std::to_string(s.rank));
    }
    std::copy(s.dims.begin(), s.dims.begin() + static_cast<std::ptrdiff_t>(s.rank), out_dims);
    *out_rank = s.rank;
}

void check_outputs(std::size_t capacity, const std::size_t* out_rank, const int64_t* out_dims) {
    if (!out_rank) fail(BCAST_ERROR_INVALID_ARGUMENT, "out_rank is NULL");
    if (!out_dims && capacity > 0) fail(BCAST_ERROR_INVALID_ARGUMENT, "out_dims is NULL");
}

}  // namespace

extern "C" {

bcast_status bcast_infer_shape(bcast_rule rule, int64_t axis, size_t num_inputs,
                               const size_t* ranks, const int64_t* const* dims,
                               size_t out_capacity, size_t* out_rank,
                               int64_t* out_dims) noexcept {
    return bcast::capi::guarded([&] {
        check_outputs(out_capacity, out_rank, out_dims);
        if (num_inputs == 0 || num_inputs > BCAST_MAX_INPUTS) {
            fail(BCAST_ERROR_INVALID_ARGUMENT, "num_inputs " + std::to_string(num_inputs) +
                                                   " is outside 1.." +
                                                   std::to_string(BCAST_MAX_INPUTS));
        }
        const std::vector<bcast::Shape> shapes = bcast::make_input_shapes(num_inputs, ranks, dims);
        const auto res = bcast::rules::resolve(rule, axis, shapes.data(), num_inputs);
        write_shape(res.out, out_capacity, out_rank, out_dims);
    });
}

bcast_status bcast_infer_expand_shape(bcast_expand_mode mode, size_t data_rank,
                                      const int64_t* data_dims, size_t target_rank,
                                      const int64_t* target_dims, const int64_t* axes_mapping,
                                      size_t axes_count, int64_t axis, size_t out_capacity,
                                      size_t* out_rank, int64_t* out_dims) noexcept {
    return bcast::capi::guarded([&] {
        check_outputs(out_capacity, out_rank, out_dims);
        const bcast::Shape data = bcast::make_shape(data_rank, data_dims, "data");
        const bcast::Shape target = bcast::make_shape(target_rank, target_dims, "target");
        const auto res =
            bcast::rules::resolve_expand(mode, data, target, axes_mapping, axes_count, axis);
        write_shape(res.out, out_capacity, out_rank, out_dims);
    });
}

}  // extern "C"
