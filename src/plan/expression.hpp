// A fused expression: a chain (a DAG) of the op table's ops over N inputs,
// built node by node and checked as it grows. Values are numbered: inputs
// 0..N-1, then node k is value N+k. A node may use only values that exist
// when it is added, so a graph has no cycle and no dangling reference by
// construction; everything else a node could get wrong (arity, dtypes, an
// op without the dtype, too many nodes) is refused by add_node, naming it.
#pragma once

#include "core/op_info.hpp"
#include "core/quantization.hpp"
#include "core/shape.hpp"

#include <bcast/bcast.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bcast::plan {

// Nodes per expression (the documented limit, BCAST_EXPR_MAX_NODES).
constexpr std::size_t kMaxNodes = 16;

struct Node {
    bcast_opcode opcode = 0;
    bcast_rule rule = BCAST_RULE_NUMPY;
    int64_t axis = -1;
    std::size_t num_operands = 0;
    std::array<std::size_t, kMaxInputs> operands{};  // value ids
    bcast_dtype dtype = 0;      // the op's dtype, as bcast_op_create takes it
    bcast_dtype out_dtype = 0;  // BOOL for comparisons and logical ops
};

class Expression {
public:
    // Throws INVALID_ARGUMENT for a bad dtype or input count (1..kMaxInputs).
    Expression(bcast_dtype dtype, std::size_t num_inputs);

    // An input's dtype (default: the expression's), e.g. BOOL for SELECT's
    // condition. INVALID_STATE once a node uses the input.
    void set_input_dtype(std::size_t input, bcast_dtype dtype);

    // A quantized input: stored as q.dtype (u8/i8), dequantized to f32 as it
    // is read, so the nodes see an f32 value. INVALID_STATE once a node uses
    // the input; INVALID_ARGUMENT / UNSUPPORTED for bad parameters.
    void set_input_quantization(std::size_t input, const Quantization& q);
    // The output quantized to q from its node's f32 result (the plan refuses
    // any other result dtype).
    void set_output_quantization(const Quantization& q);
    // nullptr where the operand is not quantized.
    const Quantization* input_quantization(std::size_t input) const;
    const Quantization* output_quantization() const;
    bool quantized() const;
    // An input's or the output's (BCAST_OUTPUT) quantization: INVALID_ARGUMENT
    // for a bad operand, INVALID_STATE where it has none.
    Quantization quantization(std::size_t operand) const;
    // What an input holds in memory: its quantized dtype, else its dtype.
    bcast_dtype stored_dtype(std::size_t input) const;

    // Adds a node; returns its value id. The node's dtype is its operands'
    // (SELECT: its x and y; the condition must be BOOL).
    std::size_t add_node(bcast_opcode opcode, bcast_rule rule, int64_t axis,
                         std::size_t num_operands, const std::size_t* operands);

    // Which node's value the expression computes (default: the last node).
    void set_output(std::size_t value);

    bcast_dtype dtype() const { return dtype_; }
    std::size_t num_inputs() const { return input_dtypes_.size(); }
    std::size_t num_nodes() const { return nodes_.size(); }
    std::size_t num_values() const { return num_inputs() + nodes_.size(); }
    const Node& node(std::size_t k) const { return nodes_[k]; }
    bcast_dtype value_dtype(std::size_t value) const;
    // INVALID_STATE without nodes.
    std::size_t output() const;

    // A single op planned as this one-node expression (a quantized op): its
    // messages are the op's, naming no node its caller never made.
    void mark_single_op() { single_op_ = true; }
    bool single_op() const { return single_op_; }

private:
    // INVALID_ARGUMENT for a bad index; INVALID_STATE once a node uses it.
    void check_input(std::size_t input) const;
    void check_unused(std::size_t input, const char* what) const;

    bcast_dtype dtype_;
    std::vector<bcast_dtype> input_dtypes_;
    std::vector<bool> input_used_;
    std::vector<std::optional<Quantization>> input_quantization_;
    std::optional<Quantization> output_quantization_;
    std::vector<Node> nodes_;
    bool output_set_ = false;
    std::size_t output_ = 0;
    bool single_op_ = false;
};

// "node K (NAME)" in messages about node K, or "node K" before its op is
// known (a null info).
std::string node_name(std::size_t index, const OpInfo* info);

}  // namespace bcast::plan
