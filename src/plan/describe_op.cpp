// bcast_op_describe's JSON: what a user needs to see why an op is fast or
// slow. The op's plan is its one-node expression's; this names its one
// step's kernel and operands as the op calls them (x, y in kernel order).
#include "core/op_info.hpp"
#include "plan/fused_plan.hpp"
#include "plan/json.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace bcast::plan {
namespace {

// The step's operands in the order its kernel takes them: x, y exchanged
// where it runs an exchanged op's kernel.
std::array<std::size_t, kMaxInputs> kernel_reads(const Step& step) {
    std::array<std::size_t, kMaxInputs> reads{};
    for (std::size_t j = 0; j < step.num_operands; ++j) reads[j] = step.operands[j].index;
    if (step.swap) std::swap(reads[0], reads[1]);
    return reads;
}

bcast_opcode kernel_op(const Step& step) {
    return step.swap ? static_cast<bcast_opcode>(exchanged_op(step.kernel_op, step.dtype)) : step.kernel_op;
}

// Only where the kernels compute another op on the operands as listed
// (RSUB as SUB, LESS as GREATER with x and y exchanged).
std::string kernel_op_json(bcast_opcode opcode, const Step& step) {
    const bcast_opcode op = kernel_op(step);
    if (op == opcode) return "";
    const OpInfo* info = op_info(op);
    return ",\"kernel_op\":" + quoted(info ? info->name : "?");
}

// The read that repeats a short row along the line (its stride in the
// loops reads 0), as operand x or y of the kernel; kMaxInputs for none.
std::size_t pattern_operand(const FusedPlan& p, const std::array<std::size_t, kMaxInputs>& reads) {
    for (std::size_t k = 0; k < p.num_reads && k < 2; ++k) {
        if (p.leaf_period[reads[k]] > 0) return k;
    }
    return kMaxInputs;
}

std::string pattern_json(std::size_t period, bool x) {
    return ",\"period\":" + std::to_string(period) + ",\"pattern\":" + quoted(x ? "x" : "y");
}

const char* kernel_name(const FusedPlan& p, const Step& step, bool pattern) {
    if (p.nest.empty) return "empty";
    switch (step.call) {
        case Call::kScalar: return "fill";  // one element, broadcast along the line
        case Call::kUnary: return step.operand_scalar[0] ? "fill" : "copy";
        case Call::kStrided: return step.num_operands > 2 ? "nary" : "strided";
        case Call::kBinary: break;
    }
    if (pattern) return "periodic";
    // An operand read along other strides is gathered block by block.
    for (std::size_t l = 0; l < p.num_reads; ++l) {
        if (p.leaf_slot[l] != kNoSlot) return "strided";
    }
    const bool xs = step.operand_scalar[step.swap ? 1 : 0], ys = step.operand_scalar[step.swap ? 0 : 1];
    return !xs && !ys ? "vv" : !xs ? "vs" : "sv";
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

// Elements per kernel call: the block, or the line where a line runs in
// one call (the block is then a bound no line reaches).
uint64_t elements_per_call(const FusedPlan& p) {
    if (p.nest.empty) return 0;
    const uint64_t line = p.nest.num_loops > 0 ? static_cast<uint64_t>(p.nest.loops[p.nest.num_loops - 1].extent) : 1;
    return std::min<uint64_t>(p.block, line);
}

std::string plan_fields(bcast_opcode opcode, const FusedPlan& p) {
    const Step& step = p.steps[0];
    const std::array<std::size_t, kMaxInputs> reads = kernel_reads(step);
    const std::size_t pattern = pattern_operand(p, reads);
    std::string s = layout_json(p, reads.data()) + ",\"kernel\":";
    if (p.quantize_out) {  // dequantize, the op in f32, quantize: block by block
        s += std::string("\"quantized\",\"requantize\":") + requantize_json(p.checked_pairs) +
             ",\"in_registers\":" + (p.quant_binary ? "true" : "false");
    } else {
        s += quoted(kernel_name(p, step, pattern < kMaxInputs));
    }
    s += kernel_op_json(opcode, step) + ",\"elements_per_call\":" + std::to_string(elements_per_call(p)) +
         ",\"streaming_stores\":" + (p.stream ? "true" : "false");
    if (p.block_rows > 0 && step.binary2d) {
        const auto rows = static_cast<uint64_t>(p.nest.loops[p.nest.num_loops - 2].extent);
        s += ",\"rows_per_call\":" + std::to_string(std::min<uint64_t>(rows, p.block_rows));
    }
    if (pattern < kMaxInputs) s += pattern_json(p.leaf_period[reads[pattern]], pattern == 0);
    // Lines this long run the affine kernel where it checks out exact.
    if (p.affine_min_line > 0) s += ",\"checked_affine_from\":" + std::to_string(p.affine_min_line);
    if (p.quant_rows) s += ",\"byte_rows\":\"planned\"";
    return s;
}

}  // namespace

std::string describe_op_json(bcast_opcode opcode, bcast_dtype dtype, bcast_rule rule, int64_t axis,
                             const FusedPlan* plan) {
    const OpInfo* info = op_info(opcode);
    std::string s = "{\"op\":" + quoted(info ? info->name : "?") +
                    ",\"dtype\":" + quoted(dtype_name(dtype)) + ",\"rule\":" +
                    quoted(rule_name(rule) ? rule_name(rule) : "?") +
                    ",\"axis\":" + std::to_string(axis);
    s += plan ? plan_fields(opcode, *plan) : std::string(",\"planned\":false");
    return s + "}";
}

}  // namespace bcast::plan
