#include "handles/operator.hpp"

#include "core/error.hpp"
#include "core/op_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

namespace bcast {

Operator::Operator(bcast_opcode opcode, bcast_dtype dtype)
    : Planned("the op has no plan: call bcast_op_plan first"), opcode_(opcode), dtype_(dtype) {
    const OpInfo& info = checked_op(opcode, "");
    if (!valid_dtype(dtype)) fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown dtype " + std::to_string(dtype));
    check_supports(opcode, dtype, info.name);
}

void Operator::set_param(bcast_param param, int64_t value) {
    switch (param) {
        case BCAST_PARAM_RULE:
            check_rule(value, "");
            rule_ = static_cast<bcast_rule>(value);
            break;
        case BCAST_PARAM_AXIS:
            check_axis(value, "");
            axis_ = value;
            break;
        case BCAST_PARAM_EXPAND_MODE:
            if (value < INT32_MIN || value > INT32_MAX ||
                !expand_mode_name(static_cast<bcast_expand_mode>(value))) {
                fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown expand mode " + std::to_string(value));
            }
            expand_mode_ = static_cast<bcast_expand_mode>(value);
            break;
        default:
            fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown parameter " + std::to_string(param));
    }
    forget_plan();
}

int64_t Operator::get_param(bcast_param param) const {
    switch (param) {
        case BCAST_PARAM_RULE: return rule_;
        case BCAST_PARAM_AXIS: return axis_;
        case BCAST_PARAM_EXPAND_MODE: return expand_mode_;
        default: fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown parameter " + std::to_string(param));
    }
}

std::vector<Shape> Operator::read_inputs(std::size_t num_inputs, const std::size_t* ranks,
                                         const int64_t* const* dims) const {
    check_arity(*op_info(opcode_), num_inputs, op_info(opcode_)->name, "inputs");
    return make_input_shapes(num_inputs, ranks, dims);
}

std::unique_ptr<plan::Plan> Operator::make_plan(std::size_t num_inputs, const Shape* inputs,
                                                const int64_t* const* strides,
                                                const int64_t* out_strides,
                                                const rules::Resolution& resolution) const {
    const plan::PlanRequest request{opcode_, dtype_, num_inputs, inputs, strides, out_strides};
    return std::make_unique<plan::Plan>(plan::build_plan(request, resolution));
}

void Operator::plan(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
                    const int64_t* const* strides, const int64_t* out_strides) {
    replan([&] {
        const std::vector<Shape> shapes = read_inputs(num_inputs, ranks, dims);
        const rules::Resolution res =
            rules::resolve(rule_, axis_, shapes.data(), num_inputs, primary_operand(opcode_));
        return make_plan(num_inputs, shapes.data(), strides, out_strides, res);
    });
}

void Operator::plan_to(std::size_t num_inputs, const std::size_t* ranks,
                       const int64_t* const* dims, const int64_t* const* strides,
                       std::size_t target_rank, const int64_t* target_dims,
                       const int64_t* axes_mapping, std::size_t axes_count,
                       const int64_t* out_strides) {
    replan([&] { return plan_to_shapes(num_inputs, ranks, dims, strides, target_rank, target_dims,
                                       axes_mapping, axes_count, out_strides); });
}

std::unique_ptr<plan::Plan> Operator::plan_to_shapes(
    std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
    const int64_t* const* strides, std::size_t target_rank, const int64_t* target_dims,
    const int64_t* axes_mapping, std::size_t axes_count, const int64_t* out_strides) const {
    const std::vector<Shape> shapes = read_inputs(num_inputs, ranks, dims);
    const Shape target = make_shape(target_rank, target_dims, "target");
    rules::Resolution res;
    res.num_inputs = num_inputs;
    for (std::size_t i = 0; i < num_inputs; ++i) {
        const rules::Resolution one =
            rules::resolve_expand(expand_mode_, shapes[i], target, axes_mapping, axes_count, axis_);
        if (i > 0 && one.out != res.out) {
            fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
                 std::string("broadcast ") + expand_mode_name(expand_mode_) + ": input " +
                     std::to_string(i) + " " + to_string(shapes[i]) + " gives " +
                     to_string(one.out) + " but input 0 gives " + to_string(res.out));
        }
        res.out = one.out;
        res.inputs[i] = one.inputs[0];
    }
    return make_plan(num_inputs, shapes.data(), strides, out_strides, res);
}

std::string Operator::describe() const {
    return plan::describe_json(opcode_, dtype_, rule_, axis_, current());
}

}  // namespace bcast
