// What the opaque handles of the C API hold, and the calls every planned
// handle (bcast_op, bcast_expr) answers alike: one body each, whatever the
// handle (handles/planned.hpp on the C++ side).
#pragma once

#include "core/error.hpp"
#include "core/quantization.hpp"
#include "core/shape.hpp"
#include "exec/pool.hpp"
#include "guard.hpp"
#include "handles/fused_operator.hpp"
#include "handles/operator.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

struct bcast_op {
    bcast::Operator impl;
    static constexpr const char* kName = "op";
    static constexpr const char* kDescribeOom = "out of memory while describing the op";
};

struct bcast_pool {
    bcast::exec::Pool impl;
};

struct bcast_expr {
    bcast::FusedOperator impl;
    static constexpr const char* kName = "expr";
    static constexpr const char* kDescribeOom = "out of memory while describing the expression";
};

namespace bcast::capi {

// The handle's object (const or not), or INVALID_ARGUMENT for NULL ("op is
// NULL", "expr is NULL").
template <class Handle>
auto& checked(Handle* handle) {
    if (!handle) fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(Handle::kName) + " is NULL");
    return handle->impl;
}

// bcast_op_create, bcast_expr_create, bcast_pool_create: a new handle made
// from the object's constructor arguments into *out (out NULL: refused).
template <class Handle, class... Args>
bcast_status create(Handle** out, const Args&... args) {
    return guarded([&] {
        if (!out) fail(BCAST_ERROR_INVALID_ARGUMENT, "out is NULL");
        *out = new Handle{decltype(Handle::impl)(args...)};
    });
}

// bcast_op_get_quantization, bcast_expr_get_quantization: the fields asked
// for (NULL: skipped).
inline void write_quantization(const Quantization& q, float* scale, int32_t* zero_point) {
    if (scale) *scale = q.scale;
    if (zero_point) *zero_point = q.zero_point;
}

// bcast_op_output_shape, bcast_expr_output_shape: the planned output shape
// into the caller's (capacity, rank, dims).
template <class Handle>
bcast_status output_shape(const Handle* handle, size_t capacity, size_t* rank, int64_t* dims) {
    return guarded([&] {
        const Shape& out = checked(handle).planned().out;
        if (!rank) fail(BCAST_ERROR_INVALID_ARGUMENT, "rank is NULL");
        if (out.rank > capacity) {
            fail(BCAST_ERROR_INVALID_ARGUMENT, "capacity " + std::to_string(capacity) +
                                                   " is below the output rank " +
                                                   std::to_string(out.rank));
        }
        if (!dims && out.rank > 0) fail(BCAST_ERROR_INVALID_ARGUMENT, "dims is NULL");
        std::copy(out.dims.begin(), out.dims.begin() + static_cast<std::ptrdiff_t>(out.rank), dims);
        *rank = out.rank;
    });
}

template <class Handle>
bcast_status execute(const Handle* handle, const void* const* inputs, void* output) {
    return guarded([&] { checked(handle).execute(inputs, output); });
}

template <class Handle>
bcast_status task_count(const Handle* handle, size_t max_tasks, size_t* count) {
    return guarded([&] {
        if (!count) fail(BCAST_ERROR_INVALID_ARGUMENT, "count is NULL");
        *count = checked(handle).task_count(max_tasks);
    });
}

template <class Handle>
bcast_status execute_task(const Handle* handle, const void* const* inputs, void* output,
                          size_t task, size_t count) {
    return guarded([&] { checked(handle).execute_task(inputs, output, task, count); });
}

// pool NULL: a plain execute.
template <class Handle>
bcast_status execute_pool(const Handle* handle, const void* const* inputs, void* output,
                          bcast_pool* pool) {
    return guarded([&] {
        if (!pool) checked(handle).execute(inputs, output);
        else checked(handle).execute_on(pool->impl, inputs, output);
    });
}

// NULL: 0.
template <class Handle>
size_t describe(const Handle* handle, char* buf, size_t size) {
    if (!handle) return 0;
    return describe_into([&] { return handle->impl.describe(); }, buf, size, Handle::kDescribeOom);
}

}  // namespace bcast::capi
