#include "plan/expression.hpp"

#include "core/error.hpp"
#include "core/op_checks.hpp"

#include <string>

namespace bcast::plan {

std::string node_name(std::size_t index, const OpInfo* info) {
    return "node " + std::to_string(index) + (info ? std::string(" (") + info->name + ")" : "");
}

Expression::Expression(bcast_dtype dtype, std::size_t num_inputs) : dtype_(dtype) {
    if (!valid_dtype(dtype)) fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown dtype " + std::to_string(dtype));
    if (num_inputs < 1 || num_inputs > kMaxInputs) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "an expression takes 1 to " + std::to_string(kMaxInputs) +
                                               " inputs, not " + std::to_string(num_inputs));
    }
    input_dtypes_.assign(num_inputs, dtype);
    input_used_.assign(num_inputs, false);
    input_quantization_.assign(num_inputs, std::nullopt);
    nodes_.reserve(kMaxNodes);
}

void Expression::check_input(std::size_t input) const {
    if (input >= num_inputs()) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "input " + std::to_string(input) + ": the expression has " +
                                               std::to_string(num_inputs()) + " inputs");
    }
}

void Expression::check_unused(std::size_t input, const char* what) const {
    if (input_used_[input]) {
        fail(BCAST_ERROR_INVALID_STATE, "input " + std::to_string(input) +
                                            " is already used by a node: set its " + what + " first");
    }
}

void Expression::set_input_dtype(std::size_t input, bcast_dtype dtype) {
    check_input(input);
    if (!valid_dtype(dtype)) fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown dtype " + std::to_string(dtype));
    check_unused(input, "dtype");
    input_dtypes_[input] = dtype;
    input_quantization_[input].reset();
}

void Expression::set_input_quantization(std::size_t input, const Quantization& q) {
    check_input(input);
    check_quantization(q, ("input " + std::to_string(input)).c_str());
    check_unused(input, "quantization");
    input_dtypes_[input] = BCAST_DTYPE_F32;  // what the nodes see
    input_quantization_[input] = q;
}

void Expression::set_output_quantization(const Quantization& q) {
    check_quantization(q, "the output");
    output_quantization_ = q;
}

const Quantization* Expression::input_quantization(std::size_t input) const {
    return input < num_inputs() && input_quantization_[input] ? &*input_quantization_[input] : nullptr;
}

const Quantization* Expression::output_quantization() const {
    return output_quantization_ ? &*output_quantization_ : nullptr;
}

Quantization Expression::quantization(std::size_t operand) const {
    if (operand == BCAST_OUTPUT) {
        if (!output_quantization_) fail(BCAST_ERROR_INVALID_STATE, "the output has no quantization");
        return *output_quantization_;
    }
    check_input(operand);
    if (!input_quantization_[operand]) {
        fail(BCAST_ERROR_INVALID_STATE, "input " + std::to_string(operand) + " has no quantization");
    }
    return *input_quantization_[operand];
}

bool Expression::quantized() const {
    if (output_quantization_) return true;
    for (const auto& q : input_quantization_) {
        if (q) return true;
    }
    return false;
}

bcast_dtype Expression::stored_dtype(std::size_t input) const {
    const Quantization* q = input_quantization(input);
    return q ? q->dtype : input_dtypes_[input];
}

bcast_dtype Expression::value_dtype(std::size_t value) const {
    return value < num_inputs() ? input_dtypes_[value] : nodes_[value - num_inputs()].out_dtype;
}

std::size_t Expression::add_node(bcast_opcode opcode, bcast_rule rule, int64_t axis,
                                 std::size_t num_operands, const std::size_t* operands) {
    const std::size_t index = nodes_.size();
    const OpInfo& info = checked_op(opcode, (node_name(index, nullptr) + ": ").c_str());
    const std::string name = node_name(index, &info);
    const std::string prefix = name + ": ";
    if (index >= kMaxNodes) {
        fail(BCAST_ERROR_UNSUPPORTED, name + ": an expression holds at most " +
                                          std::to_string(kMaxNodes) + " nodes");
    }
    check_rule(rule, prefix.c_str());
    check_axis(axis, prefix.c_str());
    check_arity(info, num_operands, name.c_str(), "operands");
    if (!operands) fail(BCAST_ERROR_INVALID_ARGUMENT, name + ": operands is NULL");
    for (std::size_t k = 0; k < num_operands; ++k) {
        if (operands[k] >= num_values()) {
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 name + ": operand " + std::to_string(k) + " is value " + std::to_string(operands[k]) +
                     ", but only values 0 to " + std::to_string(num_values() - 1) +
                     " exist (the inputs, then the nodes added so far)");
        }
    }
    // The op's dtype is its data operands' (SELECT: x and y; its condition
    // must be BOOL), and every data operand must have it.
    const bool select = opcode == BCAST_OP_SELECT;
    const std::size_t first_data = select ? 1 : 0;
    const bcast_dtype dtype = value_dtype(operands[first_data]);
    if (select && value_dtype(operands[0]) != BCAST_DTYPE_BOOL) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, name + ": the condition (value " + std::to_string(operands[0]) +
                                               ") is " + dtype_name(value_dtype(operands[0])) +
                                               ", not bool");
    }
    for (std::size_t k = first_data; k < num_operands; ++k) {
        if (value_dtype(operands[k]) != dtype) {
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 name + ": operand " + std::to_string(k) + " (value " + std::to_string(operands[k]) +
                     ") is " + dtype_name(value_dtype(operands[k])) + " but operand " +
                     std::to_string(first_data) + " is " + dtype_name(dtype));
        }
    }
    check_supports(opcode, dtype, name.c_str());
    Node node;
    node.opcode = opcode;
    node.rule = rule;
    node.axis = axis;
    node.num_operands = num_operands;
    for (std::size_t k = 0; k < num_operands; ++k) node.operands[k] = operands[k];
    node.dtype = dtype;
    node.out_dtype = output_dtype(opcode, dtype);
    nodes_.push_back(node);  // reserved: no allocation
    for (std::size_t k = 0; k < num_operands; ++k) {
        if (operands[k] < num_inputs()) input_used_[operands[k]] = true;
    }
    return num_inputs() + index;
}

void Expression::set_output(std::size_t value) {
    if (value < num_inputs() || value >= num_values()) {
        const std::string nodes = num_values() == num_inputs()
                                      ? "there are no nodes yet"
                                      : "nodes are values " + std::to_string(num_inputs()) + " to " +
                                            std::to_string(num_values() - 1);
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             "output: value " + std::to_string(value) + " is not a node (" + nodes + ")");
    }
    output_set_ = true;
    output_ = value;
}

std::size_t Expression::output() const {
    if (nodes_.empty()) fail(BCAST_ERROR_INVALID_STATE, "the expression has no nodes");
    return output_set_ ? output_ : num_values() - 1;
}

}  // namespace bcast::plan
