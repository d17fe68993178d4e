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
        const FusedPlan& q = *p.quantized;
        std::string s = layout_json(p) + ",\"kernel\":\"quantized\",\"requantize\":\"divide\"" +
                        ",\"in_registers\":" + (q.quant_binary ? "true" : "false") + kernel_op_json(p) +
                        ",\"elements_per_call\":" + std::to_string(q.block) +
                        ",\"streaming_stores\":" + (p.stream ? "true" : "false");
        // A short row repeated along the line (its stride above reads 0).
        for (std::size_t l = 0; l < q.num_reads && l < 2; ++l) {
            if (q.leaf_period[l] == 0) continue;
            s += ",\"period\":" + std::to_string(q.leaf_period[l]) + ",\"pattern\":" + quoted(l == 0 ? "x" : "y");
        }
        return s;
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
