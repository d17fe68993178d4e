// The checks an op's parameters get wherever they are given: on a bcast_op
// (handles/operator.cpp) or on an expression's node (plan/expression.cpp).
// `prefix` starts each message ("" or "node 2 (ADD): "); messages are built
// only on failure (a plan call allocates nothing for its checks).
#pragma once

#include "core/op_info.hpp"

#include <cstddef>
#include <cstdint>

namespace bcast {

// INVALID_ARGUMENT for an opcode the table lacks.
const OpInfo& checked_op(int64_t opcode, const char* prefix);
// INVALID_ARGUMENT for an unknown rule, and for an axis below -1.
void check_rule(int64_t rule, const char* prefix);
void check_axis(int64_t axis, const char* prefix);
// UNSUPPORTED unless the op (known) takes dtype (valid): "<who> does not
// take dtype f16".
void check_supports(bcast_opcode opcode, bcast_dtype dtype, const char* who);
// UNSUPPORTED unless the op takes `count` inputs: "<who> takes 2 to 16 <noun>, got 1".
void check_arity(const OpInfo& info, std::size_t count, const char* who, const char* noun);

// The operand the others go into under one-sided rules (unidirectional,
// pdpd, onnx_legacy): SELECT's x (operand 1), else operand 0.
constexpr std::size_t primary_operand(bcast_opcode opcode) { return opcode == BCAST_OP_SELECT ? 1 : 0; }

}  // namespace bcast
