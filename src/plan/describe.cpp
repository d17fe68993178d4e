// bcast_op_describe's JSON: what a user needs to see why an op is fast or slow.
#include "core/op_info.hpp"
#include "plan/json.hpp"
#include "plan/plan.hpp"

#include <algorithm>
#include <cstdint>
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

// A short row repeated along the line, operand x or y (its stride in the
// loops reads 0).
std::string pattern_json(std::size_t period, bool x) {
    return ",\"period\":" + std::to_string(period) + ",\"pattern\":" + quoted(x ? "x" : "y");
}

// How a quantized op's quotient is computed (checked: at planning, on all
// 65,536 byte pairs).
const char* requantize_json(FusedPlan::CheckedPairs checked) {
    switch (checked) {
        case FusedPlan::CheckedPairs::kAffine: return "\"checked affine\"";
        case FusedPlan::CheckedPairs::kReciprocal: return "\"checked reciprocal\"";
        case FusedPlan::CheckedPairs::kNone: break;
    }
    return "\"divide\"";
}

// A quantized plan's block, or its line where a line runs in one call
// (the block is then a bound no line reaches).
uint64_t elements_per_call(const FusedPlan& q) {
    const uint64_t line = q.nest.num_loops > 0 ? static_cast<uint64_t>(q.nest.loops[q.nest.num_loops - 1].extent) : 1;
    return std::min<uint64_t>(q.block, line);
}

std::string plan_fields(const Plan& p) {
    if (p.quantized) {  // dequantize, the op in f32, quantize: block by block
        const FusedPlan& q = *p.quantized;
        std::string s = layout_json(p) + ",\"kernel\":\"quantized\",\"requantize\":" +
                        requantize_json(q.checked_pairs) +
                        ",\"in_registers\":" + (q.quant_binary ? "true" : "false") + kernel_op_json(p) +
                        ",\"elements_per_call\":" + std::to_string(elements_per_call(q)) +
                        ",\"streaming_stores\":" + (p.stream ? "true" : "false");
        for (std::size_t l = 0; l < q.num_reads && l < 2; ++l) {
            if (q.leaf_period[l] > 0) s += pattern_json(q.leaf_period[l], l == 0);
        }
        // Lines this long run the affine kernel where it checks out exact.
        if (q.affine_min_line > 0) s += ",\"checked_affine_from\":" + std::to_string(q.affine_min_line);
        if (q.quant_rows) s += ",\"byte_rows\":\"planned\"";
        return s;
    }
    std::string s = layout_json(p) + ",\"kernel\":" + quoted(inner_kind_name(p.kind, p.num_reads)) +
                    kernel_op_json(p) +
                    ",\"elements_per_call\":" + std::to_string(p.inner_count) +
                    ",\"streaming_stores\":" + (p.stream ? "true" : "false");
    if (p.rows > 0) s += ",\"rows_per_call\":" + std::to_string(p.rows);
    if (p.kind == InnerKind::PeriodicX || p.kind == InnerKind::PeriodicY) {
        s += pattern_json(p.period, p.kind == InnerKind::PeriodicX);
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
