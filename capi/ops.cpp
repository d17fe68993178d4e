// The bcast_op_* handle functions: a bcast_op is a bcast::Operator.
#include "guard.hpp"

#include "core/op_info.hpp"
#include "handles.hpp"

using bcast::fail;
using bcast::capi::checked;
using bcast::capi::guarded;

extern "C" {

size_t bcast_dtype_size(bcast_dtype dtype) noexcept { return bcast::dtype_size(dtype); }

int32_t bcast_op_supports(bcast_opcode opcode, bcast_dtype dtype) noexcept {
    return bcast::op_supports(opcode, dtype) ? 1 : 0;
}

bcast_status bcast_op_create(bcast_opcode opcode, bcast_dtype dtype, bcast_op** out) noexcept {
    return bcast::capi::create(out, opcode, dtype);
}

bcast_status bcast_op_set_param(bcast_op* op, bcast_param param, int64_t value) noexcept {
    return guarded([&] { checked(op).set_param(param, value); });
}

bcast_status bcast_op_get_param(const bcast_op* op, bcast_param param, int64_t* value) noexcept {
    return guarded([&] {
        if (!value) fail(BCAST_ERROR_INVALID_ARGUMENT, "value is NULL");
        *value = checked(op).get_param(param);
    });
}

bcast_status bcast_op_set_quantization(bcast_op* op, size_t operand, float scale,
                                       int32_t zero_point) noexcept {
    return guarded([&] { checked(op).set_quantization(operand, scale, zero_point); });
}

bcast_status bcast_op_get_quantization(const bcast_op* op, size_t operand, float* scale,
                                       int32_t* zero_point) noexcept {
    return guarded([&] {
        bcast::capi::write_quantization(checked(op).quantization(operand), scale, zero_point);
    });
}

bcast_status bcast_op_plan(bcast_op* op, size_t num_inputs, const size_t* ranks,
                           const int64_t* const* dims, const int64_t* const* strides,
                           const int64_t* out_strides) noexcept {
    return guarded([&] { checked(op).plan(num_inputs, ranks, dims, strides, out_strides); });
}

bcast_status bcast_op_plan_to(bcast_op* op, size_t num_inputs, const size_t* ranks,
                              const int64_t* const* dims, const int64_t* const* strides,
                              size_t target_rank, const int64_t* target_dims,
                              const int64_t* axes_mapping, size_t axes_count,
                              const int64_t* out_strides) noexcept {
    return guarded([&] {
        checked(op).plan_to(num_inputs, ranks, dims, strides, target_rank, target_dims,
                            axes_mapping, axes_count, out_strides);
    });
}

bcast_status bcast_op_output_shape(const bcast_op* op, size_t capacity, size_t* rank,
                                   int64_t* dims) noexcept {
    return bcast::capi::output_shape(op, capacity, rank, dims);
}

bcast_status bcast_op_execute(const bcast_op* op, const void* const* inputs,
                              void* output) noexcept {
    return bcast::capi::execute(op, inputs, output);
}

size_t bcast_op_describe(const bcast_op* op, char* buf, size_t size) noexcept {
    return bcast::capi::describe(op, buf, size);
}

void bcast_op_destroy(bcast_op* op) noexcept { delete op; }

}  // extern "C"
