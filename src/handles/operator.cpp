#include "handles/operator.hpp"

#include "core/error.hpp"
#include "core/op_checks.hpp"
#include "plan/json.hpp"

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

namespace {

std::string operand_label(std::size_t operand) {
    return operand == Operator::kOutputOperand ? "the output" : "input " + std::to_string(operand);
}

}  // namespace

std::size_t Operator::quantization_index(std::size_t operand) const {
    if (operand == kOutputOperand) return kMaxInputs;
    const OpInfo& info = *op_info(opcode_);
    if (operand >= static_cast<std::size_t>(info.max_inputs)) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "operand " + std::to_string(operand) + ": " + info.name +
                                               " takes at most " + std::to_string(info.max_inputs) +
                                               " inputs (the output is BCAST_OUTPUT)");
    }
    return operand;
}

void Operator::set_quantization(std::size_t operand, float scale, int32_t zero_point) {
    const OpInfo& info = *op_info(opcode_);
    if (!op_quantizable(opcode_)) {
        fail(BCAST_ERROR_UNSUPPORTED, std::string(info.name) + " has no quantized form");
    }
    if (dtype_ != BCAST_DTYPE_U8 && dtype_ != BCAST_DTYPE_I8) {
        fail(BCAST_ERROR_UNSUPPORTED, std::string(info.name) + " on " + dtype_name(dtype_) +
                                          ": only u8 and i8 ops are quantized");
    }
    const std::size_t index = quantization_index(operand);
    const Quantization q{dtype_, scale, zero_point};
    check_quantization(q, operand_label(operand).c_str());
    quantization_[index] = q;
    forget_plan();
}

Quantization Operator::quantization(std::size_t operand) const {
    const std::optional<Quantization>& q = quantization_[quantization_index(operand)];
    if (!q) fail(BCAST_ERROR_INVALID_STATE, operand_label(operand) + " has no quantization");
    return *q;
}

bool Operator::quantized() const {
    for (const auto& q : quantization_) {
        if (q) return true;
    }
    return false;
}

std::unique_ptr<plan::FusedPlan> Operator::make_plan(std::size_t num_inputs, const Shape* inputs,
                                                     const int64_t* const* strides,
                                                     const int64_t* out_strides,
                                                     const rules::Resolution* resolved) const {
    const bool quantized_op = quantized();
    // A quantized op is the QDQ graph: its node computes in f32.
    plan::Expression e(quantized_op ? BCAST_DTYPE_F32 : dtype_, num_inputs);
    std::array<std::size_t, kMaxInputs> operands{};
    for (std::size_t i = 0; i < num_inputs; ++i) {
        operands[i] = i;
        if (!quantized_op) continue;
        if (!quantization_[i]) {
            fail(BCAST_ERROR_INVALID_STATE,
                 operand_label(i) + " has no quantization: a quantized op needs the scale and "
                                    "zero point of every input and of the output");
        }
        e.set_input_quantization(i, *quantization_[i]);
    }
    const std::optional<Quantization>& output = quantization_[kMaxInputs];
    if (quantized_op && !output) {
        fail(BCAST_ERROR_INVALID_STATE, "the output has no quantization: a quantized op needs "
                                        "the scale and zero point of every input and of the output");
    }
    if (opcode_ == BCAST_OP_SELECT) e.set_input_dtype(0, BCAST_DTYPE_BOOL);
    e.add_node(opcode_, rule_, axis_, num_inputs, operands.data());
    if (quantized_op) e.set_output_quantization(*output);
    e.mark_single_op();
    auto p = std::make_unique<plan::FusedPlan>();
    plan::plan_expression(e, inputs, strides, out_strides, *p, resolved);
    return p;
}

void Operator::plan(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
                    const int64_t* const* strides, const int64_t* out_strides) {
    replan([&] {
        const std::vector<Shape> shapes = read_inputs(num_inputs, ranks, dims);
        return make_plan(num_inputs, shapes.data(), strides, out_strides, nullptr);
    });
}

void Operator::plan_to(std::size_t num_inputs, const std::size_t* ranks,
                       const int64_t* const* dims, const int64_t* const* strides,
                       std::size_t target_rank, const int64_t* target_dims,
                       const int64_t* axes_mapping, std::size_t axes_count,
                       const int64_t* out_strides) {
    // Refused inside replan, as every refusal: the op then has no plan.
    replan([&] {
        if (quantized()) {
            fail(BCAST_ERROR_UNSUPPORTED, "a quantized op is planned with bcast_op_plan, not plan_to");
        }
        return plan_to_shapes(num_inputs, ranks, dims, strides, target_rank, target_dims, axes_mapping,
                              axes_count, out_strides);
    });
}

std::unique_ptr<plan::FusedPlan> Operator::plan_to_shapes(
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
    return make_plan(num_inputs, shapes.data(), strides, out_strides, &res);
}

std::string Operator::describe() const {
    std::string s = plan::describe_op_json(opcode_, dtype_, rule_, axis_, current());
    if (!quantized()) return s;
    std::array<const Quantization*, kMaxInputs + 1> q{};
    std::size_t n = 0;
    for (std::size_t i = 0; i <= kMaxInputs; ++i) {
        q[i] = quantization_[i] ? &*quantization_[i] : nullptr;
        if (q[i] && i < kMaxInputs) n = i + 1;
    }
    s.pop_back();  // the closing brace
    return s + plan::quantization_json(q.data(), n, q[kMaxInputs]) + "}";
}

}  // namespace bcast
