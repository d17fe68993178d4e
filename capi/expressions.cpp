// The bcast_expr_* handle functions: a bcast_expr is a bcast::FusedOperator.
#include "guard.hpp"
#include "handles.hpp"

using bcast::capi::checked;
using bcast::capi::guarded;

extern "C" {

bcast_status bcast_expr_create(bcast_dtype dtype, size_t num_inputs, bcast_expr** out) noexcept {
    return bcast::capi::create(out, dtype, num_inputs);
}

bcast_status bcast_expr_set_input_dtype(bcast_expr* expr, size_t input, bcast_dtype dtype) noexcept {
    return guarded([&] { checked(expr).edit([&](auto& e) { e.set_input_dtype(input, dtype); }); });
}

bcast_status bcast_expr_set_quantization(bcast_expr* expr, size_t operand, bcast_dtype dtype,
                                         float scale, int32_t zero_point) noexcept {
    return guarded([&] {
        const bcast::Quantization q{dtype, scale, zero_point};
        checked(expr).edit([&](auto& e) {
            if (operand == BCAST_OUTPUT) e.set_output_quantization(q);
            else e.set_input_quantization(operand, q);
        });
    });
}

bcast_status bcast_expr_get_quantization(const bcast_expr* expr, size_t operand, bcast_dtype* dtype,
                                         float* scale, int32_t* zero_point) noexcept {
    return guarded([&] {
        const bcast::Quantization q = checked(expr).expression().quantization(operand);
        if (dtype) *dtype = q.dtype;
        bcast::capi::write_quantization(q, scale, zero_point);
    });
}

bcast_status bcast_expr_add_node(bcast_expr* expr, bcast_opcode opcode, bcast_rule rule,
                                 int64_t axis, size_t num_operands, const size_t* operands,
                                 size_t* value) noexcept {
    return guarded([&] {
        const size_t v = checked(expr).edit(
            [&](auto& e) { return e.add_node(opcode, rule, axis, num_operands, operands); });
        if (value) *value = v;
    });
}

bcast_status bcast_expr_set_output(bcast_expr* expr, size_t value) noexcept {
    return guarded([&] { checked(expr).edit([&](auto& e) { e.set_output(value); }); });
}

bcast_status bcast_expr_plan(bcast_expr* expr, size_t num_inputs, const size_t* ranks,
                             const int64_t* const* dims, const int64_t* const* strides,
                             const int64_t* out_strides) noexcept {
    return guarded([&] { checked(expr).plan(num_inputs, ranks, dims, strides, out_strides); });
}

bcast_status bcast_expr_output_shape(const bcast_expr* expr, size_t capacity, size_t* rank,
                                     int64_t* dims) noexcept {
    return bcast::capi::output_shape(expr, capacity, rank, dims);
}

bcast_status bcast_expr_execute(const bcast_expr* expr, const void* const* inputs,
                                void* output) noexcept {
    return bcast::capi::execute(expr, inputs, output);
}

bcast_status bcast_expr_task_count(const bcast_expr* expr, size_t max_tasks, size_t* count) noexcept {
    return bcast::capi::task_count(expr, max_tasks, count);
}

bcast_status bcast_expr_execute_task(const bcast_expr* expr, const void* const* inputs, void* output,
                                     size_t task, size_t count) noexcept {
    return bcast::capi::execute_task(expr, inputs, output, task, count);
}

bcast_status bcast_expr_execute_pool(const bcast_expr* expr, const void* const* inputs, void* output,
                                     bcast_pool* pool) noexcept {
    return bcast::capi::execute_pool(expr, inputs, output, pool);
}

size_t bcast_expr_describe(const bcast_expr* expr, char* buf, size_t size) noexcept {
    return bcast::capi::describe(expr, buf, size);
}

void bcast_expr_destroy(bcast_expr* expr) noexcept { delete expr; }

}  // extern "C"
