// bcast_op_describe's JSON: what a user needs to see why an op is fast or slow.
#include "core/op_info.hpp"
#include "plan/json.hpp"
#include "plan/plan.hpp"

#include <string>

namespace bcast::plan {
namespace {

std::string operands_json(const Plan& p) {
    std::string s = "[";
    for (std::size_t k = 0; k < p.num_inputs; ++k) {
        s += "\"input" + std::to_string(p.input_order[k]) + "\",";
    }
    return s + "\"output\"]";
}

// Only where the kernels compute another op on the operands as listed
// (RSUB as SUB, LESS as GREATER with x and y exchanged).
std::string kernel_op_json(const Plan& p) {
    if (p.kernel_op == p.opcode) return "";
    const OpInfo* info = op_info(p.kernel_op);
    return ",\"kernel_op\":" + quoted(info ? info->name : "?");
}

std::string plan_fields(const Plan& p) {
    std::string s = ",\"planned\":true,\"isa\":" + quoted(p.isa) +
                    ",\"output_shape\":" + json_list(p.out.dims.data(), p.out.rank) +
                    ",\"operands\":" + operands_json(p) + ",\"loops\":" + loops_json(p.nest, p.num_inputs + 1) +
                    ",\"kernel\":" + quoted(inner_kind_name(p.kind, p.num_inputs)) +
                    kernel_op_json(p) +
                    ",\"elements_per_call\":" + std::to_string(p.inner_count) +
                    ",\"streaming_stores\":" + (p.stream ? "true" : "false");
    if (p.rows > 0) s += ",\"rows_per_call\":" + std::to_string(p.rows);
    if (p.kind == InnerKind::PeriodicX || p.kind == InnerKind::PeriodicY) {
        s += ",\"period\":" + std::to_string(p.period) + ",\"pattern\":" +
             quoted(p.kind == InnerKind::PeriodicX ? "x" : "y");
    }
    return s;
}

}  // namespace

std::string describe_json(bcast_opcode opcode, bcast_dtype dtype, bcast_rule rule, int64_t axis,
                          const Plan* plan) {
    const OpInfo* info = op_info(opcode);
    std::string s = "{\"op\":" + quoted(info ? info->name : "?") +
                    ",\"dtype\":" + quoted(dtype_name(dtype)) + ",\"rule\":" +
                    quoted(rule_name(rule) ? rule_name(rule) : "?") +
                    ",\"axis\":" + std::to_string(axis);
    s += plan ? plan_fields(*plan) : std::string(",\"planned\":false");
    return s + "}";
}

}  // namespace bcast::plan
