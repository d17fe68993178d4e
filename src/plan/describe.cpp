// bcast_op_describe's JSON: what a user needs to see why an op is fast or slow.
#include "core/op_info.hpp"
#include "plan/json.hpp"
#include "plan/plan.hpp"

#include <string>

namespace bcast::plan {
namespace {

// Only where the kernels compute another op on the operands as listed
// (RSUB as SUB, LESS as GREATER with x and y exchanged).
std::string kernel_op_json(const Plan& p) {
    if (p.kernel_op == p.opcode) return "";
    const OpInfo* info = op_info(p.kernel_op);
    return ",\"kernel_op\":" + quoted(info ? info->name : "?");
}

std::string plan_fields(const Plan& p) {
    if (p.quantized) {  // dequantize, the op in f32, quantize: block by block
        return layout_json(p) + ",\"kernel\":\"quantized\",\"requantize\":\"divide\"" +
               ",\"in_registers\":" + (p.quantized->quant_binary ? "true" : "false") +
               kernel_op_json(p) + ",\"elements_per_call\":" + std::to_string(p.quantized->block);
    }
    std::string s = layout_json(p) + ",\"kernel\":" + quoted(inner_kind_name(p.kind, p.num_reads)) +
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
