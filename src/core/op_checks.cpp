#include "core/op_checks.hpp"

#include "core/error.hpp"

#include <string>

namespace bcast {

const OpInfo& checked_op(int64_t opcode, const char* prefix) {
    const OpInfo* info = opcode < INT32_MIN || opcode > INT32_MAX
                             ? nullptr
                             : op_info(static_cast<bcast_opcode>(opcode));
    if (!info) fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(prefix) + "unknown opcode " + std::to_string(opcode));
    return *info;
}

void check_rule(int64_t rule, const char* prefix) {
    if (rule < INT32_MIN || rule > INT32_MAX || !rule_name(static_cast<bcast_rule>(rule))) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(prefix) + "unknown rule " + std::to_string(rule));
    }
}

void check_axis(int64_t axis, const char* prefix) {
    if (axis < -1) {
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             std::string(prefix) + "axis " + std::to_string(axis) + " is negative; only -1 (default) is allowed");
    }
}

void check_supports(bcast_opcode opcode, bcast_dtype dtype, const char* who) {
    if (!op_supports(opcode, dtype)) {
        fail(BCAST_ERROR_UNSUPPORTED, std::string(who) + " does not take dtype " + dtype_name(dtype));
    }
}

void check_arity(const OpInfo& info, std::size_t count, const char* who, const char* noun) {
    const auto n = static_cast<int64_t>(count);
    if (n >= info.min_inputs && n <= info.max_inputs) return;
    const std::string want = std::to_string(info.min_inputs) +
                             (info.min_inputs == info.max_inputs ? "" : " to " + std::to_string(info.max_inputs));
    fail(BCAST_ERROR_UNSUPPORTED, std::string(who) + " takes " + want + " " + noun + ", got " + std::to_string(count));
}

}  // namespace bcast
